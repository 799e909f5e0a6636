package usage

import (
	"reflect"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// datedPricer prices model "m1" at $1 a token of any kind before 2026-01-03
// and $10 from then on (and when undated: the newest price), "m2" at $100
// a token; any other model has no price. The figures are chosen so that each sum below says which calls
// it holds.
type datedPricer struct{}

var priceChange = time.Date(2026, 1, 3, 0, 0, 0, 0, time.UTC)

func (datedPricer) PriceCall(model string, at time.Time, u transcript.Usage) (float64, bool) {
	n := float64(u.Input + u.CacheRead + u.CacheWrite + u.Output)
	switch {
	case model == "m1" && !at.IsZero() && at.Before(priceChange):
		return n, true
	case model == "m1":
		return 10 * n, true
	case model == "m2":
		return 100 * n, true
	}
	return 0, false
}

// TestSummaryPricing: every call is priced once, at its own time, and
// its cost lands in its session, its day, its model and the totals. By
// hand:
//
//	session a: m1 01-02 (3 tokens) $3, m1 01-03 (2 tokens) $20,
//	           m2 01-02 (1 token) $100, mystery 01-03 (4 tokens) unpriced,
//	           a sidechain m1 call, undated: newest price, 5 tokens, $50
//	           (it counts on the session's first day, 01-02)
//	session b: one call with no model (7 tokens): no cost at all
//
// a: $173; day 01-02: 3 + 100 + 50 = $153; 01-03: $20; model m1: $73,
// m2: $100, mystery: unpriced (0); totals $173, unpriced mystery.
func TestSummaryPricing(t *testing.T) {
	a := NewSessionSummary("a.jsonl", "/src")
	a.Pricer = datedPricer{}
	for _, m := range []transcript.Message{
		summaryMessage("2026-01-02T10:00:00Z", "m1", transcript.Usage{Input: 1, Output: 2}, ""),
		summaryMessage("2026-01-02T11:00:00Z", "m2", transcript.Usage{Output: 1}, ""),
		summaryMessage("2026-01-03T10:00:00Z", "m1", transcript.Usage{CacheRead: 2}, ""),
		summaryMessage("2026-01-03T11:00:00Z", "mystery", transcript.Usage{Input: 3, Output: 1}, ""),
	} {
		if err := a.Add(&m); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(&transcript.Transcript{Format: "claude-code", Unsent: []transcript.UnsentCall{{Model: "m1", Usage: transcript.Usage{CacheWrite: 5}}}}); err != nil {
		t.Fatal(err)
	}
	b := NewSessionSummary("b.jsonl", "/other")
	b.Pricer = datedPricer{}
	m := summaryMessage("2026-01-04T10:00:00Z", "", transcript.Usage{Input: 7}, "")
	if err := b.Add(&m); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(&transcript.Transcript{Format: "harpe"}); err != nil {
		t.Fatal(err)
	}
	cost := func(c *float64) any {
		if c == nil {
			return nil
		}
		return *c
	}
	if got := cost(a.CostUSD); got != 173.0 || !reflect.DeepEqual(a.UnpricedModels, []string{"mystery"}) {
		t.Errorf("session a: %v %v, want 173 [mystery]", got, a.UnpricedModels)
	}
	if b.CostUSD != nil || b.UnpricedModels != nil {
		t.Errorf("session b: %v %v, want no cost", cost(b.CostUSD), b.UnpricedModels)
	}
	for _, tc := range []struct {
		by   string
		want map[string]any // group key → cost
	}{
		{"day", map[string]any{"2026-01-02": 153.0, "2026-01-03": 20.0, "2026-01-04": nil}},
		{"model", map[string]any{"m1": 73.0, "m2": 100.0, "mystery": nil, "-": nil}},
		{"project", map[string]any{"/src": 173.0, "/other": nil}},
	} {
		var ss SessionSummaries
		ss.Add(a, b)
		s, err := NewSummary(ss, tc.by)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for _, g := range s.Groups {
			got[g.Key] = cost(g.CostUSD)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("by %s: %v, want %v", tc.by, got, tc.want)
		}
		if c := cost(s.Totals.CostUSD); c != 173.0 || !reflect.DeepEqual(s.Totals.UnpricedModels, []string{"mystery"}) {
			t.Errorf("by %s: totals %v %v", tc.by, c, s.Totals.UnpricedModels)
		}
		// What the totals leave out: mystery's 4 tokens, and the call
		// with no model (7).
		want := []UnpricedCalls{{Model: "", Calls: 1, Tokens: 7}, {Model: "mystery", Calls: 1, Tokens: 4}}
		if u := s.Unpriced(); !reflect.DeepEqual(u, want) {
			t.Errorf("by %s: unpriced %+v, want %+v", tc.by, u, want)
		}
	}
}

// TestTallyWithoutPricer: a tally no pricer saw has no cost and leaves
// nothing out.
func TestTallyWithoutPricer(t *testing.T) {
	var tally UsageTally
	m := summaryMessage("2026-01-02T10:00:00Z", "m1", transcript.Usage{Input: 1}, "")
	if err := tally.Add(&m, nil); err != nil {
		t.Fatal(err)
	}
	if c, u := tally.Cost(); c != nil || u != nil || tally.Unpriced() != nil {
		t.Errorf("Cost = %v %v, Unpriced = %v", c, u, tally.Unpriced())
	}
}

func TestMergeUnpriced(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	a := []UnpricedCalls{{Model: "z", Calls: 1, Tokens: 10}, {Model: "a", Calls: 2, Tokens: maxInt}}
	b := []UnpricedCalls{{Model: "a", Calls: 1, Tokens: 1}, {Model: "m", Calls: 3, Tokens: 30}}
	want := []UnpricedCalls{{Model: "a", Calls: 3, Tokens: maxInt}, {Model: "m", Calls: 3, Tokens: 30}, {Model: "z", Calls: 1, Tokens: 10}}
	if got := MergeUnpriced(a, b); !reflect.DeepEqual(got, want) {
		t.Errorf("MergeUnpriced = %+v, want %+v", got, want)
	}
}
