package jsonl

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The scanning functions below are the one strict JSON scanner harpe has:
// [Parser] and [Lexer] are built on them, and so are the item reader of
// pkg/engine and the tokenizer.json reader of pkg/tokenize/hf. Each
// takes the text and a position and returns the position after what it
// read; on text that is not valid JSON it returns ok false and the
// position where it stopped.

// SkipSpace returns the position of the first byte at or after i that is
// not JSON white space (space, tab, newline, carriage return).
func SkipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

// ScanLiteral reads lit (true, false or null) at d[i:].
func ScanLiteral(d []byte, i int, lit string) (end int, ok bool) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// special reports whether any of the eight bytes in x is a quote, a
// backslash or below 0x20 (the classic "has zero byte" and "has byte
// less than n" word tests).
func special(x uint64) bool { return specialMask(x) != 0 }

// specialMask is [special]'s test as a mask: the lowest bit it sets is
// the high bit of the first such byte (a borrow can set bits above a
// special byte, never below one).
func specialMask(x uint64) uint64 {
	q := x ^ (loBits * '"')
	b := x ^ (loBits * '\\')
	return ((q-loBits)&^q | (b-loBits)&^b | (x-loBits*0x20)&^x) & hiBits
}

// plain marks the bytes that may stand in a string as they are: not a
// quote, a backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// ScanString reads the string whose opening quote is d[i], checking its
// escapes (not its UTF-8), and returns the position just past its closing
// quote, whether it holds escapes and whether it holds bytes above 0x7f.
// Its contents are d[i+1:end-1]; [Unquote] decodes them when escaped.
func ScanString(d []byte, i int) (end int, escaped, high, ok bool) {
	i++
	var or byte
	var or64 uint64
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if m := specialMask(x); m != 0 {
				// Straight to the first special byte.
				k := bits.TrailingZeros64(m) >> 3
				or64 |= x & (1<<(8*k) - 1)
				i += k
				break
			}
			or64 |= x
			i += 8
		}
		for i < len(d) && plain[d[i]] {
			or |= d[i]
			i++
		}
		if or64&hiBits != 0 {
			or |= 0x80
		}
		if i >= len(d) {
			return i, false, false, false
		}
		switch d[i] {
		case '"':
			return i + 1, escaped, or >= 0x80, true
		case '\\':
			escaped = true
			if i+1 >= len(d) {
				return i, false, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || hex4(d[i+2:i+6]) < 0 {
					return i, false, false, false
				}
				i += 6
			default:
				return i, false, false, false
			}
		default: // a control character
			return i, false, false, false
		}
	}
}

// hex4 decodes four hex digits, -1 when they are not.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// Unquote decodes the inside of a string already checked by [ScanString],
// as encoding/json does: a \u escape of half a surrogate pair that is not
// followed by its other half becomes U+FFFD.
func Unquote(s []byte) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		j := len(s)
		if k := bytes.IndexByte(s[i:], '\\'); k >= 0 {
			j = i + k
		}
		b.Write(s[i:j])
		if j >= len(s) {
			break
		}
		switch c := s[j+1]; c {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(s[j+2:])
			j += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if j+8 <= len(s) && s[j+2] == '\\' && s[j+3] == 'u' {
					r2 = hex4(s[j+4:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					r = dec
					j += 6
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default: // '"', '\\', '/'
			b.WriteByte(c)
		}
		i = j + 2
	}
	return b.String()
}

// ScanNumber reads a JSON number at d[i:],
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and reports whether it
// is a plain integer (no fraction, no exponent).
func ScanNumber(d []byte, i int) (end int, integer, ok bool) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	default:
		return i, false, false
	}
	integer = true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		integer = false
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, false, false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	return i, integer, true
}

// ScanInt reads, in one pass, a JSON number at d[i:] that is a plain
// integer of at most 18 digits (so that it fits an int64) and returns its
// value. ok is false for anything else (no number, a fraction, an
// exponent, more digits), which [ScanNumber] then reads. Like
// ScanNumber, it stops after a leading 0 ("01" is 0, then a 1).
func ScanInt(d []byte, i int) (end int, v int64, ok bool) {
	neg := i < len(d) && d[i] == '-'
	if neg {
		i++
	}
	first := i
	if i < len(d) && d[i] == '0' {
		i++
	} else {
		for i < len(d) && d[i]-'0' <= 9 {
			v = v*10 + int64(d[i]-'0')
			i++
		}
	}
	if i == first || i-first > 18 || i < len(d) && (d[i] == '.' || d[i] == 'e' || d[i] == 'E') {
		return i, 0, false
	}
	if neg {
		v = -v
	}
	return i, v, true
}

// SkipValue reads one value of any kind at d[i:] (white space before it
// is skipped), checking its grammar, with objects and arrays nested at most
// depth deep. It reports whether white space stands inside the value
// outside its strings (json.Compact would change it). It uses no
// recursion, so a deeply nested text costs no stack.
func SkipValue(d []byte, i, depth int) (end int, spaced, ok bool) {
	var stackBuf [32]byte
	stack := stackBuf[:0]
	i = SkipSpace(d, i)
	ws := func() {
		if j := SkipSpace(d, i); j != i {
			spaced = true
			i = j
		}
	}
	// key reads `"key" :` inside an object.
	key := func() bool {
		ws()
		if i >= len(d) || d[i] != '"' {
			return false
		}
		var ok bool
		if i, _, _, ok = ScanString(d, i); !ok {
			return false
		}
		ws()
		if i >= len(d) || d[i] != ':' {
			return false
		}
		i++
		return true
	}
	for {
		// A value is expected.
		if len(stack) > 0 {
			ws()
		}
		if i >= len(d) {
			return i, spaced, false
		}
		var ok bool
		switch c := d[i]; {
		case c == '"':
			i, _, _, ok = ScanString(d, i)
		case c == '{' || c == '[':
			if len(stack) >= depth {
				return i, spaced, false
			}
			stack = append(stack, c)
			i++
			ws()
			if i < len(d) && d[i] == c+2 { // '}' and ']' follow '{' and '[' by two
				stack = stack[:len(stack)-1]
				i++
				ok = true
				break
			}
			if c == '{' && !key() {
				return i, spaced, false
			}
			continue
		case c == 't':
			i, ok = ScanLiteral(d, i, "true")
		case c == 'f':
			i, ok = ScanLiteral(d, i, "false")
		case c == 'n':
			i, ok = ScanLiteral(d, i, "null")
		default:
			i, _, ok = ScanNumber(d, i)
		}
		if !ok {
			return i, spaced, false
		}
		// After a value: close containers, or find the next value.
		for {
			if len(stack) == 0 {
				return i, spaced, true
			}
			ws()
			if i >= len(d) {
				return i, spaced, false
			}
			c, top := d[i], stack[len(stack)-1]
			if c == ',' {
				i++
				if top == '{' && !key() {
					return i, spaced, false
				}
				break
			}
			if c != top+2 {
				return i, spaced, false
			}
			stack = stack[:len(stack)-1]
			i++
		}
	}
}

// DeeperThan returns the offset of the first '{' or '[' of d that opens a
// container more than limit levels deep, or -1 when there is none. It
// reads only the brackets outside strings, in one pass, so a check costs
// no more than a look at every byte; it does not check the rest of the
// grammar.
func DeeperThan(d []byte, limit int) int {
	depth := 0
	for i := 0; i < len(d); i++ {
		switch d[i] {
		case '"':
			for i++; i < len(d) && d[i] != '"'; i++ {
				if d[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > limit {
				return i
			}
		case '}', ']':
			depth--
		}
	}
	return -1
}
