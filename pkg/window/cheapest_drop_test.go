package window_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
)

// TestCheapestFitsTheWindow: under a window limit at 60%, 25% and 4% of the
// largest call, on generated sessions of many turns (with aborted turns
// and harness compactions), the cheapest plan drops old turns where
// clears alone do not fit (on chats, only drops can). Every window it sends is valid
// ([window.Check]), its books balance, the calls it leaves over the limit
// are exactly those it reports as unfit, and each of those is over the
// limit even when only its active turn is sent (the turn strategy).
func TestCheapestFitsTheWindow(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		cfg := transcriptgen.Config{Seed: seed, Turns: 40, Usage: true, Overhead: 800, MaxToolChars: 6000, AbortEvery: 7}
		if seed%3 == 0 {
			cfg.CompactEvery = 9
		}
		if seed > 3 {
			cfg.NoTools = true // a chat: only drops can fit it
		}
		tr := transcriptgen.Generate(cfg)
		for i := range tr.Messages {
			tr.Messages[i].Model = []string{"claude-sonnet-4-5", "gpt-5"}[seed%2]
			tr.Messages[i].Timestamp = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(i) * 20 * time.Second)
		}
		rep := replies(tr)
		o := window.DefaultOptions()
		base, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full}, window.ReplayOptions{Options: o})
		if err != nil {
			t.Fatal(err)
		}
		for _, share := range []int{60, 25, 4} {
			limit := base[0].Totals.MaxCallTokens * share / 100
			cheapest, err := window.Parse("cheapest:keep=1", o)
			if err != nil {
				t.Fatal(err)
			}
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.TurnOnly, cheapest},
				window.ReplayOptions{Options: o, Indices: true, ContextWindow: limit, Cost: &window.CostOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			turn, ch := res[0], res[1]
			name := fmt.Sprintf("seed %d at %d%% (%d tokens)", seed, share, limit)
			unfit := map[int]bool{}
			for _, u := range ch.PlanUnfit {
				unfit[u.Call] = true
				if c := ch.Calls[u.Call-1]; c.Tokens-limit != u.Over && c.Tokens <= limit {
					t.Errorf("%s: call %d reported %d over, sends %d", name, u.Call, u.Over, c.Tokens)
				}
				if !turn.Calls[u.Call-1].OverWindow {
					t.Errorf("%s: call %d reported unfit, but its active turn alone (%d tokens) fits", name, u.Call, turn.Calls[u.Call-1].Tokens)
				}
			}
			for k, c := range ch.Calls {
				if err := window.Check(tr, rep[k], c.Messages, nil); err != nil {
					t.Fatalf("%s call %d: %v", name, c.Call, err)
				}
				if c.OverWindow != unfit[c.Call] {
					t.Errorf("%s call %d: over the window %v (%d tokens), reported unfit %v", name, c.Call, c.OverWindow, c.Tokens, unfit[c.Call])
				}
			}
			if err := window.CheckCost(ch.Calls); err != nil {
				t.Errorf("%s: %v", name, err)
			}
			drops := 0
			for _, st := range ch.Plan {
				if st.DropBefore > 0 {
					drops++
				}
			}
			t.Logf("%s: turn over at %d calls; cheapest drops at %d, %d unfit", name, turn.Totals.OverWindowCalls, drops, len(ch.PlanUnfit))
		}
	}
}
