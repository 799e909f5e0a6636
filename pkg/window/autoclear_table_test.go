package window_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/window"
)

// TestAutoClearTable replays full, cheapest and clear:auto on every
// agent sample, the sessions with recorded misses and the generated
// sessions of TestAutoClearBound and TestCheapestBeatsItsSpace, logs the
// table of docs/replay.md ("clear:auto on the samples":
// go test ./pkg/window -run TestAutoClearTable -v), and checks that
// clear:auto costs at most 1.01 × full and no less than cheapest on
// each.
func TestAutoClearTable(t *testing.T) {
	o := window.DefaultOptions()
	auto, _ := window.Parse("clear:auto", o)
	ch, _ := window.Parse("cheapest", o)
	sess := cheapestSessions(t)
	for _, rel := range []string{
		"agent/streamed/claude/projects/-src-api/3f8a0c2e-71d4-4b59-a6e3-5c9d1e7b2a40.jsonl",
		"agent/streamed/claude/projects/-src-cli/e4a19b3c-5d26-4f70-b8c1-2a6e9d0f4c73.jsonl",
		"agent/streamed/claude/projects/-src-web/b62e4d17-09c3-4a8f-8e21-7d3f5a6c9b04.jsonl",
	} {
		sess = append(sess, namedSession{rel, readTestdata(t, rel)})
	}
	for seed := uint64(1); seed <= 32; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5", "claude-opus-4-5", "claude-haiku-4-5"}[seed%4]
		gap := []time.Duration{2 * time.Second, 30 * time.Second, 4 * time.Minute, 7 * time.Minute}[seed/4%4]
		calls := []int{8, 30, 200}[seed%3]
		sess = append(sess, namedSession{fmt.Sprintf("gen %d: %s, %d agent calls a turn %v apart, pause every %d", seed, model, calls, gap, int(seed%5)*7),
			genPriced(seed, calls, model, gap, int(seed%5)*7)})
	}
	t.Logf("| session | calls | full | cheapest | clear:auto | auto/full | regret |")
	for _, s := range sess {
		res, err := window.Replay(context.Background(), s.tr, []window.Strategy{window.Full, ch, auto}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
		if err != nil {
			t.Fatal(err)
		}
		f, c, a := res[0].Totals.CostUSD, res[1].Totals.CostUSD, res[2].Totals.CostUSD
		t.Logf("| %s | %d | $%.4f | $%.4f | $%.4f | %.3f | %.1f%% |", s.name, res[0].Totals.Calls, f, c, a, a/f, 100*(a/c-1))
		if a > 1.01*f {
			t.Errorf("%s: clear:auto $%.6f, over 1.01 × full's $%.6f", s.name, a, f)
		}
		if a < c-1e-9 {
			t.Errorf("%s: clear:auto $%.6f below cheapest's $%.6f", s.name, a, c)
		}
	}
}
