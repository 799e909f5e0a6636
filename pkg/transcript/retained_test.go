package transcript

import (
	"context"
	"runtime"
	"strings"
	"testing"
)

// TestSummaryRetainedPerConversation: what the summary of many short
// conversations keeps of each once it is read, measured as the live heap
// after a collection over 20,000 ShareGPT conversations of two messages
// (the input's own string is live before and after, so it does not
// count). Each kept a SessionSummary (about 310 B with its building
// state) and its Transcript (about 240 B) until the end: over 550 B a
// conversation, so a file of 200,000 peaked at 12 times its size. The
// report needs a row of its figures, the conversation's id and its
// warnings; the bound, 450 B, is generous above the summary row alone.
func TestSummaryRetainedPerConversation(t *testing.T) {
	const n = 20000
	in := shareGPT(n)
	live := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := live()
	got, err := Collect(context.Background(), strings.NewReader(in), "s.json", CollectOptions{Build: BuildSummary})
	if err != nil {
		t.Fatal(err)
	}
	after := live()
	if len(got.Summaries) != n || got.Summaries[n-1].Conversation != "c19999" {
		t.Fatalf("%d summaries, want %d", len(got.Summaries), n)
	}
	per := (after - min(after, before)) / n
	if per > 450 {
		t.Errorf("the summary keeps %d B a conversation, want at most 450", per)
	} else {
		t.Logf("the summary keeps %d B a conversation", per)
	}
	runtime.KeepAlive(got)
}
