package transcript

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// liveFile is a file whose reads sample the live heap (after a collection)
// every 2 MiB read, keeping the largest: what a reader holds of the file
// shows as live heap while it reads on.
type liveFile struct {
	f         *os.File
	read, max uint64
}

func (l *liveFile) Read(p []byte) (int, error) {
	n, err := l.f.Read(p)
	if l.read/(2<<20) != (l.read+uint64(n))/(2<<20) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l.max = max(l.max, m.HeapAlloc)
	}
	l.read += uint64(n)
	return n, err
}

func (l *liveFile) Seek(off int64, whence int) (int64, error) { return l.f.Seek(off, whence) }

// anthropicRequestFile writes an Anthropic request of about size bytes on one
// line to a file in dir: n messages, user questions and assistant
// answers in turn.
func anthropicRequestFile(t *testing.T, size int) (path string, n int) {
	path = filepath.Join(t.TempDir(), "request.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, `{"model":"claude-sonnet-4-5","messages":[`)
	for written := 0; written < size; n++ {
		role := "user"
		if n%2 == 1 {
			role = "assistant"
		}
		text, _ := json.Marshal(fmt.Sprintf("message %d: %0400d", n, n))
		k, _ := fmt.Fprintf(w, `%s{"role":%q,"content":[{"type":"text","text":%s}]}`, map[bool]string{true: ",", false: ""}[n > 0], role, text)
		written += k
	}
	fmt.Fprint(w, "],\"max_tokens\":1024}\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, n
}

// TestFileDocumentNotHeld: a 24 MB JSON document read from a file by the
// transcript summary (Collect, which keeps the input's head) and by
// CountBilledEach (which counts the bytes read) is streamed from the file,
// not held: before, both wrappers hid the file's Seek, so the reader held
// the whole input in memory (at least 24 MB live) to read it twice. The
// bound, 8 MB, is the buffers and the conversation's few values.
func TestFileDocumentNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 24 MB file")
	}
	const size = 24 << 20
	path, n := anthropicRequestFile(t, size)
	read := func(f func(r io.Reader)) uint64 {
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l := &liveFile{f: file}
		f(l)
		return l.max - min(l.max, m.HeapAlloc)
	}
	counter, err := tokenize.New("estimate")
	if err != nil {
		t.Fatal(err)
	}
	var got *Collected
	live := read(func(r io.Reader) {
		got, err = Collect(context.Background(), r, "request.json", CollectOptions{Build: BuildSummary, Counter: counter})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Summaries) != 1 || got.Summaries[0].Messages != n {
		t.Fatalf("summaries %+v, want one of %d messages", got.Summaries, n)
	}
	if live > 8<<20 {
		t.Errorf("summary: %d MB live while reading a %d MB file", live>>20, size>>20)
	}
	var bytes int64
	live = read(func(r io.Reader) {
		bytes, _, _, err = CountBilledEach(context.Background(), r, "request.json", "", []tokenize.Counter{counter})
	})
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if bytes != st.Size() {
		t.Errorf("count read %d bytes, the file has %d", bytes, st.Size())
	}
	if live > 8<<20 {
		t.Errorf("count: %d MB live while reading a %d MB file", live>>20, size>>20)
	}
}
