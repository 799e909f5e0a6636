package sessions

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/window"
)

// Error is the failure of one session of [Replay].
type Error struct {
	// Index is the session's place in the sequence.
	Index int
	// File is the session's input.
	File string
	Err  error
}

func (e *Error) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("transcript %d: %v", e.Index, e.Err)
}

// Unwrap returns the replay's error.
func (e *Error) Unwrap() error { return e.Err }

// SessionTotals is one session's totals under one strategy, a row of
// [Report].
type SessionTotals struct {
	// File names the input the session was read from.
	File string `json:"file"`
	// Conversation names the session when the file holds several.
	Conversation string `json:"conversation,omitempty"`
	Strategy     string `json:"strategy"`
	window.Totals
}

// StrategyTotals is one strategy's totals over every session.
type StrategyTotals struct {
	Strategy string `json:"strategy"`
	// Sessions is the number of sessions summed.
	Sessions int `json:"sessions"`
	window.Totals
}

// Report sums the replays of several sessions: one row per
// session and strategy, in the order added, and a grand total per
// strategy, in the order the strategies first appear.
type Report struct {
	Sessions []SessionTotals  `json:"sessions"`
	Totals   []StrategyTotals `json:"totals"`
}

// NewReport returns an empty report (empty lists, not null).
func NewReport() *Report {
	return &Report{Sessions: []SessionTotals{}, Totals: []StrategyTotals{}}
}

// Add adds one session's results. The grand totals are checked sums: a
// token total that does not fit an int is a [*engine.TokenOverflowError]
// and the report is left as it was.
func (r *Report) Add(file, conversation string, results []window.Result) error {
	totals := append([]StrategyTotals(nil), r.Totals...)
	for _, res := range results {
		k := -1
		for i := range totals {
			if totals[i].Strategy == res.Strategy {
				k = i
				break
			}
		}
		if k < 0 {
			totals = append(totals, StrategyTotals{Strategy: res.Strategy})
			k = len(totals) - 1
		}
		if err := totals[k].Totals.Add(res.Totals, res.Strategy); err != nil {
			return err
		}
		totals[k].Sessions++
	}
	for _, res := range results {
		r.Sessions = append(r.Sessions, SessionTotals{File: file, Conversation: conversation, Strategy: res.Strategy, Totals: res.Totals})
	}
	r.Totals = totals
	return nil
}
