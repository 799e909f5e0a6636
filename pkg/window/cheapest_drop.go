package window

import (
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
