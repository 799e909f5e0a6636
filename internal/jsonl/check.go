package jsonl

import "strconv"

// Checker reads a stream of JSON values, one after another with white
// space between, as encoding/json's Decoder reads them, and finds the
// first syntax error: the one the Decoder gives, word for word, at the
// same byte. It holds only the nesting of the value it is in (at most
// [MaxDepth] bytes), so a document of any size is checked in fixed
// memory, fed to [Checker.Feed] in pieces of any size.
type Checker struct {
	state   uint8
	stack   []uint8 // the open containers: pKey, pValue or pElem
	off     int64   // bytes fed so far
	inValue bool    // a value has begun and not ended
	start   int64   // where the value being read began
	values  int     // values read to their end
	err     *SyntaxError
	// ended is set by Feed when it stopped at the end of a value.
	ended bool
}

// MaxDepth is the nesting encoding/json allows.
const MaxDepth = 10000

// SyntaxError is a Checker's verdict on its input.
type SyntaxError struct {
	// Offset is that of the offending byte from the start of the input,
	// or the input's length when it ended inside a value.
	Offset int64
	// Msg is encoding/json's message: "invalid character 'x' looking for
	// beginning of value", or "unexpected end of input" (its
	// io.ErrUnexpectedEOF) at the end.
	Msg string
}

func (e *SyntaxError) Error() string { return e.Msg }

// The scanner's states, named after encoding/json's step functions.
const (
	sBeginValue uint8 = iota
	sBeginValueOrEmpty
	sBeginString
	sBeginStringOrEmpty
	sEndValue
	sInString
	sInStringEsc
	sU
	sU1
	sU12
	sU123
	sNeg
	s1
	s0
	sDot
	sDot0
	sE
	sESign
	sE0
	sT
	sTr
	sTru
	sF
	sFa
	sFal
	sFals
	sN
	sNu
	sNul
)

// The containers' parse states.
const (
	pKey uint8 = iota
	pValue
	pElem
)

// literals are the states inside true, false and null: the byte each
// expects, the state after it, and what encoding/json says otherwise.
var literals = map[uint8]struct {
	want byte
	next uint8
	msg  string
}{
	sT:    {'r', sTr, "in literal true (expecting 'r')"},
	sTr:   {'u', sTru, "in literal true (expecting 'u')"},
	sTru:  {'e', sEndValue, "in literal true (expecting 'e')"},
	sF:    {'a', sFa, "in literal false (expecting 'a')"},
	sFa:   {'l', sFal, "in literal false (expecting 'l')"},
	sFal:  {'s', sFals, "in literal false (expecting 's')"},
	sFals: {'e', sEndValue, "in literal false (expecting 'e')"},
	sN:    {'u', sNu, "in literal null (expecting 'u')"},
	sNu:   {'l', sNul, "in literal null (expecting 'l')"},
	sNul:  {'l', sEndValue, "in literal null (expecting 'l')"},
}

// Offset is the number of bytes read so far.
func (c *Checker) Offset() int64 { return c.off }

// Values is the number of values read to their end.
func (c *Checker) Values() int { return c.values }

// Err is the syntax error found, nil for none (yet).
func (c *Checker) Err() *SyntaxError { return c.err }

// Ended reports whether the last [Checker.Feed] stopped at the end of a
// value, and where that value began; [Checker.Offset] is then just past
// its last byte.
func (c *Checker) Ended() (start int64, ok bool) { return c.start, c.ended }

// Feed reads p and returns how many of its bytes it took: all of them,
// or fewer when a value ended (see [Checker.Ended]) or an error was found
// (see [Checker.Err]). After an error it takes nothing more.
func (c *Checker) Feed(p []byte) int {
	c.ended = false
	for i := 0; i < len(p); i++ {
		if c.err != nil {
			return i
		}
		b := p[i]
		if c.state == sInString && b >= 0x20 && b != '"' && b != '\\' {
			// The common case, a run of plain bytes in a string.
			j := i + 1
			for j < len(p) && plain[p[j]] && p[j] != '"' && p[j] != '\\' {
				j++
			}
			c.off += int64(j - i)
			i = j - 1
			continue
		}
		if !c.inValue {
			if isSpace(b) {
				c.off++
				continue
			}
			c.inValue, c.start = true, c.off
			c.state = sBeginValue
		}
		if !c.step(b) {
			// A number at the top level ends at the byte after it, which
			// then begins what follows.
			c.inValue, c.ended = false, true
			c.values++
			return i
		}
		c.off++
		if c.state == sEndValue && len(c.stack) == 0 && c.err == nil {
			c.inValue, c.ended = false, true
			c.values++
			return i + 1
		}
	}
	return len(p)
}

// End is the end of the input: a value left open is an error.
func (c *Checker) End() {
	c.ended = false
	if c.err != nil || !c.inValue {
		return
	}
	if len(c.stack) == 0 && (c.state == s1 || c.state == s0 || c.state == sDot0 || c.state == sE0) {
		c.inValue, c.ended = false, true
		c.values++
		return
	}
	c.err = &SyntaxError{Offset: c.off, Msg: "unexpected end of input"}
}

