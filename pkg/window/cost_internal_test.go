package window

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/internal/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
)

// TestCostStepsMatchWholeWindows checks the incremental hand-over of
// windows to the cache model: every strategy, with and without each
// edit, on generated agent loops and chats, gives per call the same cache
// split as cost.Simulate over each call's whole window, where every
// message is a block named by its index, how it is sent and a hash of the
// text sent (so the two disagree if a step keeps a block that changed).
func TestCostStepsMatchWholeWindows(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		cfg := transcriptgen.Config{Seed: seed, AgentCalls: 90, AgentTurns: 1 + int(seed%3), Usage: seed%2 == 0, Overhead: 2000, MaxToolChars: 20000}
		if seed == 3 {
			cfg = transcriptgen.Config{Seed: seed, Turns: 80, Usage: true, Overhead: 1500, MaxToolChars: 3000, AbortEvery: 5, CompactEvery: 12}
		}
		tr := transcriptgen.Generate(cfg)
		for i := range tr.Messages { // a model and a clock, so the cache has rules and TTLs
			tr.Messages[i].Model = []string{"claude-sonnet-4-5", "gpt-5"}[i/400%2]
			tr.Messages[i].Timestamp = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC).Add(time.Duration(i*i%977) * time.Second)
		}
		o := DefaultOptions()
		o.WindowChars = 40000
		o.HighWaterTokens = 20000
		o.LowWaterChars = 15000
		o.Budget = engine.Budget{Total: 15000}
		o.Clear = ClearEdit{Trigger: 15000, Keep: 3, ClearAtLeast: 3000 * int(seed%2), ClearInputs: seed%2 == 1}
		o.Mask = MaskEdit{Keep: 4}
		for _, b := range []string{"full", "windowed", "turn", "sliding", "budget", "summarizing"} {
			for _, spec := range []string{b, b + "+clear", b + "+mask", b + "+limit:bytes=3000", b + "+clear+mask"} {
				s, err := Parse(spec, o)
				if err != nil {
					t.Fatal(err)
				}
				var whole []cost.Call
				r := newReplayer(tr, ReplayOptions{Options: o, Cost: &CostOptions{}})
				fullRes, err := r.run(context.Background(), FullStrategy{}, nil, false)
				if err != nil {
					t.Fatal(err)
				}
				r.trace = func(model string, at time.Time, blocks []cost.Block) {
					whole = append(whole, cost.Call{Model: model, Time: at, Blocks: blocks})
				}
				res, err := r.run(context.Background(), s, fullRes.Calls, false)
				if err != nil {
					t.Fatal(err)
				}
				want, err := cost.Simulate(whole, cost.Options{})
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("seed %d %s", seed, spec)
				if len(want.Calls) != len(res.Calls) {
					t.Fatalf("%s: %d calls traced, %d replayed", name, len(want.Calls), len(res.Calls))
				}
				for i, c := range res.Calls {
					if c.Cache != want.Calls[i].Cache {
						t.Fatalf("%s call %d: steps give %+v, whole windows %+v", name, i+1, c.Cache, want.Calls[i].Cache)
					}
				}
			}
		}
	}
}
