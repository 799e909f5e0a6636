package window

import (
	"math"
	"slices"
)

// The cheapest plan under a window: where clearing every result it may
// clear does not bring a call within the limit, the plan also drops the
// oldest whole turns of the conversation (each with its tool calls and
// their results, as windowed drops them), as few as the call needs, and
// keeps them dropped: the drops are the least the limit forces, the
// clears on top of them the cheapest (the dynamic programme of
// [session.solve] over the windows with those drops). A call that no
// drop can fit (its system part, unseen overhead and active turn alone
// are over the limit, with every result it may clear cleared) forces no
// drop and is reported with its excess ([PlanUnfit]).

// PlanUnfit is a call no schedule of the plan fits within the window
// limit: even with every older turn dropped and every result it may
// clear cleared, its window holds Tokens, Over more than the limit.
type PlanUnfit struct {
	Call   int `json:"call"`
	Tokens int `json:"tokens"`
	Over   int `json:"over"`
}

// turnStarts records, for call i's window, the transcript indices where
// a window may start at an older turn than the active one: each
// retained turn's start where a window may start, oldest first, the
// active turn's (or its glued run's) start last.
func turnStarts(c *conversation) []int {
	h := &c.h
	act := h.ActiveTurn()
	var out []int
	for j := h.resetTurn + 1; j <= act && j < len(h.turns); j++ {
		if !h.ValidStart(j) {
			continue
		}
		if p := h.RetainedStart(j); p < h.Len() {
			out = append(out, h.At(p).Message.Index)
		}
	}
	return out
}

// fitFrom returns the counted tokens of call i's window when its
// conversation starts at transcript index x and every result it may
// clear is cleared.
func (s *session) fitFrom(i, x int) int {
	c := &s.calls[i]
	x = max(x, c.start)
	sv := s.saved(i, c.end, c.hi) - s.saved(i, x, c.hi)
	return c.sys + s.convSum(i, x, c.end) - sv + c.overhead
}

// dropSchedule returns, by call, the first transcript index of the
// conversation the plan keeps (turns before it dropped), the least that
// brings every call that can fit within the limit and never lower than
// the call before's; nil when no call needs a drop. unfit lists the
// calls no drop fits.
//
// depth says how deep a forced drop goes: to the first turn start that
// brings the call within depth × the limit (1: as few turns as fit; 0:
// every older turn), else within the limit. Dropping more at once
// rewrites the cache once where dropping the least would rewrite it at
// every call that grows past the limit again.
func (s *session) dropSchedule(depth float64) (from []int, unfit []PlanUnfit) {
	if s.limit <= 0 {
		return nil, nil
	}
	need := false
	x := 0
	from = make([]int, len(s.calls))
	goal := int(depth * float64(s.limit))
	for i := range s.calls {
		c := &s.calls[i]
		if s.fitFrom(i, x) > s.limit {
			found := false
			for _, t := range c.turns {
				if t > x && s.fitFrom(i, t) <= s.limit {
					x, found, need = t, true, true
					for _, u := range c.turns {
						if u > t && s.fitFrom(i, x) > goal {
							x = u
						}
					}
					break
				}
			}
			if !found {
				last := x
				if n := len(c.turns); n > 0 {
					last = max(last, c.turns[n-1])
				}
				tok := s.fitFrom(i, last)
				unfit = append(unfit, PlanUnfit{Call: i + 1, Tokens: tok, Over: tok - s.limit})
			}
		}
		from[i] = x
	}
	if !need {
		return nil, unfit
	}
	return from, unfit
}

// dropPlan is the plan's base under a window: full, less the older turns
// its schedule drops at each call.
type dropPlan struct{ from []int }

func (dropPlan) Name() string   { return "full" }
func (dropPlan) Baseline() bool { return false }
func (d dropPlan) Start() State { return &dropState{from: d.from} }

type dropState struct {
	from []int
	n    int // the calls observed
}

func (s *dropState) Observe(int) { s.n++ }

