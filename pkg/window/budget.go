package window

import (
	"context"
	"slices"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// budgetState runs the selector over the retained history at every call.
type budgetState struct {
	sel    Selector
	budget int
	cfg    budgetStrategy
	// fast, when set, makes the engine's choice incrementally (see
	// greedyBudget); the engine runs when it cannot.
	fast *greedyBudget
	// buffers reused from call to call
	all  []Entry
	keep []bool
}

func (s *budgetState) Observe(int) {}

// Select offers the selector the system part, then the history from the
// reset on, and widens its choice to a valid window: the system part, the
// active turn's first retained message (the newest prompt), whole earlier
// turns (and whole runs of glued turns), and in the active turn each tool
// call with its results.
func (s *budgetState) Select(h *History) (Selection, error) {
	if s.fast != nil && !s.fast.irregular {
		s.fast.sync(h)
		if !s.fast.irregular {
			return Selection{Keep: s.fast.choose(h), Budget: s.budget}, nil
		}
	}
	if s.sel == nil {
		s.sel = engineSelector(s.cfg.Budget, s.cfg.Engine)
	}
	ns, off := len(h.sys), len(h.sys)-h.reset // all[i] is hist[i-off] past the system part
	// The buffer is reused from call to call: the history only grows, so
	// copying it into a fresh slice at every call would cost an
	// allocation the size of the whole history each time.
	all := append(s.all[:0], h.sys...)
	all = append(all, h.hist[h.reset:]...)
	s.all = all
	active := len(all)
	if h.open {
		active = off + h.RetainedStart(len(h.turns)-1)
	}
	chosen, err := s.sel(all, active)
	if err != nil {
		return Selection{}, err
	}
	keep := slices.Grow(s.keep[:0], len(all))[:len(all)]
	clear(keep)
	s.keep = keep
	for _, p := range chosen {
		if p >= 0 && p < len(all) {
			keep[p] = true
		}
	}
	for i := range ns {
		keep[i] = true
	}
	granular := false
	if h.open && active < len(all) {
		if a := len(h.turns) - 1; h.ValidStart(a) {
			granular = true
			keep[active] = true
			if h.resets > 0 && active-off == h.reset && active+1 < len(all) {
				// The turn's retained part opens with the harness's
				// summary: the message after it is the newest prompt.
				keep[active+1] = true
			}
			pairs(h, keep, off, active)
		} else {
			// The active turn is glued to older turns by a tool call in
			// one and its result in the other: the run is sent whole.
			for i := active; i < len(all); i++ {
				keep[i] = true
			}
		}
	}
	wholeTurns(h, keep, granular)
	out := make([]int, 0, len(all)-ns)
	for i := ns; i < len(all); i++ {
		if keep[i] {
			out = append(out, i-off)
		}
	}
	return Selection{Keep: out, Budget: s.budget}, nil
}

// pairs keeps, in the active turn from all-position active on, each tool
// call with every result to it when either is kept.
func pairs(h *History, keep []bool, off, active int) {
	for pass := range 2 {
		for i := active + 1; i < len(keep); i++ {
			p := i - off
			cp, ok := h.callOf(p)
			if !ok || cp+off < active {
				continue
			}
			if pass == 0 && keep[i] {
				keep[cp+off] = true
			}
			if pass == 1 && keep[cp+off] {
				keep[i] = true
			}
		}
	}
}

// wholeTurns widens a selection over the system part and the retained
// history (hist from the reset on, as budgetState lays it out) to whole
// retained turns, the active one apart when granular.
func wholeTurns(h *History, keep []bool, granular bool) {
	off := len(h.sys) - h.reset
	last := len(h.turns)
	if granular {
		last--
	}
	for j := h.resetTurn; j < last; {
		k := j + 1
		for k < len(h.turns) && !h.ValidStart(k) {
			k++
		}
		lo, hi := off+h.RetainedStart(j), off+h.turnStart(k)
		j = k
		if slices.Contains(keep[lo:hi], true) {
			for i := lo; i < hi; i++ {
				keep[i] = true
			}
		}
	}
}

// engineSelector is the budget strategy's usual [Selector]: at every call
// it runs [engine.Synthesize] over the history under budget with opts.
// Each history entry is one item sized by its counted tokens; the system
// part and the first message of the active turn (the newest prompt, and
// the one after it when the first is the harness's summary, with its
// results when it is a tool call) are pinned; the messages of each earlier turn share a group, so turns are
// kept or dropped whole; in the active turn each tool call and its results
// share a group, and other messages stand alone. Every item has the
// default priority 10, so the policy's tie rule decides: under
// lowest_priority and recency the newest messages that fit win, and a
// smaller older turn may still fill the room a larger one left.
//
// The selector reuses buffers between calls: give each conversation its
// own (the budget strategy does).
func engineSelector(budget engine.Budget, opts engine.Options) Selector {
	// The history only grows between calls (but for aborts and harness
	// resets), so the ids and group names, which depend only on the
	// message and its turn, are made once and the item slice is reused.
	var (
		ids    []string // by transcript message index
		groups []string // by turn
		calls  []string // by transcript message index
		items  []engine.Item
		sizes  []int
		group  = map[string]string{}
	)
	name := func(cache *[]string, i int, prefix string) string {
		for len(*cache) <= i {
			*cache = append(*cache, "")
		}
		if (*cache)[i] == "" {
			(*cache)[i] = prefix + strconv.Itoa(i)
		}
		return (*cache)[i]
	}
	return func(history []Entry, activeFrom int) ([]int, error) {
		items = slices.Grow(items[:0], len(history))[:len(history)]
		sizes = slices.Grow(sizes[:0], len(history))[:len(history)]
		clear(group)
		for i := range history {
			e := &history[i]
			sizes[i] = e.Tokens
			it := engine.Item{
				ID:         name(&ids, e.Message.Index, "m"),
				TokenCount: &sizes[i],
				Priority:   10,
				Role:       string(e.Message.Role),
				Line:       i + 1,
			}
			switch {
			case e.Turn == 0:
				it.Pinned = true
				it.Dimension = "system"
			case i == activeFrom, i == activeFrom+1 && history[activeFrom].Message.Meta:
				it.Pinned = true
				it.Dimension = "goal"
				if len(e.Message.ToolCalls) > 0 {
					// Its results are kept with it: a group with a
					// pinned member is kept whole.
					it.Group = name(&calls, e.Message.Index, "call ")
					for _, tc := range e.Message.ToolCalls {
						group[tc.ID] = it.Group
					}
				}
			case i > activeFrom:
				it.Dimension = "active"
				if len(e.Message.ToolCalls) > 0 {
					it.Group = name(&calls, e.Message.Index, "call ")
					for _, tc := range e.Message.ToolCalls {
						group[tc.ID] = it.Group
					}
				} else if g, ok := group[e.Message.ToolCallID]; ok && e.Message.ToolCallID != "" {
					it.Group = g
				}
			default:
				it.Dimension = "history"
				it.Group = name(&groups, e.Turn, "turn ")
			}
			items[i] = it
		}
		rep, err := engine.Synthesize(context.Background(), items, budget, opts)
		if err != nil {
			return nil, err
		}
		out := make([]int, 0, len(rep.Kept))
		for _, k := range rep.Kept {
			out = append(out, k.Index)
		}
		return out, nil
	}
}
