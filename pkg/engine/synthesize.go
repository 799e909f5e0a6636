package engine

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Reason says why an item was kept or dropped.
type Reason string

// Reasons for keeping an item.
const (
	ReasonPinned       Reason = "pinned"        // the item is pinned
	ReasonPriorityZero Reason = "priority_zero" // the item has priority 0
	ReasonInvariant    Reason = "invariant"     // the item's dimension is invariant
	ReasonSelected     Reason = "selected"      // the policy chose it
	ReasonGroup        Reason = "group"         // a member of its group is always kept
)

// Reasons for dropping an item.
const (
	ReasonDidNotFit    Reason = "did_not_fit"   // not enough room left
	ReasonDimensionCap Reason = "dimension_cap" // its dimension's cap was reached
	ReasonConfidential Reason = "confidential"  // withheld from a remote destination
	ReasonOverBudget   Reason = "over_budget"   // always-kept items took everything
)

// Destination is where a call's context goes: it decides whether
// confidential items may be sent.
type Destination string

// Destinations for [Options.Destination].
const (
	DestinationRemote Destination = "remote" // confidential items are withheld (the default)
	DestinationLocal  Destination = "local"  // confidential items may be sent
)

// Defaults of the optimising policies' settings.
const (
	DefaultDPCells  = 5_000_000
	DefaultAlpha    = 0.5
	DefaultSinks    = 2
	DefaultHalfLife = 8.0
)

// MaxDPCells is the largest [Options.DPCells] accepted. The exact
// knapsack's table takes at most [DPBytesPerCell] bytes per cell (one row of
// int64 values as wide as the capacity, plus one decision bit per cell and
// the rounding of each row's bits to whole 64-bit words), so this limit
// keeps the table within 768 MiB whatever the input. A larger limit is
// refused rather than left to the runtime, whose out-of-memory failure is a
// crash, not an error.
const MaxDPCells = 1 << 26

// DPBytesPerCell bounds the memory the exact knapsack's table takes per
// cell of [Options.DPCells]: 8 bytes of the value row when there is one
// candidate (the row is capacity+1 wide) plus, for the decision bits, at
// most 4 bytes per cell (rows at least two states wide, rounded up to a
// 64-bit word).
const DPBytesPerCell = 12

// CheckDPCells reports a cell limit above [MaxDPCells], naming the memory
// the table could take with it. Zero and negative values mean the default
// and pass.
func CheckDPCells(cells int) error {
	if cells <= MaxDPCells {
		return nil
	}
	return fmt.Errorf("%d cells would let the exact table take up to %s of memory; the most is %d (%s)",
		cells, formatBytes(float64(cells)*DPBytesPerCell), MaxDPCells, formatBytes(MaxDPCells*DPBytesPerCell))
}

// formatBytes writes n bytes in binary units, to three significant digits.
func formatBytes(n float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB"}
	u := 0
	for n >= 1024 && u < len(units)-1 {
		n /= 1024
		u++
	}
	return strconv.FormatFloat(n, 'g', 3, 64) + " " + units[u]
}

// Options tune [Synthesize]. The zero value is the default: the
// lowest_priority policy, the estimate counter, a remote destination.
type Options struct {
	// Policy names a registered [Policy]; "" is [DefaultPolicy].
	Policy string
	// Counter counts items without a token count; nil is
	// [tokenize.Estimate].
	Counter tokenize.Counter
	// Destination is DestinationRemote ("" too) or DestinationLocal.
	Destination Destination
	// Strict makes the over-budget case an [*OverBudgetError].
	Strict bool
	// Caps bound the tokens each dimension's selected candidates may take.
	Caps []Cap

	// DPCells bounds the exact knapsack's table (candidates × (capacity+1));
	// 0 is [DefaultDPCells], and more than [MaxDPCells] is an error. Used
	// by the optimising policies.
	DPCells int
	// Alpha weighs relevance against the stream score in duo_attention;
	// nil is [DefaultAlpha].
	Alpha *float64
	// Sinks is how many earliest items duo_attention scores 1; nil is
	// [DefaultSinks].
	Sinks *int
	// HalfLife is duo_attention's recency half-life in ranks; 0 is
	// [DefaultHalfLife].
	HalfLife float64
}

// EffectiveDPCells is DPCells with its default filled in.
func (o *Options) EffectiveDPCells() int {
	if o.DPCells <= 0 {
		return DefaultDPCells
	}
	return o.DPCells
}