func (s *dropState) Select(h *History) (Selection, error) {
	lo := h.reset
	if s.n < len(s.from) {
		x := s.from[s.n]
		p, _ := slices.BinarySearchFunc(h.hist[lo:], x, func(e Entry, x int) int { return e.Message.Index - x })
		lo = min(lo+p, h.Len())
	}
	return Selection{Spans: []Span{{lo, h.Len()}}}, nil
}

// withDrops adds to the plan's steps the calls where its drops begin:
// DropBefore, the first transcript index the conversation keeps from
// that call on.
func withDrops(steps []PlanStep, from []int) []PlanStep {
	prev := 0
	for i, x := range from {
		if x <= prev {
			continue
		}
		prev = x
		j, ok := slices.BinarySearchFunc(steps, i+1, func(st PlanStep, c int) int { return st.Call - c })
		if !ok {
			steps = slices.Insert(steps, j, PlanStep{Call: i + 1, Cleared: []int{}})
		}
		steps[j].DropBefore = x
	}
	return steps
}

// maxDropRounds bounds the rounds of [session.dropMore].
const maxDropRounds = 4

// dropMore moves, for every call of measured (the session replayed with
// the drops from) still over the limit with every result it may clear
// cleared, its drop to the next turn start it has, and every later
// call's with it; it reports whether any moved.
func (s *session) dropMore(measured *session, from []int) bool {
	moved := false
	x := 0
	for i := range from {
		from[i] = max(from[i], x)
		if _, cnt := measured.window(i, measured.calls[i].hi); cnt > s.limit {
			for _, t := range s.calls[i].turns {
				if t > from[i] {
					from[i], moved = t, true
					break
				}
			}
		}
		x = from[i]
	}
	return moved
}

// overLimit lists the calls whose windows stay over the limit with every
// result they may clear cleared.
func (s *session) overLimit() []PlanUnfit {
	var out []PlanUnfit
	for i := range s.calls {
		if _, cnt := s.window(i, s.calls[i].hi); cnt > s.limit {
			out = append(out, PlanUnfit{Call: i + 1, Tokens: cnt, Over: cnt - s.limit})
		}
	}
	return out
}

// maxDropStates bounds the programme of [session.dropScheduleDP]: calls ×
// the transcript indices a window may start at, the way back it keeps.
const maxDropStates = 1 << 20

