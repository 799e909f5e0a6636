// Package memtest holds what the reading packages' tests share to
// measure memory and to make large inputs: a file that samples the live
// heap as it is read, the bytes a function allocates, and generated
// Anthropic requests and ShareGPT files. Only tests import it.
package memtest

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

// LiveFile is a file whose reads sample the live heap (after a
// collection) every 2 MiB read, keeping the largest in Max: what a
// reader holds of the file shows as live heap while it reads on.
type LiveFile struct {
	F    *os.File
	Max  uint64
	read uint64
}

func (l *LiveFile) Read(p []byte) (int, error) {
	n, err := l.F.Read(p)
	if l.read/(2<<20) != (l.read+uint64(n))/(2<<20) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l.Max = max(l.Max, m.HeapAlloc)
	}
	l.read += uint64(n)
	return n, err
}

func (l *LiveFile) Seek(off int64, whence int) (int64, error) { return l.F.Seek(off, whence) }

// AnthropicRequestFile writes an Anthropic request of about size bytes
// on one line to a file in a temporary directory: n messages, user
// questions and assistant answers in turn.
func AnthropicRequestFile(t testing.TB, size int) (path string, n int) {
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

// ShareGPT is a ShareGPT file of n short conversations of two messages.
func ShareGPT(n int) string {
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

// Allocated returns the bytes f allocates (runtime.MemStats.TotalAlloc):
// unlike time, it does not depend on the machine's load, and it tells
// linear from quadratic work apart.
func Allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
