package engine

import (
	"fmt"
	"math"
	"slices"
)

// The names of the optimising policies.
const (
	PolicyKnapsack     = "knapsack"
	PolicyDuoAttention = "duo_attention"
)

// Names of the solvers the optimising policies report in [Report.Solver].
const (
	SolverExactDP       = knapsackExactDP
	SolverDensityGreedy = knapsackDensityGreedy
)

func init() {
	Register(PolicyKnapsack, PolicyFunc(func(p *Problem) (Selection, error) {
		return optimise(p, KnapsackUtilities(p.Items))
	}))
	Register(PolicyDuoAttention, PolicyFunc(func(p *Problem) (Selection, error) {
		o := p.Options
		if o == nil {
			o = &Options{}
		}
		u, err := DuoAttentionUtilities(p.Items, o.EffectiveAlpha(), o.EffectiveSinks(), o.EffectiveHalfLife(), withheld(o))
		if err != nil {
			return Selection{}, err
		}
		return optimise(p, u)
	}))
}

// KnapsackUtilities gives each item its utility for the knapsack policy:
// its explicit Utility when set, else (1 + relevance) / (1 + priority), an
// absent relevance counting as 0.
func KnapsackUtilities(items []Item) []float64 {
	u := make([]float64, len(items))
	for i := range items {
		it := &items[i]
		if it.Utility != nil {
			u[i] = *it.Utility
		} else {
			u[i] = (1 + relevanceOrZero(it)) / (1 + float64(it.Priority))
		}
	}
	return u
}

// DuoAttentionUtilities gives each item its utility for the duo_attention
// policy, a retrieval head and a streaming head mixed:
//
//	utility = alpha·relevance + (1 − alpha)·stream
//
// An explicit Utility still wins. The stream score models a model that
// attends to the first tokens (the attention sinks) and to recent ones:
// items are ranked by the engine's "newer" order (a larger
// (timestamp, position) pair; no timestamp counts as older than any), rank
// 0 being the newest; the sinks oldest items score 1 and the others
// 0.5^(rank/halfLife). Every item that goes into the call takes part in
// the ranking, always-kept ones included (a pinned system prompt is the
// first thing the model attends to); items for which skip returns true
// (withheld confidential ones) do not, and get utility 0.
//
// alpha must be in [0, 1], sinks ≥ 0 and halfLife finite and > 0.
func DuoAttentionUtilities(items []Item, alpha float64, sinks int, halfLife float64, skip func(*Item) bool) ([]float64, error) {
	switch {
	case !(alpha >= 0 && alpha <= 1):
		return nil, fmt.Errorf("alpha must be between 0 and 1, got %v", alpha)
	case sinks < 0:
		return nil, fmt.Errorf("sinks must be ≥ 0, got %d", sinks)
	case !(halfLife > 0) || math.IsInf(halfLife, 1):
		return nil, fmt.Errorf("half-life must be a finite number > 0, got %v", halfLife)
	}
	order := make([]int, 0, len(items))
	for i := range items {
		if skip == nil || !skip(&items[i]) {
			order = append(order, i)
		}
	}
	// Newest first; newer is a total order, so this is one answer.
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case newer(items, a, b):
			return -1
		case newer(items, b, a):
			return 1
		}
		return 0
	})
	u := make([]float64, len(items))
	for rank, i := range order {
		it := &items[i]
		if it.Utility != nil {
			u[i] = *it.Utility
			continue
		}
		stream := 1.0
		if rank < len(order)-sinks {
			stream = math.Pow(0.5, float64(rank)/halfLife)
		}
		u[i] = alpha*relevanceOrZero(it) + (1-alpha)*stream
	}
	return u, nil
}

// relevanceOrZero is the item's relevance, 0 when absent.
func relevanceOrZero(it *Item) float64 {
	if it.Relevance == nil {
		return 0
	}
	return *it.Relevance
}

// withheld reports the items Synthesize withholds under o: confidential
// ones unless the destination is local.
func withheld(o *Options) func(*Item) bool {
	if o != nil && o.Destination == DestinationLocal {
		return nil
	}
	return func(it *Item) bool { return it.Confidential }
}

// optimise selects the candidates of p that maximise the total utility,
// given each item's utility. A group's utility is the sum of its members';
// a utility below 0 counts as 0 (such an item adds nothing, and is still
// taken when room is left over). Caps are honoured: each member counts its
// tokens against its own dimension's caps. The selection's utility is the
// sum over the selected candidates, in candidate order (at most
// math.MaxFloat64).
func optimise(p *Problem, utility []float64) (Selection, error) {
	n := len(p.Candidates)
	sizes := make([]int, n)
	values := make([]float64, n)
	var costs [][]int
	var caps []int
	if len(p.Caps) > 0 {
		caps = make([]int, len(p.Caps))
		for k, c := range p.Caps {
			caps[k] = c.Tokens
		}
		costs = make([][]int, n)
		flat := make([]int, n*len(caps))
		for c := range costs {
			costs[c] = flat[c*len(caps) : (c+1)*len(caps)]
		}
	}
	// Sums of huge utilities (above 10³⁰⁰) could overflow to +Inf, which
	// the solver would refuse: the solver then sees them scaled down.
	// Its grid is relative to the largest value, so scaling changes no
	// decision beyond rounding.
	scale := 1.0
	for _, m := range utility {
		if m > 1e300 {
			scale = 1e-300
		}
	}
	worth := make([]float64, n) // unscaled, for the report
	for c := range p.Candidates {
		cand := &p.Candidates[c]
		sizes[c] = cand.Tokens
		for _, m := range cand.Members {
			u := max(utility[m], 0)
			worth[c] += u
			values[c] += u * scale
			if costs != nil {
				for k := range p.Caps {
					if p.Caps[k].Dimension == p.Items[m].Dimension {
						costs[c][k] += p.Tokens[m]
					}
				}
			}
		}
	}
	maxCells := 0 // the solver's default
	if p.Options != nil {
		maxCells = p.Options.EffectiveDPCells()
	}
	prob := knapsackProblem{sizes: sizes, values: values, capacity: p.Capacity,
		costs: costs, caps: caps, maxCells: maxCells}
	if p.Context != nil {
		prob.done = p.Context.Done()
	}
	take, solver := prob.solve()
	if err := p.Err(); err != nil {
		return Selection{}, err
	}

	out := make([]Outcome, n)
	t := p.NewTracker()
	total := 0.0
	for c, tk := range take {
		if tk {
			t.Add(c)
			out[c] = Outcome{Kept: true}
			total += worth[c]
		}
	}
	total = min(total, math.MaxFloat64) // JSON has no +Inf
	for c, tk := range take {
		if !tk {
			o := t.Check(c)
			if o.Kept { // cannot happen: the solvers leave out only what no longer fits
				o = Outcome{Reason: ReasonDidNotFit, Needed: sizes[c], Left: t.Left()}
			}
			out[c] = o
		}
	}
	return Selection{Outcomes: out, Solver: solver, Utility: &total}, nil
}
