package transcript

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// lowerLimits sets the limits on inputs read whole to whole and cassette
// bytes for the test.
func lowerLimits(t *testing.T, whole, cassette int64) {
	oldWhole, oldCassette := maxWhole, maxCassette
	maxWhole, maxCassette = whole, cassette
	t.Cleanup(func() { maxWhole, maxCassette = oldWhole, oldCassette })
}

// writeFile writes data to a file named base in a temporary directory.
func writeFile(t *testing.T, base string, data []byte) string {
	path := filepath.Join(t.TempDir(), base)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestWholeLimit: an input read whole (a frame the streaming readers do
// not take, a document of a sequence, a VCR cassette) larger than its
// limit is an error naming the file and the limit, from a file without
// holding it, and from a pipe; one at the limit is read.
func TestWholeLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 4 MB files")
	}
	lowerLimits(t, 1<<20, 1<<20)
	// "history" is an object, not an array: SWE-agent's streaming reader
	// leaves it to the whole reader (which says so). The 4 MB are in
	// "trajectory", which the first pass streams (an object member it
	// would keep whole).
	step := `{"action":"` + strings.Repeat("a", 64<<10) + `"}`
	noArray := []byte(`{"info":{},"trajectory":[` + strings.Repeat(step+",", 63) + step + `],"history":{"role":"user","content":"a"}}`)
	wholeMsg := "larger than 1 MiB, the limit for a JSON document the streaming readers do not take (read whole)"
	small := []byte(`{"info":{},"history":[{"role":"user","content":"a"}]}`)
	cassette := readSample(t, "vcr/openai-tools.yaml")
	head, items, _ := bytes.Cut(cassette, []byte("interactions:\n"))
	items, tail, _ := bytes.Cut(items, []byte("\nversion:"))
	big := append(append(append([]byte{}, head...), "interactions:\n"...), bytes.Repeat(append(items, '\n'), (2<<20)/len(items)+1)...)
	big = append(big, "version:"...)
	big = append(big, tail...)
	for _, c := range []struct {
		what string
		data []byte
		want string
	}{
		{"frame not streamed", noArray, wholeMsg},
		{"second of a sequence", append(append(small, '\n'), noArray...), "document 2: " + wholeMsg},
		{"first of a sequence", append(append(noArray, '\n'), small...), wholeMsg},
		{"cassette", big, "larger than 1 MiB, the limit for a VCR cassette (read whole)"},
	} {
		path := writeFile(t, "in", c.data)
		want := path + ": " + c.want
		live, err := countLive(t, path)
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", c.what, err, want)
		}
		var tl *InputTooLargeError
		if !errors.As(err, &tl) || tl.Limit != 1<<20 {
			t.Errorf("%s: %#v, want an *InputTooLargeError of 1 MiB", c.what, err)
		}
		if live > 1<<20 {
			t.Errorf("%s: %d KB live, more than the limit, while refusing a %d KB file", c.what, live>>10, len(c.data)>>10)
		}
		if _, err := Read(pipe{bytes.NewReader(c.data)}, "stdin", ""); err == nil || err.Error() != "stdin: "+c.want {
			t.Errorf("%s from a pipe: %v, want stdin: %s", c.what, err, c.want)
		}
	}
	// Named: the limit, not what the input reads as.
	for _, f := range []Format{FormatSWEAgent, FormatHAR} {
		path := writeFile(t, "in", append(append(noArray, '\n'), small...))
		if _, err := Read(openFile(t, path), path, f); err == nil || err.Error() != path+": "+wholeMsg {
			t.Errorf("as %s: %v, want %s: %s", f, err, path, wholeMsg)
		}
	}
	// At the limit: read as before.
	lowerLimits(t, int64(len(noArray)), int64(len(big)))
	if _, err := Read(bytes.NewReader(noArray), "in", ""); err == nil || !strings.Contains(err.Error(), "history") {
		t.Errorf("at the limit: %v, want the whole reader's error", err)
	}
	if ts, err := Read(bytes.NewReader(big), "in", ""); err != nil || len(ts) == 0 {
		t.Errorf("cassette at the limit: %v", err)
	}
}

func openFile(t *testing.T, path string) *os.File {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
