package window

import (
	"context"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

// chatSession is a generated chat of turns calls (no tools: only drops
// can shrink its windows), priced as model, gap apart.
func chatSession(seed uint64, turns int, model string, gap time.Duration) *transcript.Transcript {
	return timed(transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: turns, NoTools: true, Usage: true, Overhead: 300}), model, gap)
}

// timed gives tr's replies model and times gap apart from 1 November
// 2026, 09:00 UTC (each message at its reply's time or the one before).
func timed(tr *transcript.Transcript, model string, gap time.Duration) *transcript.Transcript {
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.Role == transcript.RoleAssistant {
			at = at.Add(gap)
			m.Model = model
		}
		m.Timestamp = at
	}
	return tr
}

// TestCheapestDropsBruteForce enumerates every schedule of drops of whole
// old turns (at each call the conversation starts at a turn start no
// earlier than the call before's) on small chats under a window limit,
// replays each exactly, and compares the plan: it leaves no more calls
// over the limit than the best schedule (it fits every call any schedule
// fits), and costs no more than the cheapest of the least-over schedules
// (before the programme of session.dropScheduleDP, the plan dropped the
// least the limit forced and cost 6–42% more on these six chats).
func TestCheapestDropsBruteForce(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5"}[seed%2]
		gap := time.Duration(seed*50) * time.Second // from seed 6, 5 minutes apart: cold calls
		tr := chatSession(seed, 6, model, gap)
		opts := ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}
		r := newReplayer(tr, opts)
		fullRes, err := r.run(context.Background(), fullStrategy{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		limit := fullRes.Totals.MaxCallTokens * 55 / 100
		opts.ContextWindow = limit
		r = newReplayer(tr, opts)
		fullRes, err = r.run(context.Background(), fullStrategy{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		cs := cheapestStrategy{Keep: 1}
		s, err := r.collect(context.Background(), fullStrategy{}, fullRes.Calls, cs)
		if err != nil {
			t.Fatal(err)
		}
		starts := make([][]int, len(s.calls)) // each call's possible starts
		for i := range s.calls {
			starts[i] = append([]int{0}, turnStartsOf(r, fullRes, i)...)
		}
		n := len(s.calls)
		from := make([]int, n)
		best, bestOver, count := math.Inf(1), math.MaxInt, 0
		var walk func(i, prev int)
		walk = func(i, prev int) {
			if i == n {
				res, err := r.run(context.Background(), withEdits{Base: dropPlan{from: from}, Label: "drops"}, fullRes.Calls, false)
				if err != nil {
					t.Fatal(err)
				}
				count++
				over := res.Totals.OverWindowCalls
				if over < bestOver || over == bestOver && res.Totals.usd < best {
					best, bestOver = res.Totals.usd, over
				}
				return
			}
			for _, x := range starts[i] {
				if x >= prev {
					from[i] = x
					walk(i+1, x)
				}
			}
		}
		walk(0, 0)
		p, err := r.plan(context.Background(), cs, fullRes.Calls)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.run(context.Background(), p.withEdits, fullRes.Calls, false)
		if err != nil {
			t.Fatal(err)
		}
		got, over := res.Totals.usd, res.Totals.OverWindowCalls
		name := fmt.Sprintf("seed %d %s %v apart, limit %d", seed, model, gap, limit)
		t.Logf("%s: %d schedules, best $%.8f (%d over), cheapest $%.8f (%d over, %+.2f%%)", name, count, best, bestOver, got, over, 100*(got/best-1))
		if over > bestOver {
			t.Errorf("%s: %d calls over, the best schedule %d", name, over, bestOver)
		}
		// The plan is at least as cheap as the best drop schedule (it may
		// clear on top of the drops, and so be cheaper still).
		if over == bestOver && got > best*(1+1e-9) {
			t.Errorf("%s: cheapest $%.8f, the best drop schedule $%.8f", name, got, best)
		}
	}
}

// turnStartsOf lists the turn starts call i's window may begin at, as
// the collector records them (replaying full to that call).
func turnStartsOf(r *replayer, full *Result, i int) []int {
	var out []int
	k := &collector{r: r}
	_ = k
	n := 0
	r.probe = func(c *conversation, _ *window, _ *transcript.Message, _ *Call, _ int) {
		if n == i {
			out = turnStarts(c)
		}
		n++
	}
	defer func() { r.probe = nil }()
	_, _ = r.run(context.Background(), fullStrategy{}, full.Calls, false)
	return out
}
