package transcript

import (
	"context"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// TestPipeDocumentNotHeld: a JSON document from a pipe (an input that
// cannot seek) past a few MiB is held in a temporary file, not in
// memory, to be read twice: the live heap, sampled every 2 MiB read from
// the pipe and every 1,000 messages, stays under 8 MB while the summary
// reads a 24 MB request (it held the 24 MB, in 1 MiB chunks, before).
// Nothing is left in the temporary directory.
func TestPipeDocumentNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 24 MB file")
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	const size = 24 << 20
	path, n := memtest.AnthropicRequestFile(t, size)
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	l := &memtest.LiveFile{F: file}
	pipe := struct{ io.Reader }{l} // no Seek
	messages := 0
	err = Scan(context.Background(), pipe, "stdin", "", func(_ *Transcript, _ *Message) error {
		if messages++; messages%1000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&m)
			l.Max = max(l.Max, m.HeapAlloc)
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if messages != n {
		t.Errorf("%d messages, want %d", messages, n)
	}
	if live := l.Max - min(l.Max, base); live > 8<<20 {
		t.Errorf("%d MB live while reading a %d MB document from a pipe", live>>20, size>>20)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
