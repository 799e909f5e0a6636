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
	"runtime/debug"
	"strings"
	"testing"
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

// shareGPT is a ShareGPT file of n short conversations of two messages.
func shareGPT(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"c%d","conversations":[{"from":"human","value":"hi %d"},{"from":"gpt","value":"hello there, how can I help?"}]}`, i, i)
	}
	b.WriteString("]\n")
	return b.String()
}

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
	path, n := anthropicRequestFile(t, size)
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
	l := &liveFile{f: file}
	pipe := struct{ io.Reader }{l} // no Seek
	messages := 0
	err = Scan(context.Background(), pipe, "stdin", "", func(_ *Transcript, _ *Message) error {
		if messages++; messages%1000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&m)
			l.max = max(l.max, m.HeapAlloc)
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if messages != n {
		t.Errorf("%d messages, want %d", messages, n)
	}
	if live := l.max - min(l.max, base); live > 8<<20 {
		t.Errorf("%d MB live while reading a %d MB document from a pipe", live>>20, size>>20)
	}
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
