package window

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
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
		o.Windowed.Chars, o.Sliding.Chars = new(40000), new(40000)
		o.Summarizing.HighWaterTokens = new(20000)
		o.Summarizing.LowWaterChars = new(15000)
		o.Budget = engine.Budget{Total: 15000}
		o.Clear = ClearSettings{Trigger: new(15000), Keep: new(3), ClearAtLeast: new(3000 * int(seed%2)), ClearInputs: seed%2 == 1}
		o.Mask = MaskSettings{Keep: new(4)}
		for _, b := range []string{"full", "windowed", "turn", "sliding", "budget", "summarizing"} {
			for _, spec := range []string{b, b + "+clear", b + "+mask", b + "+limit:bytes=3000", b + "+clear+mask"} {
				s, err := Parse(spec, o)
				if err != nil {
					t.Fatal(err)
				}
				var whole []cost.Call
				r := newReplayer(tr, ReplayOptions{Options: o, Cost: &CostOptions{}})
				fullRes, err := r.run(context.Background(), fullStrategy{}, nil, false)
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

func TestCommonRuns(t *testing.T) {
	tests := []struct {
		name string
		a, b []Span
		want int
	}{
		{"empty", nil, []Span{{0, 3}}, 0},
		{"same", []Span{{0, 3}, {5, 7}}, []Span{{0, 3}, {5, 7}}, 5},
		{"extended", []Span{{0, 3}}, []Span{{0, 5}}, 3},
		{"split the same way or not", []Span{{0, 2}, {2, 4}}, []Span{{0, 4}}, 4},
		{"front dropped", []Span{{0, 4}}, []Span{{2, 6}}, 0},
		{"gap moved", []Span{{0, 3}, {5, 9}}, []Span{{0, 3}, {6, 9}}, 3},
		{"a position left out", []Span{{0, 6}}, []Span{{0, 2}, {3, 7}}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := commonRuns(tt.a, tt.b); got != tt.want {
				t.Errorf("commonRuns = %d, want %d", got, tt.want)
			}
			if got := commonRuns(tt.b, tt.a); got != tt.want {
				t.Errorf("commonRuns swapped = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestIndexOf(t *testing.T) {
	runs := []Span{{2, 5}, {8, 10}} // positions 2 3 4 8 9
	tests := []struct {
		name    string
		p, want int
	}{
		{"before the first", 0, 0},
		{"the first", 2, 0},
		{"inside", 4, 2},
		{"in the gap", 6, 3},
		{"second run", 9, 4},
		{"past the end", 12, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := indexOf(runs, tt.p); got != tt.want {
				t.Errorf("indexOf(%d) = %d, want %d", tt.p, got, tt.want)
			}
		})
	}
}
