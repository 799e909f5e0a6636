// Package jsonl is harpe's one JSON grammar, and helpers for JSON Lines
// input. Every hand-written JSON reader in harpe is built on it:
//
//   - the scanners of scan.go ([ScanString], [ScanNumber], [SkipValue],
//     [Unquote], …), over text in memory: pkg/engine's item reader and
//     pkg/tokenize/hf's reader of a tokenizer.json;
//   - [Parser], a one-pass cursor for decoding a few fields of a line by
//     hand, which gives way to encoding/json on anything it does not read
//     exactly as that does (pkg/transcript's Claude Code and Anthropic
//     decoders);
//   - [Lexer], which reads the values of a stream one at a time, holding
//     one at most, and [FrameEnd], its framing over text in memory
//     (pkg/transcript's documents in bounded memory and its sniff,
//     pkg/tokenize/hf);
//   - [Checker], which finds encoding/json's first syntax error in a
//     stream, word for word, in fixed memory.
//
// For JSON Lines it reads lines of any length with their numbers
// ([Reader]) and rewrites one field of an object line while keeping every
// other byte as it came in ([SetField]).
package jsonl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// DefaultMaxLine is the longest line a [Reader] returns unless told
// otherwise: 64 MiB (harpe's own limit, chosen 2026-12-06: the longest
// record in 200 public Claude Code sessions was under 20 MB, and a record
// is decoded at several times its size).
const DefaultMaxLine = 64 << 20

// maxLine is the process's limit for new Readers (see SetDefaultMaxLine).
var maxLine atomic.Int64

func init() { maxLine.Store(DefaultMaxLine) }

// SetDefaultMaxLine sets the longest line the Readers made from now on
// return, in bytes; 0 or less for no limit. It is for a program's flag
// (harpe's --max-record); it returns the limit it replaces.
func SetDefaultMaxLine(n int64) int64 { return maxLine.Swap(n) }

// LineTooLongError is [Reader.Next]'s error for a line longer than the
// reader's limit. The line was read past without being held (memory stays
// at the limit), so reading can go on with the next line.
type LineTooLongError struct {
	// Name is the input's name when the caller gave it (see
	// [Reader.Name]), else "".
	Name string
	Line int   // the line's number
	Max  int64 // the limit, in bytes
	Size int64 // the line's length, without its newline
}

// TooLong returns err as a *LineTooLongError, nil when it is not one.
// It is the check to make at every line: it costs nothing when err is
// nil, where errors.As in the caller's loop would move its target to the
// heap at every line.
func TooLong(err error) *LineTooLongError {
	if err == nil {
		return nil
	}
	var tl *LineTooLongError
	if errors.As(err, &tl) {
		return tl
	}
	return nil
}

func (e *LineTooLongError) Error() string {
	where := fmt.Sprintf("line %d", e.Line)
	if e.Name != "" {
		where = fmt.Sprintf("%s:%d", e.Name, e.Line)
	}
	return fmt.Sprintf("%s: a record of %d bytes, longer than %s, the limit for one JSON Lines record (--max-record)", where, e.Size, sizeName(e.Max))
}

// sizeName writes n bytes in MiB when it is a whole number of them.
func sizeName(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// Reader reads lines, counting them from 1, up to a limit on a line's
// length (see [LineTooLongError]).
type Reader struct {
	// Name names the input in a LineTooLongError ("" for none).
	Name  string
	br    *bufio.Reader
	line  int
	buf   []byte
	unter bool
	max   int64
}

// Unterminated reports whether the line Next returned last had no "\n"
// at its end (the input ended inside it).
func (r *Reader) Unterminated() bool { return r.unter }

// Lines returns the number of lines Next has returned.
func (r *Reader) Lines() int { return r.line }

// NewReader returns a Reader on r, whose lines may be as long as the
// process's limit ([SetDefaultMaxLine], by default [DefaultMaxLine]).
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 256<<10), max: maxLine.Load()}
}

