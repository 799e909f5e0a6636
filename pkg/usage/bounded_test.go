package usage

import (
	"context"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

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
	path, n := memtest.AnthropicRequestFile(t, size)
	read := func(f func(r io.Reader)) uint64 {
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l := &memtest.LiveFile{F: file}
		f(l)
		return l.Max - min(l.Max, m.HeapAlloc)
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
	if got.Summaries.Len() != 1 || got.Summaries.At(0).Messages != n {
		t.Fatalf("%d summaries, want one of %d messages", got.Summaries.Len(), n)
	}
	if live > 8<<20 {
		t.Errorf("summary: %d MB live while reading a %d MB file", live>>20, size>>20)
	}
	var bytes int64
	live = read(func(r io.Reader) {
		bytes, _, _, err = transcript.CountBilledEach(context.Background(), r, "request.json", "", []tokenize.Counter{counter})
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

// TestSummaryManyConversations: the summary of 20,000 ShareGPT
// conversations (2.4 MB) looks for the project in the file's head once
// per read that extends the head, not once per conversation: before, each
// conversation scanned the whole head again (up to 1 MiB, with a 64 KiB
// buffer and one grown to the head's size, so at least 20,000 × 64 KiB =
// 1.3 GB allocated; 200,000 conversations ran over 10 minutes). The
// bound, 300 MB, is far above the summaries' own work.
func TestSummaryManyConversations(t *testing.T) {
	const n = 20000
	in := memtest.ShareGPT(n)
	counter, err := tokenize.New("estimate")
	if err != nil {
		t.Fatal(err)
	}
	var got *Collected
	a := memtest.Allocated(func() {
		got, err = Collect(context.Background(), strings.NewReader(in), "s.json", CollectOptions{Build: BuildSummary, Counter: counter})
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Summaries.Len() != n || got.Summaries.At(n-1).Messages != 2 {
		t.Fatalf("%d summaries, want %d of 2 messages", got.Summaries.Len(), n)
	}
	if a > 300<<20 {
		t.Errorf("summary of %d conversations allocated %d MB", n, a>>20)
	} else {
		t.Logf("summary of %d conversations allocated %d MB", n, a>>20)
	}
}
