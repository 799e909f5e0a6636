package window

import (
	"testing"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
)

// TestWhyFromTheBooks works the "why" line by hand from a strategy's
// books. A call rewrites the least of what it writes (under OpenAI's rule,
// sends uncached) and what its model's previous call left (read + write;
// under OpenAI's rule the whole prompt) less what it reads.
//
// Opus at the 1-hour TTL, four calls:
//
//	1: write 180,000                  left 0: nothing rewritten
//	2: read 180,000, write 2,000      left 180,000: nothing
//	3: read 20,000, write 150,000     left 182,000: min(150,000, 162,000) = 150,000
//	4: read 20,000, write 160,000     left 170,000: min(160,000, 150,000) = 150,000
//
// and one gpt-5 call, the model's first (nothing left: nothing
// rewritten), then a second sending 50,000 uncached of which the first
// call's 40,000-token prompt, reading 0: min(50,000, 40,000) = 40,000 at
// the uncached input price. In all 3 of 6 calls, 340,000 tokens, ~110k
// each, most at the 1-hour write price (300,000 against 40,000).
func TestWhyFromTheBooks(t *testing.T) {
	cr := &costRun{}
	var rw rewrites
	a := func(r, w int) cost.CallCost {
		return cost.CallCost{Rule: prices.CacheAnthropic, WriteTTL: cost.AnthropicLongTTL, Cache: cost.Parts{Read: r, Write: w}}
	}
	o := func(r, u int) cost.CallCost {
		return cost.CallCost{Rule: prices.CacheOpenAI, Cache: cost.Parts{Read: r, Uncached: u}}
	}
	for _, c := range []struct {
		model string
		cc    cost.CallCost
	}{
		{"claude-opus-4-6", a(0, 180000)}, {"claude-opus-4-6", a(180000, 2000)}, {"gpt-5", o(0, 40000)},
		{"claude-opus-4-6", a(20000, 150000)}, {"gpt-5", o(0, 50000)}, {"claude-opus-4-6", a(20000, 160000)},
	} {
		cr.rewrites(&rw, c.model, c.cc)
	}
	// gpt-5's first call leaves 39,936 tokens (312 whole steps of 128),
	// all re-sent uncached by its second.
	if rw.Calls != 3 || rw.Of != 6 || rw.Tokens != 339936 || rw.Price != "1-hour write" || rw.by != [3]int{0, 300000, 39936} {
		t.Fatalf("rewrites %+v", rw)
	}
	// Costing $12.50 against full's $3.75 (full rewrote at 1 call): the
	// line.
	ct := &CostTotals{rewrites: rw, usd: 12.5, fullUSD: 3.75, fullRewrites: 1}
	ct.settle()
	want := CostWhy{ExtraUSD: 8.75, Calls: 3, Of: 6, FullCalls: 1, PerCall: 113312, Price: "1-hour write"}
	if ct.Why == nil || *ct.Why != want {
		t.Fatalf("why %+v, want %+v", ct.Why, want)
	}
	// No more than full: no line.
	ct = &CostTotals{rewrites: rw, usd: 3.75, fullUSD: 3.75}
	ct.settle()
	if ct.Why != nil {
		t.Errorf("why %+v at full's cost", ct.Why)
	}
}

// TestWhyOpenAIStep: under OpenAI's rule the cache serves whole steps of
// 128 tokens, so the tail a call sends past its last step is not there to
// read again, and reading every whole step is no rewrite. Call 1 sends
// 1,100 tokens (8 steps: 1,024 cacheable), call 2 reads those 1,024 and
// sends 200 more uncached: no rewrite. Counted against all 1,100, call 2
// "rewrote" 76 tokens, and full rewrote at nearly every call of a Codex
// session.
func TestWhyOpenAIStep(t *testing.T) {
	cr := &costRun{}
	var rw rewrites
	cr.rewrites(&rw, "gpt-5", cost.CallCost{Rule: prices.CacheOpenAI, Cache: cost.Parts{Uncached: 1100}})
	cr.rewrites(&rw, "gpt-5", cost.CallCost{Rule: prices.CacheOpenAI, Cache: cost.Parts{Read: 1024, Uncached: 200}})
	if rw.Calls != 0 || rw.Of != 2 || rw.Tokens != 0 {
		t.Errorf("rewrites %+v, want none of 2 calls", rw)
	}
}

// TestWhyOverSessions: the line over several sessions is read from the
// sums of their books: session A rewrote at 3 of 6 calls (full at 1),
// 340,000 tokens, $8.75 over full; session B at 1 of 4 (full at 2),
// 20,000 tokens at the 5-minute price, $0.25 over. In all 4 of 10 calls
// (full at 3), 360,000 tokens, 90,000 each, most at the 1-hour price,
// $9 over.
func TestWhyOverSessions(t *testing.T) {
	a := &CostTotals{rewrites: rewrites{Calls: 3, Of: 6, Tokens: 340000, by: [3]int{0, 300000, 40000}}, usd: 12.5, fullUSD: 3.75, fullRewrites: 1}
	b := &CostTotals{rewrites: rewrites{Calls: 1, Of: 4, Tokens: 20000, by: [3]int{20000, 0, 0}}, usd: 1.25, fullUSD: 1, fullRewrites: 2}
	a.settle()
	b.settle()
	var all CostTotals
	for _, u := range []*CostTotals{a, b} {
		if err := all.add(u); err != nil {
			t.Fatal(err)
		}
	}
	want := CostWhy{ExtraUSD: 9, Calls: 4, Of: 10, FullCalls: 3, PerCall: 90000, Price: "1-hour write"}
	if all.Why == nil || *all.Why != want {
		t.Errorf("why %+v, want %+v", all.Why, want)
	}
}
