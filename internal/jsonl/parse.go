package jsonl

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
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
	spaced bool // white space met inside the value SkipCompact skips
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

func (p *Parser) ws() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

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
	if len(p.data)-p.pos < len(lit) || string(p.data[p.pos:p.pos+len(lit)]) != lit {
		p.Fail()
		return false
	}
	p.pos += len(lit)
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
	p.spaced = false
	p.skip()
	if p.failed {
		return nil, false
	}
	return p.data[start:p.pos], !p.spaced
}

// wsIn skips white space inside a value being skipped, noting any.
func (p *Parser) wsIn() {
	if p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.spaced = true
		p.ws()
	}
}

// skip consumes one value at p.pos (white space already skipped).
func (p *Parser) skip() {
	d := p.data
	if p.pos >= len(d) {
		p.Fail()
		return
	}
	switch c := d[p.pos]; c {
	case '"':
		p.str()
	case '{', '[':
		if p.depth++; p.depth > maxDepth {
			p.Fail()
			return
		}
		closing := byte('}')
		if c == '[' {
			closing = ']'
		}
		p.pos++
		p.wsIn()
		if p.pos < len(d) && d[p.pos] == closing {
			p.pos++
			p.depth--
			return
		}
		for !p.failed {
			if c == '{' {
				if p.pos >= len(d) || d[p.pos] != '"' {
					p.Fail()
					return
				}
				p.str()
				p.wsIn()
				if p.pos >= len(d) || d[p.pos] != ':' {
					p.Fail()
					return
				}
				p.pos++
				p.wsIn()
			}
			p.skip()
			p.wsIn()
			if p.pos >= len(d) {
				p.Fail()
				return
			}
			switch d[p.pos] {
			case ',':
				p.pos++
				p.wsIn()
				continue
			case closing:
				p.pos++
				p.depth--
				return
			}
			p.Fail()
		}
	case 't':
		p.literal("true")
	case 'f':
		p.literal("false")
	case 'n':
		p.literal("null")
	default:
		p.number()
	}
}

// number consumes a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
// and reports whether it was a plain integer.
func (p *Parser) number() (integer bool) {
	d, i := p.data, p.pos
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
		p.Fail()
		return false
	}
	integer = true
	if i < len(d) && d[i] == '.' {
		integer = false
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			p.Fail()
			return false
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
			p.Fail()
			return false
		}
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
		}
	}
	p.pos = i
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
		return unquote(p.data[start+1 : end-1])
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

const (
	loBits = 0x0101010101010101
	hiBits = 0x8080808080808080
)

// special reports whether any of the eight bytes in x is a quote, a
// backslash or below 0x20 (the classic "has zero byte" and "has byte
// less than n" word tests).
func special(x uint64) bool {
	q := x ^ (loBits * '"')
	b := x ^ (loBits * '\\')
	return ((q-loBits)&^q|(b-loBits)&^b|(x-loBits*0x20)&^x)&hiBits != 0
}

// plain marks the bytes that may stand in a string as they are: not a
// quote, a backslash or a control character.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str consumes the string at p.pos (its opening quote), checking its
// escapes, and returns the offset just past its closing quote, whether it
// holds escapes and whether it holds bytes above 0x7f.
func (p *Parser) str() (end int, escaped, high bool) {
	d := p.data
	i := p.pos + 1
	var or byte
	var or64 uint64
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if special(x) {
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
			p.Fail()
			return 0, false, false
		}
		switch d[i] {
		case '"':
			p.pos = i + 1
			return i + 1, escaped, or >= 0x80
		case '\\':
			escaped = true
			if i+1 >= len(d) {
				p.Fail()
				return 0, false, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(d) || hex4(d[i+2:i+6]) < 0 {
					p.Fail()
					return 0, false, false
				}
				i += 6
			default:
				p.Fail()
				return 0, false, false
			}
		default: // a control character
			p.Fail()
			return 0, false, false
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

// unquote decodes the inside of a string already checked by str, as
// encoding/json does: a \u escape of half a surrogate pair that is not
// followed by its other half becomes U+FFFD.
func unquote(s []byte) string {
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
