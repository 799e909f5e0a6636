package transcript

import (
	"bufio"
	"io"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// mayBeTranscript reads the first JSON value of r without keeping it and
// reports whether the input can be a transcript: an object with one of the
// keys a JSONL record or a document format needs, or an array that is
// empty or whose first element is an object with one of the keys an
// element needs. It stops as soon as it can tell, and reads at most to the
// end of that value otherwise, holding only the key being read; input that
// is not JSON (YAML, a broken line) reports true: the reader then tells.
// Values are passed over by their frame alone ([jsonl.Lexer.Skip]): the
// grammar is the reader's to check.
func mayBeTranscript(r io.Reader) bool {
	l := jsonl.NewLexer(bufio.NewReaderSize(r, 64<<10), false)
	c, err := l.Byte()
	if err != nil {
		return true
	}
	switch c {
	case '{':
		return sniffObject(l, startKeys, true)
	case '[':
		c, err := l.Byte()
		switch {
		case err != nil:
			return true
		case c == ']':
			return true // an empty list of messages
		case c == '{':
			return sniffObject(l, elementKeys, false)
		}
		return false
	}
	return true
}

// sniffMaxKey is how much of a key the sniff holds: more than the
// longest key it looks for.
const sniffMaxKey = 64

// sniffObject reads the members of an object whose '{' was read and
// reports whether a key of want is among them; it stops at the first. A
// key with an escape matches none (no key harpe looks for has one).
// Malformed input reports bad (so that the reader gives the error).
func sniffObject(l *jsonl.Lexer, want map[string]bool, bad bool) bool {
	var key []byte
	for {
		c, err := l.Peek()
		if err != nil {
			return bad
		}
		switch c {
		case '}':
			return false
		case ',':
			_, _ = l.Byte()
			continue
		case '"':
		default:
			return bad
		}
		var escaped bool
		if key, escaped, err = l.RawString(key[:0], sniffMaxKey); err != nil {
			return bad
		}
		if !escaped && want[string(key)] {
			return true
		}
		if l.Expect(':') != nil || l.Skip() != nil {
			return bad
		}
	}
}
