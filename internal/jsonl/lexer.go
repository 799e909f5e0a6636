package jsonl

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// ErrUnread is a [Lexer]'s error for text that is not the JSON it was
// asked to read (bad grammar, invalid UTF-8, another kind of value, the
// end of the input inside a value). It says nothing more: a caller that
// must tell the user what is wrong reads the text again with a reader
// that places errors ([Checker], encoding/json).
var ErrUnread = errors.New("jsonl: the text is not the JSON expected")

// Lexer reads JSON values from a buffered reader one at a time, holding
// only the value the caller asks for ([Lexer.Capture]) or none
// ([Lexer.Skip]), so that a document of any size is read in the memory
// of its largest element. Values are found by their frame (strings by
// their quotes, containers by their depth, other values up to the next
// delimiter) and a captured value is then checked against the grammar
// of [SkipValue], nested at most [MaxDepth] deep.
type Lexer struct {
	br        *bufio.Reader
	checkUTF8 bool
}

// NewLexer returns a Lexer reading from br; checkUTF8 false leaves the
// bytes of captured strings unchecked (as encoding/json reads them, with
// U+FFFD for what is not UTF-8).
func NewLexer(br *bufio.Reader, checkUTF8 bool) *Lexer {
	return &Lexer{br: br, checkUTF8: checkUTF8}
}

// Peek returns the next byte that is not JSON white space, without
// consuming it (the white space before it is consumed); io.EOF at the end.
func (l *Lexer) Peek() (byte, error) {
	for {
		b, err := l.br.Peek(1)
		if err != nil {
			return 0, err
		}
		if !isSpace(b[0]) {
			return b[0], nil
		}
		_, _ = l.br.Discard(1)
	}
}

// Byte consumes and returns the next byte that is not JSON white space.
func (l *Lexer) Byte() (byte, error) {
	c, err := l.Peek()
	if err == nil {
		_, _ = l.br.Discard(1)
	}
	return c, err
}

// Expect consumes c, the next byte that is not white space, or fails with
// [ErrUnread].
func (l *Lexer) Expect(c byte) error {
	if got, err := l.Peek(); err != nil || got != c {
		return ErrUnread
	}
	_, _ = l.br.Discard(1)
	return nil
}

// Capture appends the next value to dst, checked (grammar, nesting and,
// unless the Lexer was made without, UTF-8). On text that is not one
// value it fails with [ErrUnread], or the reader's error.
func (l *Lexer) Capture(dst []byte) ([]byte, error) {
	start := len(dst)
	dst, err := l.frame(dst, true)
	if err != nil {
		return dst, err
	}
	v := dst[start:]
	if end, _, ok := SkipValue(v, 0, MaxDepth); !ok || end != len(v) || l.checkUTF8 && !utf8.Valid(v) {
		return dst, ErrUnread
	}
	return dst, nil
}

// Skip reads past the next value by its frame alone, holding none of it
// and checking nothing else: it tells where a value ends, not whether it
// is JSON. It fails with [ErrUnread] at the end of the input inside a
// string or a container, or before any value.
func (l *Lexer) Skip() error {
	_, err := l.frame(nil, false)
	return err
}

// frame reads the next value by its [framer], appending it to dst with
// keep.
func (l *Lexer) frame(dst []byte, keep bool) ([]byte, error) {
	c, err := l.Byte()
	if err != nil {
		return dst, ErrUnread
	}
	if keep {
		dst = append(dst, c)
	}
	f := newFramer(c)
	for {
		if l.br.Buffered() == 0 {
			if _, err := l.br.Peek(1); err != nil {
				if err == io.EOF {
					if f.scalar {
						return dst, nil
					}
					return dst, ErrUnread
				}
				return dst, err
			}
		}
		chunk, _ := l.br.Peek(l.br.Buffered())
		n, done := f.feed(chunk)
		if keep {
			dst = append(dst, chunk[:n]...)
		}
		_, _ = l.br.Discard(n)
		if done {
			return dst, nil
		}
	}
}

// FrameEnd returns the end of the value at d[i:] (white space before it
// skipped) found by its frame alone, as [Lexer.Skip] finds it: it tells
// where a value ends, not whether it is JSON. ok is false when d ends
// inside a string or a container, or before any value.
func FrameEnd(d []byte, i int) (end int, ok bool) {
	i = SkipSpace(d, i)
	if i >= len(d) {
		return i, false
	}
	f := newFramer(d[i])
	n, done := f.feed(d[i+1:])
	return i + 1 + n, done || f.scalar
}

// framer finds the end of a value by its frame: its first byte whatever
// it is, then a string to its closing quote, a container to the bracket
// that closes it (of either kind) and anything else up to the next
// delimiter (',', '}', ']' or white space, which is not part of it) or
// the end of the input. It is fed the bytes after the first in pieces.
type framer struct {
	scalar, inStr, esc bool
	depth              int
}

func newFramer(first byte) framer {
	f := framer{scalar: first != '"' && first != '{' && first != '[', inStr: first == '"'}
	if first == '{' || first == '[' {
		f.depth = 1
	}
	return f
}

