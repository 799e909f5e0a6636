package window

import (
	"context"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

// TestReplayHeldPerMessage bounds what a replay of one long session holds
// beside the transcript, per message, while its last strategy runs: the
// measured entries and the history point at the transcript's messages
// (an Entry is 48 bytes, a message 256), they do not copy them. Before,
// each held its own copy of every message: about 760 bytes a message
// here; now about 420 (full's calls, kept to measure the others by, the
// history's books, one window's parts).
func TestReplayHeldPerMessage(t *testing.T) {
	if testing.Short() {
		t.Skip("a long session")
	}
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 7, AgentCalls: 4000, MaxToolChars: 400})
	n := len(tr.Messages)
	if n < 8000 {
		t.Fatalf("%d messages, want a long session", n)
	}
	o := DefaultOptions()
	var strategies []Strategy
	for _, name := range []string{"full", "clear", "mask"} {
		s, err := Parse(name, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	// HeapAlloc counts garbage not yet collected: collect at once.
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	var peak uint64
	opts := ReplayOptions{Options: o, Indices: true, OnCall: func(s string, c *Call, _ *Event) error {
		if s == "mask" && c.Call%500 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
		return nil
	}}
	if _, err := Replay(context.Background(), tr, strategies, opts); err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(tr)
	if peak == 0 {
		t.Fatal("no call of mask measured")
	}
	held := float64(peak-min(peak, before)) / float64(n)
	t.Logf("%d messages: %.0f bytes a message held by the replay", n, held)
	if held > 500 {
		t.Errorf("the replay holds %.0f bytes a message beside the transcript, want at most 500", held)
	}
}
