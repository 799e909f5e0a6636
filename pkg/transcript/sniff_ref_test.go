package transcript

import (
	"bufio"
	"bytes"
	"io"
	"testing"
)

// FuzzSniffSame: the sniff on jsonl.Lexer answers as the byte-at-a-time
// scanner it replaced, on any input.
func FuzzSniffSame(f *testing.F) {
	for _, s := range []string{`{"model":"x","messages":[]}`, `{"log":{"entries":[]}}`, `{"a":{"messages":[]},"b":[{"role":"user"}]}`,
		`{"mess\u0061ges":[]}`, `[{"role":"user","content":"hi"}]`, ` [ ] `, `[1,2,3]`, `[{"x":1},{"role":"user"}]`, `"hello"`, `{"a":`,
		`{"a":},"type":1}`, `[{"a":},"role":1}]`, `{,,"type":1}`, `{"a":tru "x","role":1}`, `{"a":"\"}","type":2}`, `{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := mayBeTranscript(bytes.NewReader(in)), mayBeTranscriptRef(bytes.NewReader(in)); got != want {
			t.Errorf("%q: got %v, the old sniff %v", in, got, want)
		}
	})
}

// mayBeTranscriptRef is the sniff as it was before it read with
// jsonl.Lexer (ce6454f), kept to check that the two agree byte for byte:
// it reads the first JSON value of r without keeping it and
// reports whether the input can be a transcript: an object with one of the
// keys a JSONL record or a document format needs, or an array that is
// empty or whose first element is an object with one of the keys an
// element needs. It stops as soon as it can tell, and reads at most to the
// end of that value otherwise, holding only the key being read; input that
// is not JSON (YAML, a broken line) reports true: the reader then tells.
func mayBeTranscriptRef(r io.Reader) bool {
	br := bufio.NewReaderSize(r, 64<<10)
	s := sniffRef{r: br}
	c, ok := s.nextSignificant()
	if !ok {
		return true
	}
	switch c {
	case '{':
		return s.object(startKeys, true)
	case '[':
		c, ok := s.nextSignificant()
		switch {
		case !ok:
			return true
		case c == ']':
			return true // an empty list of messages
		case c == '{':
			return s.object(elementKeys, false)
		}
		return false
	}
	return true
}

type sniffRef struct {
	r   *bufio.Reader
	key []byte
}

// nextSignificant returns the next byte that is not JSON white space.
func (s *sniffRef) nextSignificant() (byte, bool) {
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return 0, false
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c, true
	}
}

// object reads the members of an object whose '{' was read and reports
// whether a key of want is among them; it stops at the first. Malformed
// input reports bad (so that the reader gives the error).
func (s *sniffRef) object(want map[string]bool, bad bool) bool {
	for {
		c, ok := s.nextSignificant()
		if !ok {
			return bad
		}
		switch c {
		case '}':
			return false
		case ',':
			continue
		case '"':
		default:
			return bad
		}
		if !s.str(true) {
			return bad
		}
		if want[string(s.key)] {
			return true
		}
		if c, ok := s.nextSignificant(); !ok || c != ':' {
			return bad
		}
		if !s.skipValue() {
			return bad
		}
	}
}

// str reads a string whose opening quote was read; keep keeps its raw
// bytes (escapes undecoded: no key harpe looks for has one) in s.key, up
// to 64 of them.
func (s *sniffRef) str(keep bool) bool {
	s.key = s.key[:0]
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return false
		}
		switch c {
		case '"':
			return true
		case '\\':
			if _, err := s.r.ReadByte(); err != nil {
				return false
			}
			c = 0 // an escaped key matches none
		}
		if keep && len(s.key) < 64 {
			s.key = append(s.key, c)
		}
	}
}

// skipValue reads past one value: strings by their quotes, containers by
// their depth, scalars to the next delimiter (which is unread).
func (s *sniffRef) skipValue() bool {
	c, ok := s.nextSignificant()
	if !ok {
		return false
	}
	switch c {
	case '"':
		return s.str(false)
	case '{', '[':
		depth := 1
		for depth > 0 {
			c, err := s.r.ReadByte()
			if err != nil {
				return false
			}
			switch c {
			case '"':
				if !s.str(false) {
					return false
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
			}
		}
		return true
	}
	for {
		c, err := s.r.ReadByte()
		if err != nil {
			return err == io.EOF
		}
		switch c {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return s.r.UnreadByte() == nil
		}
	}
}
