package window

import (
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
	return func(history []Entry, activeFrom int) ([]int, error) {
		items := make([]engine.Item, len(history))
		sizes := make([]int, len(history))
		for i, e := range history {
			sizes[i] = e.Tokens
			it := engine.Item{
				ID:         strconv.Itoa(i),
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
				it.Group = "turn " + strconv.Itoa(e.Turn)
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