// EffectiveAlpha is Alpha with its default filled in.
func (o *Options) EffectiveAlpha() float64 {
	if o.Alpha == nil {
		return DefaultAlpha
	}
	return *o.Alpha
}

// EffectiveSinks is Sinks with its default filled in.
func (o *Options) EffectiveSinks() int {
	if o.Sinks == nil {
		return DefaultSinks
	}
	return *o.Sinks
}

// EffectiveHalfLife is HalfLife with its default filled in.
func (o *Options) EffectiveHalfLife() float64 {
	if o.HalfLife <= 0 {
		return DefaultHalfLife
	}
	return o.HalfLife
}

// Report says what Synthesize kept and dropped. Its JSON form is the
// report harpe prints; field order is part of the contract.
type Report struct {
	Policy    string `json:"policy"`
	Tokenizer string `json:"tokenizer"`
	// Solver and Utility are set by the optimising policies.
	Solver  string       `json:"solver,omitempty"`
	Utility *float64     `json:"utility,omitempty"`
	Budget  BudgetReport `json:"budget"`
	// EffectiveBudget is the ceiling the selection was made against:
	// the available budget, grown into the safety margin when the
	// always-kept items need it (then exactly their total), and
	// available + safety margin when even that is not enough.
	EffectiveBudget int `json:"effective_budget"`
	// ConsumedTokens is the total size of the kept items.
	ConsumedTokens int `json:"consumed_tokens"`
	// RemainingTokens is EffectiveBudget − ConsumedTokens, never below 0.
	RemainingTokens int `json:"remaining_tokens"`
	// OverBudget is set when the always-kept items alone exceed
	// available + safety margin; OverflowTokens is by how much.
	OverBudget     bool `json:"over_budget"`
	OverflowTokens int  `json:"overflow_tokens"`
	// ReferenceTime is the newest item timestamp (UTC), nil when no item
	// has one.
	ReferenceTime *time.Time  `json:"reference_time"`
	Input         InputReport `json:"input"`
	// SavedTokens is Input.Tokens − ConsumedTokens.
	SavedTokens int `json:"saved_tokens"`
	// Cut lists the kept items whose rendered blocks were cut to their
	// cap ([Report.Cuts]); empty unless the caller renders blocks.
	Cut []Cut `json:"cut,omitempty"`
	// Kept and Dropped list every item once, each in input order.
	Kept    []Kept    `json:"kept"`
	Dropped []Dropped `json:"dropped"`
	// Skipped lists the lines the reader skipped; Synthesize leaves it
	// empty for the caller to fill.
	Skipped []Skipped `json:"skipped"`
}

// BudgetReport is the budget as the report shows it.
type BudgetReport struct {
	Total         int `json:"total"`
	ReserveOutput int `json:"reserve_output"`
	ReserveTools  int `json:"reserve_tools"`
	SafetyMargin  int `json:"safety_margin"`
	Available     int `json:"available"`
}

// InputReport counts what was read.
type InputReport struct {
	// Items is the number of items given, withheld ones included.
	Items int `json:"items"`
	// Tokens is the total size of the items that were counted: every item
	// but the withheld confidential ones, which are never counted.
	Tokens int `json:"tokens"`
}

// Kept is one kept item.
type Kept struct {
	ID       string `json:"id"`
	Tokens   int    `json:"tokens"`
	Priority int    `json:"priority"`
	Reason   Reason `json:"reason"`
	// Index is the item's position in the input.
	Index int `json:"-"`
}

// Dropped is one dropped item. Its JSON form leaves out what does not
// apply: a confidential item shows only its id and reason (it was never
// counted), and needed/left appear for did_not_fit and dimension_cap.
type Dropped struct {
	ID       string
	Tokens   int
	Priority int
	Reason   Reason
	// Needed and Left: see [Outcome]. For a group, Needed is the whole
	// group's need.
	Needed int
	Left   int
	// Index is the item's position in the input.
	Index int
}

// MarshalJSON writes the fields that apply to the reason, in the order
// id, tokens, priority, reason, needed, left.
func (d Dropped) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 96+len(d.ID))
	b = append(b, `{"id":`...)
	b = appendJSONString(b, d.ID)
	if d.Reason != ReasonConfidential {
		b = append(b, `,"tokens":`...)
		b = strconv.AppendInt(b, int64(d.Tokens), 10)
		b = append(b, `,"priority":`...)
		b = strconv.AppendInt(b, int64(d.Priority), 10)
	}
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, string(d.Reason))
	if d.Reason == ReasonDidNotFit || d.Reason == ReasonDimensionCap {
		b = append(b, `,"needed":`...)
		b = strconv.AppendInt(b, int64(d.Needed), 10)
		b = append(b, `,"left":`...)
		b = strconv.AppendInt(b, int64(d.Left), 10)
	}
	return append(b, '}'), nil
}

