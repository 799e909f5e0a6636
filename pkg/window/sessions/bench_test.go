package sessions_test

import (
	"context"
	"runtime"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
)

// BenchmarkReplay replays 8 generated agent loops of 300 calls through
// full and mask, as many at once as there are cores.
func BenchmarkReplay(b *testing.B) {
	var ts []*transcript.Transcript
	for seed := uint64(1); seed <= 8; seed++ {
		ts = append(ts, transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 300, Usage: true, Overhead: 5000, MaxToolChars: 10000}))
	}
	o := window.DefaultOptions()
	mask, err := window.Parse("mask", o)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := replayAll(context.Background(), ts, []window.Strategy{full, mask}, window.ReplayOptions{Options: o}, runtime.GOMAXPROCS(0)); err != nil {
			b.Fatal(err)
		}
	}
}