// feed reads chunk and returns how many of its bytes belong to the value
// and whether the value ended there.
func (f *framer) feed(chunk []byte) (n int, done bool) {
	if f.scalar {
		for i, b := range chunk {
			switch b {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i, true
			}
		}
		return len(chunk), false
	}
	// The state lives in locals while the loop runs.
	inStr, esc, depth := f.inStr, f.esc, f.depth
	i := 0
	for i < len(chunk) {
		if inStr {
			if esc {
				esc = false
				i++
				continue
			}
			// Eight bytes at a time while none is a quote or a
			// backslash (or a control character: [special]'s test),
			// then byte by byte.
			for i+8 <= len(chunk) && !special(binary.LittleEndian.Uint64(chunk[i:])) {
				i += 8
			}
			for i < len(chunk) && !strStop[chunk[i]] {
				i++
			}
			if i == len(chunk) {
				break
			}
			if chunk[i] == '\\' {
				esc = true
			} else {
				inStr = false
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
			continue
		}
		for i < len(chunk) && !frameStop[chunk[i]] {
			i++
		}
		if i == len(chunk) {
			break
		}
		switch chunk[i] {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		default: // '}', ']'
			if depth--; depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	f.inStr, f.esc, f.depth = inStr, esc, depth
	return len(chunk), false
}

// strStop marks the bytes that end a run of a string's plain bytes for
// [framer]; frameStop those outside strings.
var strStop, frameStop = func() (str, frame [256]bool) {
	str['"'], str['\\'] = true, true
	for _, c := range []byte(`"{}[]`) {
		frame[c] = true
	}
	return str, frame
}()

// RawString reads a string, the next value, by its frame, appending up to
// max of the bytes between its quotes to dst as they stand (escapes not
// decoded), and reports whether it holds an escape. It holds no more than
// max bytes of it, however long it is.
func (l *Lexer) RawString(dst []byte, max int) (raw []byte, escaped bool, err error) {
	if err := l.Expect('"'); err != nil {
		return dst, false, err
	}
	room := max
	esc := false
	for {
		if l.br.Buffered() == 0 {
			if _, err := l.br.Peek(1); err != nil {
				if err == io.EOF {
					err = ErrUnread
				}
				return dst, escaped, err
			}
		}
		chunk, _ := l.br.Peek(l.br.Buffered())
		i, done := 0, false
		for ; i < len(chunk); i++ {
			switch b := chunk[i]; {
			case esc:
				esc = false
			case b == '\\':
				esc, escaped = true, true
			case b == '"':
				done = true
			}
			if done {
				break
			}
		}
		if keep := min(i, room); keep > 0 {
			dst = append(dst, chunk[:keep]...)
			room -= keep
		}
		if done {
			_, _ = l.br.Discard(i + 1)
			return dst, escaped, nil
		}
		_, _ = l.br.Discard(i)
	}
}

// Object reads an object member by member, calling fn with each key,
// decoded; fn must consume the member's value (Capture, Skip, Object,
// Array). Anything but an object fails with [ErrUnread].
func (l *Lexer) Object(fn func(key string) error) error {
	if empty, err := l.open('{', '}'); err != nil || empty {
		return err
	}
	var kb []byte
	for {
		var err error
		if c, _ := l.Peek(); c != '"' {
			return ErrUnread
		}
		if kb, err = l.Capture(kb[:0]); err != nil {
			return err
		}
		var key string
		if json.Unmarshal(kb, &key) != nil {
			return ErrUnread
		}
		if err := l.Expect(':'); err != nil {
			return err
		}
		if err := fn(key); err != nil {
			return err
		}
		if more, err := l.next('}'); err != nil || !more {
			return err
		}
	}
}

// Array reads an array element by element, calling fn with each
// element's index; fn must consume the element. Anything but an array
// fails with [ErrUnread].
func (l *Lexer) Array(fn func(i int) error) error {
	if empty, err := l.open('[', ']'); err != nil || empty {
		return err
	}
	for i := 0; ; i++ {
		if err := fn(i); err != nil {
			return err
		}
		if more, err := l.next(']'); err != nil || !more {
			return err
		}
	}
}

// open reads the opening byte of an object or array and, when the close
// byte follows at once, that too (empty).
func (l *Lexer) open(openByte, closeByte byte) (empty bool, err error) {
	if err := l.Expect(openByte); err != nil {
		return false, err
	}
	if c, err := l.Peek(); err == nil && c == closeByte {
		_, _ = l.br.Discard(1)
		return true, nil
	}
	return false, nil
}

// next reads what follows a member or element: a comma (more) or the
// close byte; anything else fails with [ErrUnread].
func (l *Lexer) next(closeByte byte) (more bool, err error) {
	c, err := l.Byte()
	if err != nil {
		return false, ErrUnread
	}
	switch c {
	case ',':
		return true, nil
	case closeByte:
		return false, nil
	}
	return false, ErrUnread
}