// OverBudgetError is returned in strict mode when the always-kept items
// alone exceed available + safety margin. The report is returned with it.
type OverBudgetError struct {
	AlwaysKept int // tokens of the always-kept items
	Ceiling    int // available + safety margin
	Overflow   int // AlwaysKept − Ceiling
}

func (e *OverBudgetError) Error() string {
	return fmt.Sprintf("over budget: always-kept items take %d tokens, %d over the ceiling of %d (available + safety margin)",
		e.AlwaysKept, e.Overflow, e.Ceiling)
}

// decision is the fate of one item while Synthesize works.
type decision struct {
	reason Reason
	kept   bool
	needed int
	left   int
}

// Synthesize chooses which items go into one call under budget. See the
// package documentation for the order of work. The report lists every item
// once, in Kept or Dropped, each list in input order.
//
// It returns an error for an invalid budget, option or item (negative
// priority or token count, a non-finite relevance or utility), and an
// [*OverBudgetError], together with the report, in strict mode.
//
// It stops once ctx is done and then returns ctx.Err() and no report. It
// looks while counting (inside the count of a long item, with the built-in
// counters) and between the steps of the work; policies see ctx in
// [Problem.Context], and the exact knapsack looks at it for every
// candidate it adds to its table.
func Synthesize(ctx context.Context, items []Item, budget Budget, opts Options) (*Report, error) {
	set, err := resolveSettings(budget, opts)
	if err != nil {
		return nil, err
	}
	n := len(items)
	// One allocation for the per-item numbers: sizes, candidate numbers
	// and the candidates' member lists.
	scratch := make([]int, 3*n)
	tokens, cand, members := scratch[:n:n], scratch[n:2*n:2*n], scratch[2*n:2*n]
	dec := make([]decision, n)
	// The report, the problem and the options the policy sees share one
	// allocation.
	st := &struct {
		rep  Report
		prob Problem
		opts Options
	}{opts: opts}
	rep := &st.rep
	*rep = Report{
		Policy:    set.policyName,
		Tokenizer: set.counter.Name(),
		Budget: BudgetReport{
			Total: budget.Total, ReserveOutput: budget.ReserveOutput,
			ReserveTools: budget.ReserveTools, SafetyMargin: budget.SafetyMargin,
			Available: set.available,
		},
		Skipped: []Skipped{},
	}
	rep.Input.Items = n

	hasGroups, err := countItems(ctx, items, set, tokens, dec, rep)
	if err != nil {
		return nil, err
	}
	cands, alwaysKept := buildCandidates(items, tokens, dec, cand, members, hasGroups)

	// (4) the ceiling, then the policy.
	ceiling := set.available + budget.SafetyMargin
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	prob := &st.prob
	*prob = Problem{Items: items, Tokens: tokens, Candidates: cands, Caps: set.caps, Options: &st.opts, Context: ctx}
	outcomes, err := decide(set, prob, rep, alwaysKept, ceiling)
	if err != nil {
		return nil, err
	}
	consumed := alwaysKept
	for c, o := range outcomes {
		for _, m := range cands[c].Members {
			if o.Kept {
				dec[m] = decision{reason: ReasonSelected, kept: true}
			} else {
				dec[m] = decision{reason: o.Reason, needed: o.Needed, left: o.Left}
			}
		}
		if o.Kept {
			consumed += cands[c].Tokens
		}
	}
	fillReport(rep, items, tokens, dec, consumed)
	if rep.OverBudget && opts.Strict {
		return rep, &OverBudgetError{AlwaysKept: alwaysKept, Ceiling: ceiling, Overflow: rep.OverflowTokens}
	}
	return rep, nil
}

// settings are a synthesis's options checked and resolved.
type settings struct {
	policy     Policy
	policyName string
	remote     bool // the destination is remote: confidential items are withheld
	counter    tokenize.Counter
	available  int
	caps       []ResolvedCap
}

