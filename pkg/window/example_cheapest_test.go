package window_test

import (
	"context"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// The cheapest schedule of clears for a recorded Codex session, against
// full and clear:auto, with each one's regret; the plan clears before 206 of the 220 calls (OpenAI bills no cache writes, so a rewrite costs little).
func ExampleParse_cheapest() {
	f, err := os.Open("../../testdata/agent/codex/sessions/2026/11/24/rollout-2026-11-24T14-02-09-019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73.jsonl")
	if err != nil {
		panic(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "rollout.jsonl", "")
	if err != nil {
		panic(err)
	}
	o := window.DefaultOptions()
	var ss []window.Strategy
	for _, spec := range []string{"full", "cheapest", "clear:auto"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			panic(err)
		}
		ss = append(ss, s)
	}
	res, err := window.Replay(context.Background(), ts[0], ss, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}, Regret: true})
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%-10s $%.4f regret $%.4f, %d clears\n", r.Strategy, r.Totals.CostUSD, *r.Totals.RegretUSD, len(r.Plan))
	}
	// Output:
	// full       $4.1521 regret $2.5706, 0 clears
	// cheapest   $1.5816 regret $0.0000, 215 clears
	// clear:auto $1.5816 regret $0.0001, 0 clears
}
