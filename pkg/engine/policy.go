package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Policy chooses which candidates fill the room the always-kept items leave.
//
// Select gets the problem and returns one [Outcome] per candidate, in the
// order of [Problem.Candidates]. A policy must keep the selection within
// [Problem.Capacity] and the caps; a [Tracker] does that bookkeeping. It must
// be deterministic: the same problem gives the same selection.
type Policy interface {
	Select(p *Problem) (Selection, error)
}

// PolicyFunc adapts a function to [Policy].
type PolicyFunc func(p *Problem) (Selection, error)

// Select calls f(p).
func (f PolicyFunc) Select(p *Problem) (Selection, error) { return f(p) }

// Selection is what a policy decided.
type Selection struct {
	// Outcomes has one entry per candidate, in candidate order.
	Outcomes []Outcome
	// Solver names the algorithm that ran when a policy has several
	// ("exact_dp", "density_greedy"); empty for the greedy policies.
	Solver string
	// Utility is the total utility kept, for policies that maximise one.
	Utility *float64
}

// Outcome is the decision about one candidate.
type Outcome struct {
	// Kept is true when the candidate was selected.
	Kept bool
	// Reason says why a candidate was dropped: [ReasonDidNotFit] or
	// [ReasonDimensionCap]. Empty when kept.
	Reason Reason
	// Needed is the tokens the candidate needed: its size for did_not_fit,
	// its tokens in the capped dimension for dimension_cap.
	Needed int
	// Left is the tokens that were left when it was considered: of the
	// capacity for did_not_fit, of the dimension's cap for dimension_cap.
	Left int
}

// Candidate is one unit of selection: a single item, or every item of one
// group that is not always kept.
type Candidate struct {
	// Members are indexes into [Problem.Items], in input order.
	Members []int
	// Tokens is the members' summed size.
	Tokens int
	// Group is the members' group, empty for a lone item.
	Group string
}

// Problem is what a policy works on.
type Problem struct {
	// Items are all items given to Synthesize; candidates refer to them by
	// index, and an item's index is its input position.
	Items []Item
	// Tokens holds each item's size (0 for withheld items).
	Tokens []int
	// Candidates are the items and groups still to decide, in input order
	// of their first member.
	Candidates []Candidate
	// Capacity is the room left after the always-kept items.
	Capacity int
	// Caps are the per-dimension limits, resolved to tokens.
	Caps []ResolvedCap
	// Options are the options Synthesize was called with, defaults not
	// filled in; use the Effective* methods.
	Options *Options
	// Context is the one [Synthesize] was given (nil from code
	// that builds a Problem itself). A policy with a long loop should stop
	// once [Problem.Err] is not nil and return that error.
	Context context.Context
}

// Err is the error of p.Context once it is done, else nil (also when there
// is no context).
func (p *Problem) Err() error {
	if p.Context == nil {
		return nil
	}
	return p.Context.Err()
}

// ResolvedCap is a [Cap] turned into tokens against the available budget.
type ResolvedCap struct {
	Dimension string
	Tokens    int
}

// Newer reports whether item i is newer than item j: a larger
// (timestamp, position) pair, an item without a timestamp being older than
// any item with one.
func (p *Problem) Newer(i, j int) bool {
	return newer(p.Items, i, j)
}

func newer(items []Item, i, j int) bool {
	ti, tj := items[i].Timestamp, items[j].Timestamp
	switch {
	case ti != nil && tj != nil:
		if !ti.Equal(*tj) {
			return ti.After(*tj)
		}
	case ti != nil:
		return true
	case tj != nil:
		return false
	}
	return i > j
}

// Tracker keeps the room left, in total and per capped dimension, while a
// policy adds candidates.
type Tracker struct {
	p       *Problem
	left    int
	capLeft []int // parallel to p.Caps
	need    []int // scratch, parallel to p.Caps
}