// resolveSettings checks the budget and options and resolves the policy,
// the destination, the counter and the caps.
func resolveSettings(budget Budget, opts Options) (settings, error) {
	var set settings
	if err := budget.Validate(); err != nil {
		return set, err
	}
	policy, err := LookupPolicy(opts.Policy)
	if err != nil {
		return set, err
	}
	if err := CheckDPCells(opts.DPCells); err != nil {
		return set, fmt.Errorf("dp cells: %w", err)
	}
	set.policy, set.policyName = policy, opts.Policy
	if set.policyName == "" {
		set.policyName = DefaultPolicy
	}
	switch opts.Destination {
	case "", DestinationRemote:
		set.remote = true
	case DestinationLocal:
	default:
		return set, fmt.Errorf("unknown destination %q; valid: remote, local", opts.Destination)
	}
	set.counter = opts.Counter
	if set.counter == nil {
		set.counter = tokenize.Estimate
	}
	set.available = budget.Available()
	if len(opts.Caps) > 0 {
		set.caps = make([]ResolvedCap, len(opts.Caps))
		for k, c := range opts.Caps {
			set.caps[k] = ResolvedCap{Dimension: c.Dimension, Tokens: c.Limit.Of(set.available)}
		}
	}
	return set, nil
}

// countItems (1) withholds confidential items, (2) counts the others into
// tokens and rep.Input.Tokens, and sets rep.ReferenceTime to the newest
// timestamp. It reports whether any item has a group.
func countItems(ctx context.Context, items []Item, set settings, tokens []int, dec []decision, rep *Report) (hasGroups bool, err error) {
	var newest *time.Time
	counted := preCount(ctx, items, set, tokens)
	for i := range items {
		it := &items[i]
		if err := checkItem(it, i); err != nil {
			return false, err
		}
		if it.Timestamp != nil && (newest == nil || it.Timestamp.After(*newest)) {
			newest = it.Timestamp
		}
		if it.Confidential && set.remote {
			dec[i] = decision{reason: ReasonConfidential}
			continue
		}
		if counted == nil || !counted[i] {
			if tokens[i], err = ItemTokens(ctx, set.counter, it); err != nil {
				return false, err
			}
		}
		// Every other total (always-kept, candidates, consumed) is a part
		// of this one, so checking this sum checks them all.
		if rep.Input.Tokens, err = AddTokens(rep.Input.Tokens, tokens[i], "the items' token counts"); err != nil {
			return false, fmt.Errorf("%s: %w", itemPlace(it, i), err)
		}
		if it.Group != "" {
			hasGroups = true
		}
	}
	if newest != nil {
		if newest.Location() == time.UTC {
			rep.ReferenceTime = newest
		} else {
			t := newest.UTC()
			rep.ReferenceTime = &t
		}
	}
	return hasGroups, nil
}

// buildCandidates (3) decides the always-kept items, and every member of a
// group that has one, and makes the candidates the policy chooses from:
// cand maps each undecided item to its candidate (groups share one), and
// members (empty, with room for every item) holds the candidates' members.
// It returns the candidates and the always-kept items' tokens.
func buildCandidates(items []Item, tokens []int, dec []decision, cand, members []int, hasGroups bool) ([]Candidate, int) {
	var groupCand map[string]int
	if hasGroups {
		groupCand = make(map[string]int)
		for i := range items {
			if dec[i].reason == "" && items[i].alwaysKeptReason() != "" && items[i].Group != "" {
				groupCand[items[i].Group] = -1 // a group kept whole
			}
		}
	}
	alwaysKept := 0
	nc := 0
	for i := range items {
		if dec[i].reason != "" {
			cand[i] = -1
			continue
		}
		it := &items[i]
		r := it.alwaysKeptReason()
		if r == "" && it.Group != "" && groupCand[it.Group] == -1 {
			r = ReasonGroup
		}
		if r != "" {
			dec[i] = decision{reason: r, kept: true}
			alwaysKept += tokens[i]
			cand[i] = -1
			continue
		}
		if it.Group != "" {
			if c, ok := groupCand[it.Group]; ok {
				cand[i] = c
				continue
			}
			groupCand[it.Group] = nc
		}
		cand[i] = nc
		nc++
	}
	cands := make([]Candidate, nc)
	if !hasGroups {
		for i, c := range cand {
			if c >= 0 {
				members = append(members, i)
				cands[c] = Candidate{Members: members[len(members)-1 : len(members) : len(members)], Tokens: tokens[i]}
			}
		}
		return cands, alwaysKept
	}
	// Lay the members out candidate by candidate in one array.
	start := make([]int, nc+1)
	for _, c := range cand {
		if c >= 0 {
			start[c+1]++
		}
	}
	for c := range nc {
		start[c+1] += start[c]
	}
	members = members[:start[nc]]
	fill := slices.Clone(start[:nc])
	for i, c := range cand {
		if c >= 0 {
			members[fill[c]] = i
			fill[c]++
			cands[c].Tokens += tokens[i]
			cands[c].Group = items[i].Group
		}
	}
	for c := range nc {
		cands[c].Members = members[start[c]:start[c+1]:start[c+1]]
	}
	return cands, alwaysKept
}

