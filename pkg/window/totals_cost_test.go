package window

import (
	"errors"
	"math"
	"testing"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/pkg/cost"
)

// Totals over sessions add the cost too: tokens by part, dollars (the
// saving worked out on the sums, not averaged), the unpriced models and
// the agreement with the record. Figures worked by hand.
func TestTotalsAddCost(t *testing.T) {
	a := Totals{Calls: 2, TokensSent: 100, TokensFull: 200, CostTotals: &CostTotals{
		Cache: cost.Parts{Read: 60, Write: 30, Uncached: 10}, OutputTokens: 5, usd: 1.5, fullUSD: 2, priced: 2,
		UnpricedModels: []string{"m-b"}, Agreement: &cost.Agreement{Calls: 2, Agree: 2}}}
	b := Totals{Calls: 3, TokensSent: 300, TokensFull: 300, CostTotals: &CostTotals{
		Cache: cost.Parts{Read: 200, Write: 50, Uncached: 50}, OutputTokens: 7, usd: 3, fullUSD: 3, priced: 3,
		UnpricedModels: []string{"m-a"}, Agreement: &cost.Agreement{Calls: 3, Agree: 2}}}
	var sum Totals
	for _, u := range []Totals{a, b} {
		if err := sum.Add(u, "s"); err != nil {
			t.Fatal(err)
		}
	}
	ct := sum.CostTotals
	if ct == nil {
		t.Fatal("no cost in the sum")
	}
	if ct.Cache != (cost.Parts{Read: 260, Write: 80, Uncached: 60}) || ct.OutputTokens != 12 {
		t.Errorf("parts %+v output %d, want 260/80/60 and 12", ct.Cache, ct.OutputTokens)
	}
	// $4.5 of $5: saved $0.5, 10%.
	if ct.CostUSD != 4.5 || ct.FullCostUSD != 5 || ct.SavedUSD != 0.5 || ct.SavedCostRatio != 0.1 {
		t.Errorf("cost %v of %v, saved %v (%v), want 4.5 of 5, 0.5 (0.1)", ct.CostUSD, ct.FullCostUSD, ct.SavedUSD, ct.SavedCostRatio)
	}
	if len(ct.UnpricedModels) != 2 || ct.UnpricedModels[0] != "m-a" || ct.UnpricedModels[1] != "m-b" {
		t.Errorf("unpriced %v, want [m-a m-b]", ct.UnpricedModels)
	}
	// 4 of 5 calls agree.
	if g := ct.Agreement; g == nil || g.Calls != 5 || g.Agree != 4 || g.Share != 0.8 {
		t.Errorf("agreement %+v, want 4 of 5 (0.8)", g)
	}
	// The sessions' own totals are left as they were.
	if a.CostTotals.Cache.Read != 60 || a.CostTotals.Agreement.Calls != 2 {
		t.Error("Add changed the session it added")
	}
	// Cache tokens past the largest int are an error, and the sum stays.
	big := Totals{CostTotals: &CostTotals{Cache: cost.Parts{Read: math.MaxInt}}}
	err := sum.Add(big, "s")
	var oe *checked.OverflowError
	if !errors.As(err, &oe) {
		t.Fatalf("overflow: %v", err)
	}
	if sum.CostTotals.Cache.Read != 260 {
		t.Errorf("after a failed Add the read is %d, want 260", sum.CostTotals.Cache.Read)
	}
}
