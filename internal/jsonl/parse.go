package jsonl

import (
	"unicode/utf8"
)

// Parser is a cursor over one JSON text, for callers that pick a few known
// fields out of large lines by hand instead of through encoding/json. It
// checks the grammar of everything it passes over, values skipped included,
// so a text it reads to the end without failing is one encoding/json
// accepts, and the strings it returns are the ones encoding/json would
// decode.
//
// It never reports what is wrong: on anything it does not read exactly as
// encoding/json does (bad syntax, a key with escapes, a number that is not
// a plain integer, nesting deeper than 256, a wrong type asked for) it just
// fails, and stays failed; the caller then decodes the text with
// encoding/json, which gives the real result or the real error. A failed
// Parser returns zero values from every method.
//
// A string asked for that holds invalid UTF-8 fails the parser too
// (encoding/json would replace the bad bytes); other bytes of strings are
// copied as they are.
type Parser struct {
	data   []byte
	pos    int
	depth  int
	failed bool
	utf8ok bool // the text is known to be valid UTF-8
}

// maxDepth is how deep Parser nests before it gives up (encoding/json's own
// limit is 10,000; deeper texts go to it).
const maxDepth = 256

// NewParser returns a Parser at the start of data.
func NewParser(data []byte) Parser { return Parser{data: data} }

// NewParserUTF8 is [NewParser] for data the caller has checked is valid
// UTF-8, so that strings need no second check.
func NewParserUTF8(data []byte) Parser { return Parser{data: data, utf8ok: true} }

// Failed reports whether the parser has given up.
func (p *Parser) Failed() bool { return p.failed }

// Fail makes the parser give up, for a caller that meets something it does
// not handle (a duplicate field, a key that encoding/json would match
// case-insensitively).
func (p *Parser) Fail() { p.failed = true; p.pos = len(p.data) }

// End reports whether the whole text was read without failing: only white
// space may follow the value read.
func (p *Parser) End() bool {
	p.ws()
	if p.pos != len(p.data) {
		p.Fail()
	}
	return !p.failed
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (p *Parser) ws() { p.pos = SkipSpace(p.data, p.pos) }

// Peek returns the first byte of the next value ('{', '[', '"', 't', 'f',
// 'n', '-' or a digit), or 0 at the end or once failed.
func (p *Parser) Peek() byte {
	if p.failed {
		return 0
	}
	p.ws()
	if p.pos >= len(p.data) {
		return 0
	}
	return p.data[p.pos]
}

// Null consumes a null and reports whether there was one.
func (p *Parser) Null() bool {
	if p.Peek() != 'n' {
		return false
	}
	return p.literal("null")
}

func (p *Parser) literal(lit string) bool {
	end, ok := ScanLiteral(p.data, p.pos, lit)
	if !ok {
		p.Fail()
		return false
	}
	p.pos = end
	return true
}

// Object reads an object, calling field with each member's key (the bytes
// between its quotes, valid until the text changes); field must consume
// the member's value with exactly one value method (Skip, String, Object,
// …). A key with escapes fails the parser. Object reports whether the
// value was an object read without failing.
func (p *Parser) Object(field func(key []byte)) bool {
	if p.Peek() != '{' {
		p.Fail()
		return false
	}
	if p.depth++; p.depth > maxDepth {
		p.Fail()
		return false
	}
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		p.depth--
		return true
	}
	for !p.failed {
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			p.Fail()
			break
		}
		start := p.pos + 1
		end, escaped, _ := p.str()
		if p.failed || escaped {
			p.Fail()
			break
		}
		key := p.data[start : end-1]
		p.ws()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			p.Fail()
			break
		}
		p.pos++
		before := p.pos
		field(key)
		if p.pos == before && !p.failed {
			p.Fail() // field consumed nothing
		}
		p.ws()
		if p.pos >= len(p.data) {
			p.Fail()
			break
		}
		if c := p.data[p.pos]; c == ',' {
			p.pos++
			continue
		} else if c == '}' {
			p.pos++
			p.depth--
			return true
		}
		p.Fail()
	}
	return false
}

// Array reads an array, calling elem for each element; elem must consume
// the element with exactly one value method. It reports whether the value
// was an array read without failing.
func (p *Parser) Array(elem func()) bool {
	if p.Peek() != '[' {
		p.Fail()
		return false
	}
	if p.depth++; p.depth > maxDepth {
		p.Fail()
		return false
	}
	p.pos++
	p.ws()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		p.depth--
		return true
	}
	for !p.failed {
		before := p.pos
		elem()
		if p.pos == before && !p.failed {
			p.Fail()
		}
		p.ws()
		if p.pos >= len(p.data) {
			p.Fail()
			break
		}
		if c := p.data[p.pos]; c == ',' {
			p.pos++
			continue
		} else if c == ']' {
			p.pos++
			p.depth--
			return true
		}
		p.Fail()
	}
	return false
}

