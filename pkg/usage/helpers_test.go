package usage

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Test helpers shared with package transcript's tests (copies).

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

// allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc):
// unlike time, it does not depend on the machine's load, and it tells
// linear from quadratic work apart.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// 2^63−1, the largest int: every bound below is worked from it by hand.
const maxInt = "9223372036854775807"
