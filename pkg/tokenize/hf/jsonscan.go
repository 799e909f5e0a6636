package hf

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unsafe"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// A hand-written reader for the two big values of a tokenizer.json, the
// vocabulary and the merges (nine tenths of a 10 MB file): encoding/json
// takes most of a second on them, this reader a tenth of that. The small
// values go through encoding/json. Strings without escapes are slices of
// the file's text, not copies. The grammar is internal/jsonl's (its
// scanners read the text in place); the errors name the byte offset.

type scan struct {
	s string
	i int
}

func (p *scan) errorf(format string, args ...any) error {
	return fmt.Errorf("offset %d: %s", p.i, fmt.Sprintf(format, args...))
}

// text is p.s as bytes, not copied: jsonl's scanners only read it.
func (p *scan) text() []byte { return unsafe.Slice(unsafe.StringData(p.s), len(p.s)) }

func (p *scan) ws() { p.i = jsonl.SkipSpace(p.text(), p.i) }

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
	if p.peek() != '"' {
		return "", p.errorf("want %q", '"')
	}
	start := p.i
	end, escaped, _, ok := jsonl.ScanString(p.text(), start)
	p.i = end
	if !ok {
		return "", p.stringErr()
	}
	if !escaped {
		return p.s[start+1 : end-1], nil
	}
	return jsonl.Unquote(p.text()[start+1 : end-1]), nil
}

// stringErr says what stopped a string at p.i.
func (p *scan) stringErr() error {
	switch {
	case p.i >= len(p.s) || p.s[p.i] == '\\' && p.i+1 >= len(p.s):
		return p.errorf("unterminated string")
	case p.s[p.i] < 0x20:
		return p.errorf("control character in string")
	case p.s[p.i+1] == 'u':
		return p.errorf(`bad \u escape`)
	}
	return p.errorf("bad escape \\%c", p.s[p.i+1])
}

// int reads a whole number.
func (p *scan) int() (int, error) {
	p.ws()
	if end, v, ok := jsonl.ScanInt(p.text(), p.i); ok {
		p.i = end
		return int(v), nil
	}
	// More than 18 digits, or not a whole number.
	end, integer, ok := jsonl.ScanNumber(p.text(), p.i)
	if !ok || !integer {
		return 0, p.errorf("want a whole number")
	}
	v, err := strconv.Atoi(p.s[p.i:end])
	if err != nil {
		return 0, p.errorf("want a whole number")
	}
	p.i = end
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

// skip passes over one value by its frame ([jsonl.FrameEnd]) and returns
// its text: what reads the value checks it (encoding/json, or the
// readers above), and a score that is a word JSON has no number for
// (NaN, Infinity, as Python writes them) is named, not refused as text.
func (p *scan) skip() (string, error) {
	p.ws()
	start := p.i
	end, ok := jsonl.FrameEnd(p.text(), start)
	p.i = end
	if !ok {
		return "", p.errorf("unexpected end")
	}
	return p.s[start:end], nil
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