// fail records the error at the byte b being read.
func (c *Checker) fail(b byte, context string) {
	c.err = &SyntaxError{Offset: c.off, Msg: "invalid character " + quoteChar(b) + " " + context}
}

// step reads b in the current state. It returns false, taking nothing,
// when b ends a number at the top level.
func (c *Checker) step(b byte) bool {
	switch st := c.state; st {
	case sBeginValueOrEmpty, sBeginValue:
		if isSpace(b) {
			return true
		}
		if st == sBeginValueOrEmpty && b == ']' {
			return c.endValue(b)
		}
		c.beginValue(b)
	case sBeginStringOrEmpty, sBeginString:
		switch {
		case isSpace(b):
		case st == sBeginStringOrEmpty && b == '}':
			c.stack[len(c.stack)-1] = pValue
			return c.endValue(b)
		case b == '"':
			c.state = sInString
		default:
			c.fail(b, "looking for beginning of object key string")
		}
	case sEndValue:
		return c.endValue(b)
	case sInString:
		switch {
		case b == '"':
			c.state = sEndValue
		case b == '\\':
			c.state = sInStringEsc
		case b < 0x20:
			c.fail(b, "in string literal")
		}
	case sInStringEsc:
		switch b {
		case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
			c.state = sInString
		case 'u':
			c.state = sU
		default:
			c.fail(b, "in string escape code")
		}
	case sU, sU1, sU12, sU123:
		if !isHex(b) {
			c.fail(b, "in \\u hexadecimal character escape")
		} else if st == sU123 {
			c.state = sInString
		} else {
			c.state++
		}
	default:
		return c.number(st, b)
	}
	return true
}

// number reads b inside a number or a literal.
func (c *Checker) number(st, b byte) bool {
	digit := '0' <= b && b <= '9'
	switch st {
	case sNeg:
		switch {
		case b == '0':
			c.state = s0
		case '1' <= b && b <= '9':
			c.state = s1
		default:
			c.fail(b, "in numeric literal")
		}
		return true
	case s1, s0:
		switch {
		case st == s1 && digit:
		case b == '.':
			c.state = sDot
		case b == 'e' || b == 'E':
			c.state = sE
		default:
			return c.endValue(b)
		}
		return true
	case sDot:
		if !digit {
			c.fail(b, "after decimal point in numeric literal")
		}
		c.state = sDot0
		return true
	case sDot0:
		switch {
		case digit:
		case b == 'e' || b == 'E':
			c.state = sE
		default:
			return c.endValue(b)
		}
		return true
	case sE, sESign:
		switch {
		case st == sE && (b == '+' || b == '-'):
			c.state = sESign
		case digit:
			c.state = sE0
		default:
			c.fail(b, "in exponent of numeric literal")
		}
		return true
	case sE0:
		if !digit {
			return c.endValue(b)
		}
		return true
	}
	l := literals[st]
	if b != l.want {
		c.fail(b, l.msg)
	} else {
		c.state = l.next
	}
	return true
}

// beginValue reads b, the first byte of a value.
func (c *Checker) beginValue(b byte) {
	switch {
	case b == '{' || b == '[':
		p, next := pKey, sBeginStringOrEmpty
		if b == '[' {
			p, next = pElem, sBeginValueOrEmpty
		}
		c.stack = append(c.stack, p)
		if len(c.stack) > MaxDepth {
			c.fail(b, "exceeded max depth")
			return
		}
		c.state = next
	case b == '"':
		c.state = sInString
	case b == '-':
		c.state = sNeg
	case b == '0':
		c.state = s0
	case '1' <= b && b <= '9':
		c.state = s1
	case b == 't':
		c.state = sT
	case b == 'f':
		c.state = sF
	case b == 'n':
		c.state = sN
	default:
		c.fail(b, "looking for beginning of value")
	}
}

// endValue reads b after a value. It returns false when the value was at
// the top level and b is not part of it.
func (c *Checker) endValue(b byte) bool {
	n := len(c.stack)
	if n == 0 {
		return false
	}
	c.state = sEndValue
	if isSpace(b) {
		return true
	}
	switch c.stack[n-1] {
	case pKey:
		if b == ':' {
			c.stack[n-1], c.state = pValue, sBeginValue
			return true
		}
		c.fail(b, "after object key")
	case pValue:
		switch b {
		case ',':
			c.stack[n-1], c.state = pKey, sBeginString
		case '}':
			c.stack = c.stack[:n-1]
		default:
			c.fail(b, "after object key:value pair")
		}
	case pElem:
		switch b {
		case ',':
			c.state = sBeginValue
		case ']':
			c.stack = c.stack[:n-1]
		default:
			c.fail(b, "after array element")
		}
	}
	return true
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// quoteChar quotes b as encoding/json's messages do.
func quoteChar(b byte) string {
	switch b {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(b)))
	return "'" + s[1:len(s)-1] + "'"
}
