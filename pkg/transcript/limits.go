package transcript

import (
	"fmt"
	"io"
)

// Limits on an input read whole. Most JSON documents are streamed
// (stream.go, checked.go); the rest are held whole and decoded, at up to
// about 10 times their size: a document whose frame the streaming
// readers do not take (a SWE-agent "history" that is no array, a HAR
// with "log" given twice), a long-memory sample not in an array, a file
// that is no JSON under a named JSON format, one such document of a
// sequence. A VCR cassette is YAML, read whole by yaml.v3, whose tree
// takes about 28 times the file.
const (
	// MaxWholeDocument bounds a JSON document read whole.
	MaxWholeDocument = 256 << 20
	// MaxCassette bounds a VCR cassette.
	MaxCassette = 16 << 20
)

// The limits in force; tests lower them.
var maxWhole, maxCassette int64 = MaxWholeDocument, MaxCassette

// InputTooLargeError is an input to be read whole that is larger than
// its limit.
type InputTooLargeError struct {
	Limit    int64 // the limit crossed, in bytes
	Cassette bool  // a VCR cassette's limit, not a JSON document's
}

func (e *InputTooLargeError) Error() string {
	if e.Cassette {
		return fmt.Sprintf("larger than %s, the limit for a VCR cassette (read whole)", mib(e.Limit))
	}
	return fmt.Sprintf("larger than %s, the limit for a JSON document the streaming readers do not take (read whole)", mib(e.Limit))
}

// readLimited reads r to its end when it holds at most limit bytes, else
// fails with an [*InputTooLargeError] (named name): before reading a byte
// when r can tell its size by seeking, else after limit+1 bytes.
// already counts bytes of the input read before r.
func readLimited(r io.Reader, name string, already, limit int64, cassette bool) ([]byte, error) {
	tooLarge := &Error{Name: name, Err: &InputTooLargeError{Limit: limit, Cassette: cassette}}
	if s, ok := r.(io.Seeker); ok {
		if n, err := left(s); err != nil {
			return nil, &Error{Name: name, Err: err}
		} else if n >= 0 && already+n > limit {
			return nil, tooLarge
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, max(limit-already, 0)+1))
	if err != nil {
		return nil, &Error{Name: name, Err: err}
	}
	if already+int64(len(data)) > limit {
		return nil, tooLarge
	}
	return data, nil
}

// left is how many bytes s has after its position, -1 when it cannot
// tell; s is left where it was.
func left(s io.Seeker) (int64, error) {
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return -1, nil
	}
	end, err := s.Seek(0, io.SeekEnd)
	if _, err2 := s.Seek(cur, io.SeekStart); err2 != nil {
		return -1, err2
	}
	if err != nil {
		return -1, nil
	}
	return end - cur, nil
}
