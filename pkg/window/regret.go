package window

import "context"

// planAll plans every cheapest strategy of resolved (replacing it by its
// plan) and, with [ReplayOptions.Regret], returns what the reference
// cheapest plan costs: the first strategy named exactly "cheapest", else
// one planned with the replay's options.
func (r *replayer) planAll(ctx context.Context, resolved []Strategy, full []Call) ([]*planned, *float64, error) {
	plans := make([]*planned, len(resolved))
	var ref *planned
	for i, s := range resolved {
		_, _, name, ok := cheapestOf(s)
		if !ok {
			continue
		}
		p, err := r.plan(ctx, s, full)
		if err != nil {
			return nil, nil, err
		}
		plans[i], resolved[i] = p, p.withEdits
		if name == "cheapest" && ref == nil {
			ref = p
		}
	}
	if r.opts.Cost == nil || !r.opts.Regret {
		return plans, nil, nil
	}
	if ref == nil {
		s, err := Parse("cheapest", r.opts.Options)
		if err != nil {
			return nil, nil, err
		}
		if ref, err = r.plan(ctx, s, full); err != nil {
			return nil, nil, err
		}
	}
	u := ref.usd
	return plans, &u, nil
}

// settle adds a cheapest strategy's plan to its result and the regret
// to every result's cost.
func (r *replayer) settle(res *Result, p *planned, cheapestUSD *float64) {
	if p != nil {
		res.Plan, res.PlanUnfit = p.steps, p.unfit
	}
	if ct := res.Totals.CostTotals; ct != nil && cheapestUSD != nil {
		ct.regret, ct.hasRegret = ct.usd-*cheapestUSD, true
		ct.settle()
	}
}