// SetMaxLine sets the longest line r returns, in bytes; 0 or less for no
// limit.
func (r *Reader) SetMaxLine(n int64) { r.max = n }

// Next returns the next line without its "\n" and its 1-based number. A
// "\r" before the "\n" stays in the line (JSON reads it as white space), so
// writing the line back with "\n" gives the input's bytes exactly. The slice is valid until the next call. At the end it returns
// io.EOF; a last line without a newline is returned first. A line longer
// than the limit is a *LineTooLongError, with the line's number; it is
// read past, not held, and the next call reads the line after it.
func (r *Reader) Next() ([]byte, int, error) {
	r.buf = r.buf[:0]
	// A line that fits the buffer is returned in place, not copied.
	chunk, err := r.br.ReadSlice('\n')
	if err == nil {
		if r.max > 0 && int64(len(chunk)-1) > r.max {
			r.line++
			return nil, r.line, r.tooLong(int64(len(chunk) - 1))
		}
		r.line++
		return chunk[:len(chunk)-1], r.line, nil
	}
	r.buf = append(r.buf, chunk...)
	if err != bufio.ErrBufferFull {
		return r.end(err)
	}
	for {
		if r.max > 0 && int64(len(r.buf)) > r.max {
			return r.skip(int64(len(r.buf)))
		}
		chunk, err := r.br.ReadSlice('\n')
		r.buf = append(r.buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return r.end(err)
		}
		r.line++
		if r.max > 0 && int64(len(r.buf)-1) > r.max {
			return nil, r.line, r.tooLong(int64(len(r.buf) - 1))
		}
		return r.buf[:len(r.buf)-1], r.line, nil
	}
}

// skip reads past the rest of a line found longer than the limit after
// read bytes, holding none of it, and returns its error.
func (r *Reader) skip(read int64) ([]byte, int, error) {
	r.buf = nil // let the collector have what was held
	size := read
	for {
		chunk, err := r.br.ReadSlice('\n')
		size += int64(len(chunk))
		if err == bufio.ErrBufferFull {
			continue
		}
		r.line++
		if err == nil {
			return nil, r.line, r.tooLong(size - 1)
		}
		if err == io.EOF {
			r.unter = true
			return nil, r.line, r.tooLong(size)
		}
		return nil, r.line, err
	}
}

func (r *Reader) tooLong(size int64) error {
	return &LineTooLongError{Name: r.Name, Line: r.line, Max: r.max, Size: size}
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
	if n := int64(len(r.buf)); r.max > 0 && n > r.max {
		r.buf = nil
		return nil, r.line, r.tooLong(n)
	}
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
// Text that starts with a UTF-16 or UTF-32 byte order mark is named as
// such: "the text is UTF-16 (little-endian; it starts with the byte order
// mark FF FE), not UTF-8: convert it, e.g. iconv -f UTF-16 -t UTF-8".
func UTF8Message(b []byte, off int) string {
	if name, bom := WideEncoding(b); name != "" && off < 4 {
		return fmt.Sprintf("the text is %s (it starts with the byte order mark % X), not UTF-8: convert it, e.g. iconv -f %s -t UTF-8",
			name, bom, strings.Fields(name)[0])
	}
	return UTF8ByteMessage(int64(off), b[off])
}

// WideEncoding names the encoding whose byte order mark b starts with
// ("UTF-16 (little-endian)", "UTF-32 (big-endian)", …) and returns the
// mark, or "" and nil when b starts with none of them.
func WideEncoding(b []byte) (string, []byte) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return "UTF-32 (little-endian)", b[:4]
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return "UTF-32 (big-endian)", b[:4]
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return "UTF-16 (little-endian)", b[:2]
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return "UTF-16 (big-endian)", b[:2]
	}
	return "", nil
}

// UTF8ByteMessage is [UTF8Message] for the byte c at offset off, for a
// caller that does not hold the text.
func UTF8ByteMessage(off int64, c byte) string {
	return fmt.Sprintf("invalid UTF-8 at byte offset %d (0x%02x)", off, c)
}
