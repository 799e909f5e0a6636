package window

import (
	"slices"

	"github.com/harpe-dev/harpe/pkg/cost"
)

// Unpriced returns the calls of r whose model has no price, and their
// tokens (sent and output), by model: what a report says its cost leaves
// out. It is nil for a result not priced or priced whole.
func (r *Result) Unpriced() []cost.Unpriced {
	if r.Totals.CostTotals == nil || len(r.Totals.UnpricedModels) == 0 {
		return nil
	}
	if u := r.Totals.unpriced; len(u) > 0 {
		return slices.Clone(u)
	}
	var out []cost.Unpriced
	for _, c := range r.Calls {
		if c.CallCost == nil || !slices.Contains(r.Totals.UnpricedModels, c.CallCost.Model) {
			continue
		}
		out = cost.MergeUnpriced(out, []cost.Unpriced{{Model: c.CallCost.Model, Calls: 1, Tokens: c.Tokens + c.CallCost.OutputTokens}})
	}
	return out
}

// AllUnpriced tells a strategy whose calls named a model and none had a
// price: its dollar figures are unknown ([cost.Priced]), and a report says
// "unpriced", never $0.
func (ct *CostTotals) AllUnpriced() bool { return ct.unpricedAll() }
