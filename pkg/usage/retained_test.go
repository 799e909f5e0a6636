package usage

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
)

// TestSummaryKeepsNoHead: the summary of a file keeps nothing of the
// file's head (the first MiB read to find its project) once it is
// returned. Twenty summaries of 600 KB Claude Code files, kept alive,
// held each file's head through the result until it was a copy:
// 20 × 600 KB = 12 MB; now about the summaries' few KB.
func TestSummaryKeepsNoHead(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"type":"user","sessionId":"s","uuid":"u0","parentUuid":null,"cwd":"/src/p","message":{"role":"user","content":"hi"}}` + "\n")
	pad := strings.Repeat("x", 1000)
	for i := 1; b.Len() < 600<<10; i++ {
		fmt.Fprintf(&b, `{"type":"user","sessionId":"s","uuid":"u%d","parentUuid":"u%d","cwd":"/src/p","message":{"role":"user","content":"%s"}}`+"\n", i, i-1, pad)
	}
	in := b.String()
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	var kept []*Collected
	for range 20 {
		got, err := Collect(context.Background(), strings.NewReader(in), "s.jsonl", CollectOptions{Build: BuildSummary})
		if err != nil {
			t.Fatal(err)
		}
		if got.Summaries.Len() != 1 || got.Summaries.At(0).Project != "/src/p" {
			t.Fatalf("%d summaries, want 1 of project /src/p", got.Summaries.Len())
		}
		kept = append(kept, got)
	}
	grown := live() - min(live(), before)
	runtime.KeepAlive(kept)
	if grown > 1<<20 {
		t.Errorf("20 summaries keep %d KB, want under 1 MB (no file's head)", grown>>10)
	} else {
		t.Logf("20 summaries keep %d KB", grown>>10)
	}
}

// TestSummaryRetainedPerConversation: what the summary of many short
// conversations keeps of each once it is read, measured as the live heap
// after a collection of 30,000 ShareGPT conversations of two messages
// less that after one of 10,000, over the 20,000 between (what a
// collection keeps whatever its length, the file's 1 MiB head, and the
// input's own string do not count). Each kept a SessionSummary (about
// 310 B with its building state) and its Transcript (about 240 B) until
// the end, over 550 B a conversation; then the SessionSummary alone,
// 368 B (200,000 of them peaked at 9 times the file's size). A row of
// what the summary writes was 64 B, and the conversation's id 8 more
// (81 B measured); now 56 B, the id's bytes kept in its chunk.
func TestSummaryRetainedPerConversation(t *testing.T) {
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	kept := func(n int) uint64 {
		in := memtest.ShareGPT(n)
		before := live()
		got, err := Collect(context.Background(), strings.NewReader(in), "s.json", CollectOptions{Build: BuildSummary})
		if err != nil {
			t.Fatal(err)
		}
		after := live()
		runtime.KeepAlive(in)
		last := fmt.Sprintf("c%d", n-1)
		if got.Summaries.Len() != n || got.Summaries.At(n-1).Conversation != last {
			t.Fatalf("%d summaries, want %d", got.Summaries.Len(), n)
		}
		runtime.KeepAlive(got)
		return after - min(after, before)
	}
	small, large := kept(10000), kept(30000)
	per := (large - min(large, small)) / 20000
	if per > 70 {
		t.Errorf("the summary keeps %d B a conversation, want at most 70", per)
	} else {
		t.Logf("the summary keeps %d B a conversation (%d B for 10,000)", per, small)
	}
}