// Skip consumes the next value, whatever it is, and returns its bytes
// (no surrounding white space).
func (p *Parser) Skip() []byte {
	raw, _ := p.SkipCompact()
	return raw
}

// SkipCompact is [Parser.Skip] that also reports whether the value holds
// no white space outside its strings (so json.Compact would return it
// unchanged).
func (p *Parser) SkipCompact() (raw []byte, compact bool) {
	if p.Peek() == 0 {
		p.Fail()
		return nil, false
	}
	start := p.pos
	end, spaced, ok := SkipValue(p.data, p.pos, maxDepth-p.depth)
	if !ok {
		p.Fail()
		return nil, false
	}
	p.pos = end
	return p.data[start:end], !spaced
}

// number consumes a JSON number and reports whether it was a plain integer.
func (p *Parser) number() (integer bool) {
	end, integer, ok := ScanNumber(p.data, p.pos)
	if !ok {
		p.Fail()
		return false
	}
	p.pos = end
	return integer
}

// Int consumes an integer (or a null, which gives 0). Anything else, and
// integers of more than 18 digits, fail the parser.
func (p *Parser) Int() int {
	if p.Null() || p.failed {
		return 0
	}
	start := p.pos
	if !p.number() {
		p.Fail()
		return 0
	}
	digits := p.data[start:p.pos]
	neg := digits[0] == '-'
	if neg {
		digits = digits[1:]
	}
	if len(digits) > 18 {
		p.Fail()
		return 0
	}
	n := 0
	for _, c := range digits {
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n
}

// Bool consumes true, false or null (false).
func (p *Parser) Bool() bool {
	switch p.Peek() {
	case 't':
		return p.literal("true")
	case 'f':
		p.literal("false")
		return false
	case 'n':
		p.literal("null")
		return false
	}
	p.Fail()
	return false
}

// String consumes a string and returns it decoded (a null gives "").
// Anything else fails the parser.
func (p *Parser) String() string {
	switch p.Peek() {
	case '"':
		start := p.pos
		end, escaped, high := p.str()
		if p.failed {
			return ""
		}
		if high && !p.utf8ok && !utf8.Valid(p.data[start+1:end-1]) {
			p.Fail() // encoding/json would put U+FFFD for the bad bytes
			return ""
		}
		if !escaped {
			return string(p.data[start+1 : end-1])
		}
		return Unquote(p.data[start+1 : end-1])
	case 'n':
		p.literal("null")
		return ""
	}
	p.Fail()
	return ""
}

// StringIn is [Parser.String] that returns the element of known the string
// equals, when it is one and has no escapes, without allocating.
func (p *Parser) StringIn(known []string) string {
	if p.Peek() == '"' {
		d := p.data[p.pos+1:]
		for _, k := range known {
			if len(d) > len(k) && d[len(k)] == '"' && string(d[:len(k)]) == k {
				p.pos += len(k) + 2
				return k
			}
		}
	}
	return p.String()
}

// StringBytes is [Parser.String] that also returns the value's bytes,
// quotes included ("null" for a null).
func (p *Parser) StringBytes() (s string, raw []byte) {
	if p.Peek() == 0 {
		p.Fail()
		return "", nil
	}
	start := p.pos
	s = p.String()
	if p.failed {
		return "", nil
	}
	return s, p.data[start:p.pos]
}

// Mark returns where the next value starts, for [Parser.Since].
func (p *Parser) Mark() int {
	p.Peek()
	return p.pos
}

// Since returns the bytes read from mark (from [Parser.Mark]) to here.
func (p *Parser) Since(mark int) []byte {
	if p.failed {
		return nil
	}
	return p.data[mark:p.pos]
}

// str consumes the string at p.pos (its opening quote), checking its
// escapes, and returns the offset just past its closing quote, whether it
// holds escapes and whether it holds bytes above 0x7f.
func (p *Parser) str() (end int, escaped, high bool) {
	end, escaped, high, ok := ScanString(p.data, p.pos)
	if !ok {
		p.Fail()
		return 0, false, false
	}
	p.pos = end
	return end, escaped, high
}
