package window

import (
	"slices"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// EngineSelector is the [Budget] strategy's usual [Selector]: at every call
// it runs [engine.Synthesize] over the history under budget with opts.
// Each history entry is one item sized by its counted tokens; the system
// part and the active turn are pinned; the messages of each earlier turn
// share a group, so turns are kept or dropped whole (a tool call never
// loses its result). Every item has the default priority 10, so the
// policy's tie rule decides: under lowest_priority and recency the newest
// turns that fit win, and a smaller older turn may still fill the room a
// larger one left.
//
// Each call costs time in proportion to the whole history, so a replay
// under budget grows with the square of its length.
func EngineSelector(budget engine.Budget, opts engine.Options) Selector {
	// The history only grows between calls (but for aborts and harness
	// resets), so the ids and group names, which depend only on the
	// message and its turn, are made once and the item slice is reused.
	var (
		ids    []string // by transcript message index
		groups []string // by turn
		items  []engine.Item
		sizes  []int
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
		for i := range history {
			e := &history[i]
			sizes[i] = e.Tokens
			it := engine.Item{
				ID:         name(&ids, e.Message.Index, "m"),
				TokenCount: &sizes[i],
				Priority:   10,
				Role:       e.Message.Role,
				Line:       i + 1,
			}
			switch {
			case e.Turn == 0:
				it.Pinned = true
				it.Dimension = "system"
			case i >= activeFrom:
				it.Pinned = true
				it.Dimension = "goal"
			default:
				it.Dimension = "history"
				it.Group = name(&groups, e.Turn, "turn ")
			}
			items[i] = it
		}
		rep, err := engine.Synthesize(items, budget, opts)
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
