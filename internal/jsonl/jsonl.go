// Package jsonl holds helpers for JSON Lines input: reading lines of any
// length with their numbers, rewriting one field of an object line while
// keeping every other byte as it came in, and [Parser], a one-pass cursor
// for decoding a few fields of a line by hand, which gives way to
// encoding/json on anything it does not read exactly as that does.
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Reader reads lines of any length, counting them from 1.
type Reader struct {
	br    *bufio.Reader
	line  int
	buf   []byte
	unter bool
}

// Unterminated reports whether the line Next returned last had no "\n"
// at its end (the input ended inside it).
func (r *Reader) Unterminated() bool { return r.unter }

// Lines returns the number of lines Next has returned.
func (r *Reader) Lines() int { return r.line }

// NewReader returns a Reader on r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 256<<10)}
}

// Next returns the next line without its "\n" and its 1-based number. A
// "\r" before the "\n" stays in the line (JSON reads it as white space), so
// writing the line back with "\n" gives the input's bytes exactly. The slice is valid until the next call. At the end it returns
// io.EOF; a last line without a newline is returned first.
func (r *Reader) Next() ([]byte, int, error) {
	r.buf = r.buf[:0]
	// A line that fits the buffer is returned in place, not copied.
	chunk, err := r.br.ReadSlice('\n')
	if err == nil {
		r.line++
		return chunk[:len(chunk)-1], r.line, nil
	}
	r.buf = append(r.buf, chunk...)
	if err != bufio.ErrBufferFull {
		return r.end(err)
	}
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return r.end(err)
		}
		r.line++
		return r.buf[:len(r.buf)-1], r.line, nil
	}
}

// end finishes Next on a read error: at io.EOF the unterminated last line
// in r.buf, if any, comes first.
func (r *Reader) end(err error) ([]byte, int, error) {
	if err != io.EOF {
		return nil, r.line, err
	}
	if len(r.buf) == 0 {
		return nil, r.line, io.EOF
	}
	r.line++
	r.unter = true
	return r.buf, r.line, nil
}

// SetField returns a copy of the JSON object line with key set to the JSON
// value val. An existing key keeps its place and only its value changes;
// a new key is added at the end. Every other byte stays as it was.
func SetField(line []byte, key string, val []byte) ([]byte, error) {
	start, end, found, err := fieldSpan(line, key)
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(line)+len(key)+len(val)+4)
	if found {
		out = append(out, line[:start]...)
		out = append(out, val...)
		return append(out, line[end:]...), nil
	}
	// Insert before the closing brace.
	closing := bytes.LastIndexByte(line, '}')
	body := bytes.TrimSpace(line[:closing])
	kq, _ := json.Marshal(key)
	out = append(out, line[:closing]...)
	if len(body) > 1 { // more than "{"
		out = append(out, ',')
	}
	out = append(out, kq...)
	out = append(out, ':')
	out = append(out, val...)
	return append(out, line[closing:]...), nil
}

// fieldSpan finds the byte span of the value of key at the top level of the
// object in line. When the key occurs more than once, the last one wins, as
// encoding/json decodes it.
func fieldSpan(line []byte, key string) (start, end int, found bool, err error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return 0, 0, false, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return 0, 0, false, errors.New("not a JSON object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return 0, 0, false, err
		}
		k, _ := tok.(string)
		// After the key, InputOffset is just past the key's closing quote;
		// the value starts after the colon and any white space.
		off := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return 0, 0, false, err
		}
		if k != key {
			continue
		}
		vEnd := int(dec.InputOffset())
		vStart := off
		for vStart < vEnd && (line[vStart] == ' ' || line[vStart] == '\t' || line[vStart] == ':' || line[vStart] == '\r' || line[vStart] == '\n') {
			vStart++
		}
		start, end, found = vStart, vEnd, true
	}
	if _, err := dec.Token(); err != nil {
		return 0, 0, false, err
	}
	if rest := bytes.TrimSpace(line[dec.InputOffset():]); len(rest) != 0 {
		return 0, 0, false, errors.New("text after the JSON object")
	}
	if found {
		return start, end, true, nil
	}
	return 0, 0, false, nil
}

// String encodes s as a JSON string value without HTML escaping.
func String(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(fmt.Sprintf("jsonl: encoding a string: %v", err))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// Kind names the JSON type of the value v starts with, for error messages:
// "object", "array", "string", "boolean", "null" or "number" ("nothing"
// when v is empty or blank).
func Kind(v []byte) string {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return "nothing"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// InvalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1 when b is valid.
func InvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return -1
}

// UTF8Message describes the invalid byte at offset off of b, the one way
// harpe words it: "invalid UTF-8 at byte offset 14 (0xff)". Offsets count
// from 0 within the line (or the document) the caller names.
func UTF8Message(b []byte, off int) string {
	return UTF8ByteMessage(int64(off), b[off])
}

// UTF8ByteMessage is [UTF8Message] for the byte c at offset off, for a
// caller that does not hold the text.
func UTF8ByteMessage(off int64, c byte) string {
	return fmt.Sprintf("invalid UTF-8 at byte offset %d (0x%02x)", off, c)
}
