package transcript

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// TestMayBeTranscript: the keys a document format needs, at the top level
// of an object or in the first element of an array, say "maybe"; other
// JSON says no, without the sniffer holding the document.
func TestMayBeTranscript(t *testing.T) {
	tests := []struct {
		name, in string
		want     bool
	}{
		{"anthropic", `{"model":"x","messages":[]}`, true},
		{"har", `{"log":{"entries":[]}}`, true},
		{"key after a big value", `{"data":"` + strings.Repeat("x", 1<<17) + `","contents":[]}`, true},
		{"package.json", `{"name":"a","version":"1.0.0","dependencies":{"messages":"1"}}`, false},
		{"a Claude Code record", `{"parentUuid":null,"isSidechain":false,"userType":"external"}`, true},
		{"a harpe event", `{"content":"hi","type":"user"}`, true},
		{"nested key only", `{"a":{"messages":[]},"b":[{"role":"user"}]}`, false},
		{"escaped key", `{"mess\u0061ges":[]}`, false},
		{"array of messages", `[{"role":"user","content":"hi"}]`, true},
		{"empty array", ` [ ] `, true},
		{"array of numbers", `[1,2,3]`, false},
		{"array of other objects", `[{"x":1},{"role":"user"}]`, false},
		{"string", `"hello"`, true},
		{"broken", `{"a":`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayBeTranscript(strings.NewReader(tc.in)); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bytes.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func (c *countingReader) Seek(off int64, whence int) (int64, error) { return c.r.Seek(off, whence) }

// TestLargeNonTranscriptJSON: a seekable input holding a large JSON
// document that is no transcript is refused as undetectable (a walk skips
// it) after one pass that keeps nothing: the bytes allocated stay far
// under the document's 32 MB (reading it whole took 1.5 GB for 186 MB).
func TestLargeNonTranscriptJSON(t *testing.T) {
	doc := []byte(`{"name":"fixture","rows":[` + strings.Repeat(`{"id":12345,"label":"a row of data"},`, 1<<20) + `{}]}`)
	r := &countingReader{r: bytes.NewReader(doc)}
	var err error
	a := memtest.Allocated(func() { _, err = Read(r, "data.json", "") })
	if !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("error %v, want ErrUnknownFormat", err)
	}
	if a > 4<<20 {
		t.Errorf("allocated %d bytes for a %d-byte document", a, len(doc))
	}
	if r.n != len(doc) {
		t.Errorf("read %d bytes, want the document's %d once", r.n, len(doc))
	}
	// A transcript behind the same kind of reader reads as before.
	ts, err := Read(&countingReader{r: bytes.NewReader([]byte(`{"messages":[{"role":"user","content":"hi"}]}`))}, "m.json", "")
	if err != nil || len(ts[0].Messages) != 1 {
		t.Errorf("messages document: %v", err)
	}
	_ = io.EOF
}