// decide (4) sets the effective budget and returns one outcome per
// candidate: the policy's when the always-kept items fit the available
// budget, else every candidate left out (did not fit when the safety margin
// holds them, over budget when even it does not).
func decide(set settings, prob *Problem, rep *Report, alwaysKept, ceiling int) ([]Outcome, error) {
	nc := len(prob.Candidates)
	var outcomes []Outcome
	switch {
	case alwaysKept <= set.available:
		rep.EffectiveBudget = set.available
		prob.Capacity = set.available - alwaysKept
		if nc > 0 {
			sel, err := set.policy.Select(prob)
			if err == nil {
				err = prob.Context.Err()
			}
			if err != nil {
				return nil, err
			}
			if len(sel.Outcomes) != nc {
				return nil, fmt.Errorf("policy %s decided %d of %d candidates", set.policyName, len(sel.Outcomes), nc)
			}
			outcomes = sel.Outcomes
			rep.Solver = sel.Solver
			rep.Utility = sel.Utility
		}
	case alwaysKept <= ceiling:
		// Dynamic expansion: the ceiling grows just enough for the
		// always-kept items, and nothing else is added.
		rep.EffectiveBudget = alwaysKept
		outcomes = make([]Outcome, nc)
		for c := range outcomes {
			outcomes[c] = Outcome{Reason: ReasonDidNotFit, Needed: prob.Candidates[c].Tokens}
		}
	default:
		rep.EffectiveBudget = ceiling
		rep.OverBudget = true
		rep.OverflowTokens = alwaysKept - ceiling
		outcomes = make([]Outcome, nc)
		for c := range outcomes {
			outcomes[c] = Outcome{Reason: ReasonOverBudget}
		}
	}
	return outcomes, nil
}

// fillReport (5) writes the totals and the kept and dropped items, in
// input order.
func fillReport(rep *Report, items []Item, tokens []int, dec []decision, consumed int) {
	rep.ConsumedTokens = consumed
	rep.RemainingTokens = max(rep.EffectiveBudget-consumed, 0)
	rep.SavedTokens = rep.Input.Tokens - consumed
	nk := 0
	for i := range dec {
		if dec[i].kept {
			nk++
		}
	}
	rep.Kept = make([]Kept, 0, nk)
	rep.Dropped = make([]Dropped, 0, len(dec)-nk)
	for i := range dec {
		it := &items[i]
		d := &dec[i]
		if d.kept {
			rep.Kept = append(rep.Kept, Kept{ID: it.ID, Tokens: tokens[i], Priority: it.Priority, Reason: d.reason, Index: i})
		} else {
			rep.Dropped = append(rep.Dropped, Dropped{ID: it.ID, Tokens: tokens[i], Priority: it.Priority,
				Reason: d.reason, Needed: d.needed, Left: d.left, Index: i})
		}
	}
}

// checkItem rejects what the reader would have rejected, for items built
// in code.
func checkItem(it *Item, i int) error {
	switch {
	case it.Priority < 0:
		return fmt.Errorf("item %d (%q): priority must be ≥ 0, got %d", i, it.ID, it.Priority)
	case it.TokenCount != nil && *it.TokenCount < 0:
		return fmt.Errorf("item %d (%q): token count must be ≥ 0, got %d", i, it.ID, *it.TokenCount)
	case it.Relevance != nil && (math.IsNaN(*it.Relevance) || math.IsInf(*it.Relevance, 0)):
		return fmt.Errorf("item %d (%q): relevance must be finite", i, it.ID)
	case it.Utility != nil && (math.IsNaN(*it.Utility) || math.IsInf(*it.Utility, 0) || *it.Utility < 0):
		return fmt.Errorf("item %d (%q): utility must be finite and ≥ 0", i, it.ID)
	}
	return nil
}

// itemPlace names an item in a message: its input file and line when it
// has them, else its index, and its id.
func itemPlace(it *Item, i int) string {
	if it.Line > 0 && it.File != "" {
		return fmt.Sprintf("%s:%d (id %q)", it.File, it.Line, it.ID)
	}
	if it.Line > 0 {
		return fmt.Sprintf("line %d (id %q)", it.Line, it.ID)
	}
	return fmt.Sprintf("item %d (%q)", i, it.ID)
}
