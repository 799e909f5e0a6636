package tokenize

import (
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
)

// TestEmbeddedLazily checks the path of a subpackage's embedded table: it is
// filed at import, not read or checked then; the first use checks and loads
// it.
func TestEmbeddedLazily(t *testing.T) {
	tiny := tinyTable("a", "b", "ab")
	e := &Encoding{name: "test_embedded_ok", pkg: "none", next: nextO200k}
	saved := encodings
	encodings = []*Encoding{e}
	defer func() { encodings = saved }()

	bpetable.Embed(e.name, tiny)
	if e.data != nil || e.ready.Load() {
		t.Fatal("the embedded table was taken before first use")
	}
	if !e.Registered() {
		t.Fatal("Registered = false with an embedded table")
	}
	// "ab" is one token of the three.
	if n := countOf(e, "ab"); n != 1 {
		t.Errorf("Count(ab) = %d, want 1", n)
	}
}

// TestEmbeddedCorrupt checks that a corrupt embedded table (which this
// repository's tests of o200k and cl100k rule out) is caught on first use,
// naming the encoding, instead of being read.
func TestEmbeddedCorrupt(t *testing.T) {
	e := &Encoding{name: "test_embedded_bad", pkg: "none", next: nextO200k}
	bad := tinyTable("a", "b")
	bad = bad[:len(bad)-1] // one byte of the tokens missing
	bpetable.Embed(e.name, bad)
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, "embedded test_embedded_bad table") {
			t.Errorf("Count panicked with %v, want the check's message", r)
		}
	}()
	countOf(e, "ab")
}
