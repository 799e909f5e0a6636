package cost

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// TestSimulatorMatchesReference checks the incremental simulator against
// the first, map-based implementation (ref_test.go), which hashes every
// prefix of every window, on random sessions whose windows never come
// back to an earlier content: each call keeps a random prefix of the
// previous window and appends new blocks, with a front of varying size,
// three models, pauses up to 7 minutes and occasional breakpoints.
func TestSimulatorMatchesReference(t *testing.T) {
	models := []string{"claude-sonnet-4-5", "claude-haiku-4-5", "gpt-5", "claude-opus-4-5", "no-such-model"}
	for seed := range uint64(60) {
		r := rand.New(rand.NewPCG(seed, 7))
		var calls []Call
		var prev []Block
		at := t0
		next := 0
		frontID := "S"
		for range 40 + r.IntN(40) {
			keep := len(prev)
			if r.IntN(3) == 0 && keep > 0 {
				keep = r.IntN(keep + 1)
			}
			blocks := append([]Block(nil), prev[:keep]...)
			for range r.IntN(6) {
				next++
				blocks = append(blocks, Block{ID: "b" + strconv.Itoa(next), Tokens: 50 + r.IntN(900), Breakpoint: r.IntN(15) == 0})
			}
			prev = blocks
			if r.IntN(25) == 0 { // new tools: a new front, never an old one
				next++
				frontID = "S" + strconv.Itoa(next)
			}
			front := Block{ID: frontID, Tokens: 1500 + r.IntN(3), Breakpoint: true}
			at = at.Add(time.Duration(r.IntN(7*60)) * time.Second)
			calls = append(calls, Call{Model: models[r.IntN(len(models))], Time: at,
				Blocks: append([]Block{front}, blocks...), Output: r.IntN(300)})
		}
		for _, rule := range []prices.CacheRule{"", "anthropic", "openai", "none"} {
			want, err := refSimulate(calls, Options{Rule: rule})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Simulate(calls, Options{Rule: rule})
			if err != nil {
				t.Fatal(err)
			}
			for i := range calls {
				g, w := got.Calls[i], want.Calls[i]
				if g.Cache != w.Cache || math.Abs(g.CostUSD-w.CostUSD) > 1e-12 || g.Rule != w.Rule {
					t.Fatalf("seed %d rule %q call %d: got %+v, want %+v", seed, rule, i, g, w)
				}
			}
			if got.Totals.Cache != want.Totals.Cache {
				t.Fatalf("seed %d rule %q totals: got %+v, want %+v", seed, rule, got.Totals, want.Totals)
			}
		}
	}
}