// NewTracker starts with the whole capacity and every cap free.
func (p *Problem) NewTracker() *Tracker {
	t := &Tracker{p: p, left: p.Capacity}
	if len(p.Caps) > 0 {
		t.capLeft = make([]int, len(p.Caps))
		t.need = make([]int, len(p.Caps))
		for k, c := range p.Caps {
			t.capLeft[k] = c.Tokens
		}
	}
	return t
}

// Left is the capacity still free.
func (t *Tracker) Left() int { return t.left }

// Check says what adding candidate c would give, without adding it: kept,
// or dropped as did_not_fit (checked first) or dimension_cap.
func (t *Tracker) Check(c int) Outcome {
	cand := &t.p.Candidates[c]
	if cand.Tokens > t.left {
		return Outcome{Reason: ReasonDidNotFit, Needed: cand.Tokens, Left: t.left}
	}
	if len(t.capLeft) > 0 {
		clear(t.need)
		for _, m := range cand.Members {
			d := t.p.Items[m].Dimension
			for k := range t.p.Caps {
				if t.p.Caps[k].Dimension == d {
					t.need[k] += t.p.Tokens[m]
				}
			}
		}
		for k, n := range t.need {
			if n > t.capLeft[k] {
				return Outcome{Reason: ReasonDimensionCap, Needed: n, Left: t.capLeft[k]}
			}
		}
	}
	return Outcome{Kept: true}
}

// Try adds candidate c when it fits the capacity and every cap, and says
// what happened.
func (t *Tracker) Try(c int) Outcome {
	o := t.Check(c)
	if o.Kept {
		t.Add(c)
	}
	return o
}

// Add takes candidate c without checking; a policy that solved the
// problem its own way uses it to keep the books.
func (t *Tracker) Add(c int) {
	cand := &t.p.Candidates[c]
	t.left -= cand.Tokens
	if len(t.capLeft) > 0 {
		for _, m := range cand.Members {
			d := t.p.Items[m].Dimension
			for k := range t.p.Caps {
				if t.p.Caps[k].Dimension == d {
					t.capLeft[k] -= t.p.Tokens[m]
				}
			}
		}
	}
}

// The names of the built-in policies.
const (
	PolicyLowestPriority = "lowest_priority"
	PolicyRecency        = "recency"
	PolicyInputOrder     = "input_order"
	PolicyRelevance      = "relevance"
)

// DefaultPolicy is the policy used when none is named.
const DefaultPolicy = PolicyLowestPriority

// policyOrder is the order PolicyNames lists the known names in; other
// registered names follow in alphabetical order.
var policyOrder = []string{
	PolicyLowestPriority, PolicyRecency, PolicyInputOrder, PolicyRelevance,
	"knapsack", "duo_attention",
}

var registry = struct {
	sync.RWMutex
	m map[string]Policy
}{m: map[string]Policy{}}

// Register makes a policy available under name to [Synthesize] and
// [LookupPolicy]. It panics when the name is empty or taken, so call it
// from an init function.
func Register(name string, p Policy) {
	registry.Lock()
	defer registry.Unlock()
	if name == "" || p == nil {
		panic("engine: Register with an empty name or nil policy")
	}
	if _, dup := registry.m[name]; dup {
		panic("engine: policy " + name + " registered twice")
	}
	registry.m[name] = p
}

// PolicyNames lists the registered policies: the built-in ones in the
// order of the specification, then the others alphabetically.
func PolicyNames() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.m))
	for _, n := range policyOrder {
		if _, ok := registry.m[n]; ok {
			names = append(names, n)
		}
	}
	var rest []string
	for n := range registry.m {
		if !slices.Contains(policyOrder, n) {
			rest = append(rest, n)
		}
	}
	slices.Sort(rest)
	return append(names, rest...)
}

// LookupPolicy returns the policy registered under name ("" gives the
// default). An unknown name gives an error listing the valid ones.
func LookupPolicy(name string) (Policy, error) {
	if name == "" {
		name = DefaultPolicy
	}
	registry.RLock()
	p, ok := registry.m[name]
	registry.RUnlock()
	if !ok {
		return nil, fmt.Errorf("unknown policy %q; valid: %s", name, strings.Join(PolicyNames(), ", "))
	}
	return p, nil
}
