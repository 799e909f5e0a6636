package hf

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// A hand-written reader for the two big values of a tokenizer.json, the
// vocabulary and the merges (nine tenths of a 10 MB file): encoding/json
// takes most of a second on them, this reader a tenth of that. The small
// values go through encoding/json. Strings without escapes are slices of
// the file's text, not copies.

type scan struct {
	s string
	i int
}

func (p *scan) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

func (p *scan) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek returns the next byte that is not white space, or 0.
func (p *scan) peek() byte {
	p.ws()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *scan) expect(c byte) error {
	if p.peek() != c {
		return p.errorf("want %q", c)
	}
	p.i++
	return nil
}

// str reads a string.
func (p *scan) str() (string, error) {
	if err := p.expect('"'); err != nil {
		return "", err
	}
	start := p.i
	k := strings.IndexByte(p.s[start:], '"')
	if k < 0 {
		return "", p.errorf("unterminated string")
	}
	if strings.IndexByte(p.s[start:start+k], '\\') < 0 {
		// No escape: the string is the text up to the quote. (Control
		// characters, which JSON forbids in strings, are let through.)
		p.i = start + k + 1
		return p.s[start : start+k], nil
	}
	return p.escaped(start)
}

// escaped reads the rest of a string that has an escape, from its start.
func (p *scan) escaped(start int) (string, error) {
	b := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(b), nil
		case c < 0x20:
			return "", p.errorf("control character in string")
		case c != '\\':
			b = append(b, c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			break
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.errorf(`bad \u escape`)
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if p.i+1 < len(p.s) && p.s[p.i] == '\\' && p.s[p.i+1] == 'u' {
					save := p.i
					p.i += 2
					if r2, ok = p.hex4(); !ok {
						return "", p.errorf(`bad \u escape`)
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
					} else {
						p.i = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", p.errorf("bad escape \\%c", e)
		}
	}
	return "", p.errorf("unterminated string")
}

func (p *scan) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

// int reads a whole number.
func (p *scan) int() (int, error) {
	p.ws()
	start := p.i
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
	}
	for p.i < len(p.s) && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	v, err := strconv.Atoi(p.s[start:p.i])
	if err != nil {
		return 0, p.errorf("want a whole number")
	}
	return v, nil
}

// list calls item for each element of an array.
func (p *scan) list(item func() error) error {
	if err := p.expect('['); err != nil {
		return err
	}
	if p.peek() == ']' {
		p.i++
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.i++
		case ']':
			p.i++
			return nil
		default:
			return p.errorf("want , or ]")
		}
	}
}

// object calls field for each key of an object, with p at its value.
func (p *scan) object(field func(key string) error) error {
	if err := p.expect('{'); err != nil {
		return err
	}
	if p.peek() == '}' {
		p.i++
		return nil
	}
	for {
		k, err := p.str()
		if err != nil {
			return err
		}
		if err := p.expect(':'); err != nil {
			return err
		}
		if err := field(k); err != nil {
			return err
		}
		switch p.peek() {
		case ',':
			p.i++
		case '}':
			p.i++
			return nil
		default:
			return p.errorf("want , or }")
		}
	}
}

// skip passes over one value and returns its text.
func (p *scan) skip() (string, error) {
	p.ws()
	start := p.i
	depth := 0
	for p.i < len(p.s) {
		switch c := p.s[p.i]; c {
		case '"':
			if _, err := p.str(); err != nil {
				return "", err
			}
			if depth == 0 {
				return p.s[start:p.i], nil
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				if p.i == start {
					return "", p.errorf("unexpected %q", c)
				}
				return p.s[start:p.i], nil
			}
			depth--
			if depth == 0 {
				p.i++
				return p.s[start:p.i], nil
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				if p.i == start {
					return "", p.errorf("want a value")
				}
				return p.s[start:p.i], nil
			}
		}
		p.i++
	}
	if depth == 0 && p.i > start {
		return p.s[start:p.i], nil
	}
	return "", p.errorf("unexpected end")
}

// fields returns the text of each value of the object in s, by key.
func fields(s string) (map[string]string, error) {
	p := &scan{s: s}
	out := map[string]string{}
	err := p.object(func(k string) error {
		v, err := p.skip()
		out[k] = v
		return err
	})
	if err == nil && p.peek() != 0 {
		err = p.errorf("text after the object")
	}
	return out, err
}

// decodeSmall decodes a small value with encoding/json.
func decodeSmall(s string, v any) error { return json.Unmarshal([]byte(s), v) }
