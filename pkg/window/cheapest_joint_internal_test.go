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

// toolChat is a short session of turns with tool calls: drops of whole
// old turns and clears of tool results both have something to take.
func toolChat(seed uint64, turns int, model string, gap time.Duration) *transcript.Transcript {
	return timed(transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: turns, Usage: true, Overhead: 300, MaxToolChars: 4000}), model, gap)
}

// TestCheapestJointBruteForce enumerates, on small sessions with tool
// calls under a window limit, every schedule of drops of whole old turns
// together with every schedule of clears on the windows those drops
// leave, replays each pair exactly, and compares the plan: no more calls
// over the limit than the best pair, and no dearer than the cheapest of
// the least-over pairs. The drops and the clears are chosen jointly: a
// plan that fixed its drops first (the least the limit forces, or the
// programme's estimate without clears) and cleared on top could cost
// more than a pair with other drops.
func TestCheapestJointBruteForce(t *testing.T) {
	const maxPairs = 20000 // the replays one session may take
	tried := 0
	for seed := uint64(1); seed <= 16; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5"}[seed%2]
		gap := time.Duration(seed*45) * time.Second
		tr := toolChat(seed, 3, model, gap)
		opts := ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}
		r := newReplayer(tr, opts)
		fullRes, err := r.run(context.Background(), fullStrategy{}, nil, false)
		if err != nil {
			t.Fatal(err)
		}
		limit := fullRes.Totals.MaxCallTokens * 30 / 100
		opts.ContextWindow = limit
		r = newReplayer(tr, opts)
		if fullRes, err = r.run(context.Background(), fullStrategy{}, nil, false); err != nil {
			t.Fatal(err)
		}
		cs := cheapestStrategy{Keep: 1}
		first, err := r.collect(context.Background(), fullStrategy{}, fullRes.Calls, cs)
		if err != nil {
			t.Fatal(err)
		}
		first.limit = r.limitFor(cs, first)
		if forced, _ := first.dropSchedule(1); forced == nil {
			// Clears alone fit every call: the plan drops nothing, as
			// without a window (a drop is the window's to force).
			t.Logf("seed %d: no call needs a drop", seed)
			continue
		}
		n := len(first.calls)
		from := make([]int, n)
		best, bestOver, pairs := math.Inf(1), math.MaxInt, 0
		// The clear schedules of s: the boundaries at each call, each
		// no lower than the call before's.
		schedules := func(s *session) int {
			ways := map[int]int{0: 1}
			for i := range s.calls {
				next := map[int]int{}
				for prev, w := range ways {
					lo := max(prev, s.calls[i].lo)
					for k := lo; k <= max(lo, s.calls[i].hi); k++ {
						next[k] += w
					}
				}
				ways = next
			}
			total := 0
			for _, w := range ways {
				total += w
			}
			return total
		}
		try := func(base Strategy, s *session) {
			bounds := make([]int, n)
			var walk func(i, prev int)
			walk = func(i, prev int) {
				if i == n {
					steps := withDrops(s.steps(bounds), nil)
					p := withEdits{Base: base, Edits: []edit{planEdit{steps: steps}}, Label: "pair"}
					res, err := r.run(context.Background(), p, fullRes.Calls, false)
					if err != nil {
						t.Fatal(err)
					}
					pairs++
					over := res.Totals.OverWindowCalls
					if over < bestOver || over == bestOver && res.Totals.usd < best {
						best, bestOver = res.Totals.usd, over
					}
					return
				}
				lo := max(prev, s.calls[i].lo)
				for k := lo; k <= max(lo, s.calls[i].hi); k++ {
					bounds[i] = k
					walk(i+1, k)
				}
			}
			walk(0, 0)
		}
		var bases []Strategy
		var sessions []*session
		var drops func(i, prev int)
		drops = func(i, prev int) {
			if i == n {
				if pairs > maxPairs {
					return
				}
				base := Strategy(dropPlan{from: append([]int(nil), from...)})
				s, err := r.collect(context.Background(), base, fullRes.Calls, cs)
				if err != nil {
					t.Fatal(err)
				}
				if pairs += schedules(s); pairs > maxPairs {
					return
				}
				bases = append(bases, base)
				sessions = append(sessions, s)
				return
			}
			for _, x := range append([]int{0}, first.calls[i].turns...) {
				if x >= prev {
					from[i] = x
					drops(i+1, x)
				}
			}
		}
		drops(0, 0)
		if pairs > maxPairs {
			t.Logf("seed %d: over %d pairs, not enumerated", seed, maxPairs)
			continue
		}
		tried++
		pairs = 0
		for k := range bases {
			try(bases[k], sessions[k])
		}
		p, err := r.plan(context.Background(), cs, fullRes.Calls)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.run(context.Background(), p.withEdits, fullRes.Calls, false)
		if err != nil {
			t.Fatal(err)
		}
		got, over := res.Totals.usd, res.Totals.OverWindowCalls
		name := fmt.Sprintf("seed %d %s %v apart, %d calls, limit %d", seed, model, gap, n, limit)
		t.Logf("%s: %d pairs, best $%.8f (%d over), cheapest $%.8f (%d over, %+.3f%%)", name, pairs, best, bestOver, got, over, 100*(got/best-1))
		if over > bestOver || over == bestOver && got > best*(1+1e-9) {
			t.Errorf("%s: cheapest $%.8f with %d over; the best pair $%.8f with %d", name, got, over, best, bestOver)
		}
	}
	if tried < 5 {
		t.Errorf("%d sessions enumerated, want 5 at least", tried)
	}
}

// The drop schedules are walked only where they can be completed: after
// a compaction a call's turn starts are below the earlier calls' (here
// only 0 is left from call 41 on), so every schedule that drops before
// it dies there. The one schedule left is to drop nothing. Walking every
// partial schedule (12 starts at each of 40 calls: C(52, 12), some 2·10^11
// paths) did not end (a 314-message real session under a window hung in
// it).
func TestEveryDropScheduleDeadEnds(t *testing.T) {
	s := &session{calls: make([]pcall, 60)}
	for i := range 40 {
		for k := 1; k <= 12; k++ {
			s.calls[i].turns = append(s.calls[i].turns, 10*k)
		}
	}
	got := s.everyDropSchedule()
	if len(got) != 1 || got[0] != nil {
		t.Fatalf("schedules = %v, want only the one that drops nothing", got)
	}
	// Without the compaction: far over the bound of 256.
	s.calls = s.calls[:40]
	if got := s.everyDropSchedule(); got != nil {
		t.Fatalf("%d schedules, want none (over the bound)", len(got))
	}
	// Three calls that may start at 0, 10 or 20, never lower than the
	// call before: C(3+2, 2) = 10, by hand: 000 00a 00b 0aa 0ab 0bb aaa
	// aab abb bbb.
	s.calls = s.calls[:3]
	for i := range s.calls {
		s.calls[i].turns = []int{10, 20}
	}
	if got := s.everyDropSchedule(); len(got) != 10 {
		t.Fatalf("%d schedules, want 10", len(got))
	}
}