// dropScheduleDP returns the drop schedule (as [session.dropSchedule]
// does) that the dynamic programme finds cheapest among all schedules
// that move the start to a turn start a call has (every call's, within
// maxDropStates; past it, the calls over the limit); nil when no call
// needs a drop or the programme would be too large.
//
// Each call's cost is estimated from its window without clears: a call
// that keeps the previous call's start, its cache warm, reads the
// previous window and writes the rest; a call that moves the start reads
// only the front and system part (when warm) and writes the rest; a cold
// call writes it all. The clears the plan chooses on top of the drops,
// and the exact cost, come after ([replayer.planWith]): the schedule is a
// candidate, priced like the others.
func (s *session) dropScheduleDP() []int {
	n := len(s.calls)
	if s.limit <= 0 || n == 0 {
		return nil
	}
	xs := []int{0}
	for i := range s.calls {
		xs = append(xs, s.calls[i].turns...)
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	m := len(xs)
	if n*m > maxDropStates {
		return nil
	}
	inf := math.Inf(1)
	dp, nd := make([]float64, m), make([]float64, m)
	for j := range dp {
		dp[j] = inf
	}
	dp[0] = 0
	back := make([]int32, n*m) // the state before call i of the best way to j
	within := make([]bool, m)  // call i's window from xs[j] fits the limit
	tokens := func(i, x int) int {
		c := &s.calls[i]
		return c.front + c.sys + s.convSum(i, max(x, c.start), c.end)
	}
	price := func(i, x, read int) float64 {
		c := &s.calls[i]
		return c.rule.PromptUSD(read, tokens(i, x), c.minCache, c.pi, c.pr, c.pw)
	}
	need := false
	for i := range s.calls {
		c := &s.calls[i]
		warm := i > 0 && c.rule.LiveAt(s.ttl, s.calls[i-1].at, c.at) && s.calls[i-1].model == c.model
		fits := false // some start fits call i: the others are ruled out
		for j, x := range xs {
			within[j] = s.fitFrom(i, x) <= s.limit
			fits = fits || within[j]
		}
		bestPrev, bestJ := inf, -1 // the least dp over the states before j
		t := 0                     // c.turns[t] is the first turn start ≥ x (both ascend)
		for j, x := range xs {
			for t < len(c.turns) && c.turns[t] < x {
				t++
			}
			nd[j] = inf
			row := back[i*m : (i+1)*m]
			if dp[j] < inf {
				read := 0
				if warm {
					read = tokens(i-1, x)
				}
				nd[j], row[j] = dp[j]+price(i, x, read), int32(j)
			}
			if bestJ >= 0 && t < len(c.turns) && c.turns[t] == x {
				read := 0
				if warm {
					read = c.front + c.sys
				}
				if v := bestPrev + price(i, x, read); v < nd[j] {
					nd[j], row[j] = v, int32(bestJ)
				}
			}
			if dp[j] < bestPrev {
				bestPrev, bestJ = dp[j], j
			}
			if fits && !within[j] {
				nd[j] = inf
			}
		}
		dp, nd = nd, dp
	}
	j := 0
	for k := range dp {
		if dp[k] < dp[j] {
			j = k
		}
	}
	if dp[j] == inf {
		return nil
	}
	from := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		from[i] = xs[j]
		need = need || xs[j] > 0
		j = int(back[i*m+j])
	}
	if !need {
		return nil
	}
	return from
}

// maxJointDrops and maxJointCalls bound [session.everyDropSchedule]: a
// session with more drop schedules than maxJointDrops, or more than
// maxJointCalls calls in all its schedules' replays, has its drops chosen
// by the least the limit forces and by [session.dropScheduleDP], the
// clears on top of each.
const (
	maxJointDrops = 256
	maxJointCalls = 4096
)

// everyDropSchedule returns every drop schedule of the session (at each
// call the conversation starts at 0 or at a turn start the call has, no
// earlier than the call before's), the schedule that drops nothing
// first, as nil; nil when there are more than maxJointDrops of them.
// Each is planned with its cheapest clears and priced exactly: on a
// session this small the plan is the cheapest pair of drops and clears,
// not the cheapest clears on drops fixed first.
func (s *session) everyDropSchedule() [][]int {
	n := len(s.calls)
	starts := make([][]int, n)
	for i := range s.calls {
		starts[i] = append([]int{0}, s.calls[i].turns...)
	}
	// count[i][k]: the schedules of calls i… when call i starts at
	// starts[i][k], capped past the bound.
	count := make([][]int, n)
	for i := n - 1; i >= 0; i-- {
		count[i] = make([]int, len(starts[i]))
		for k, x := range starts[i] {
			if i == n-1 {
				count[i][k] = 1
				continue
			}
			for k2, y := range starts[i+1] {
				if y >= x {
					count[i][k] = min(count[i][k]+count[i+1][k2], maxJointDrops+1)
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	total := 0
	for _, c := range count[0] {
		total = min(total+c, maxJointDrops+1)
	}
	if total > maxJointDrops || total*n > maxJointCalls {
		return nil
	}
	var out [][]int
	from := make([]int, n)
	var walk func(i, prev int)
	walk = func(i, prev int) {
		if i == n {
			if from[n-1] == 0 {
				out = append(out, nil)
			} else {
				out = append(out, slices.Clone(from))
			}
			return
		}
		for k, x := range starts[i] {
			// Only where the schedule can be completed: a path that
			// dies at a later call (its starts all below x, as after
			// a compaction) would make the walk exponential.
			if x >= prev && count[i][k] > 0 {
				from[i] = x
				walk(i+1, x)
			}
		}
	}
	walk(0, 0)
	return out
}
