package window

import (
	"context"
	"errors"
	"fmt"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// SessionError is the failure of one transcript of [ReplayAll] or one
// session of [ReplaySessions].
type SessionError struct {
	// Index is the transcript's place in the slice given, or the
	// session's in the sequence.
	Index int
	// File is the session's input ([ReplaySessions]; "" for ReplayAll).
	File string
	Err  error
}

func (e *SessionError) Error() string {
	if e.File != "" {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("transcript %d: %v", e.Index, e.Err)
}

// Unwrap returns the replay's error.
func (e *SessionError) Unwrap() error { return e.Err }

// ReplayAll replays every transcript through the strategies, up to
// workers at a time (GOMAXPROCS when workers ≤ 0), and returns each one's
// results in the order of ts, whatever order they finish in. Each
// strategy gives every conversation its own state ([Strategy.Start]), so
// one strategy value serves all the workers. opts must not stream or
// report progress (OnCall, OnResult and Progress nil): their calls would
// interleave. Every transcript is tried; the error returned is the first
// in the order of ts, a [*SessionError].
func ReplayAll(ctx context.Context, ts []*transcript.Transcript, strategies []Strategy, opts ReplayOptions, workers int) ([][]Result, error) {
	if opts.OnCall != nil || opts.OnResult != nil || opts.Progress != nil {
		return nil, errors.New("ReplayAll: OnCall, OnResult and Progress must be nil")
	}
	resolved := make([]Strategy, len(strategies))
	for i, s := range strategies {
		rs, err := resolve(s, opts.Options)
		if err != nil {
			return nil, err
		}
		resolved[i] = rs
	}
	out := make([][]Result, len(ts))
	errs := make([]error, len(ts))
	pool.Run(ctx, pool.Indices(len(ts)), workers, func(i int) {
		out[i], errs[i] = Replay(ctx, ts[i], resolved, opts)
	}, func(i int) { errs[i] = ctx.Err() })
	for i, err := range errs {
		if err != nil {
			return nil, &SessionError{Index: i, Err: err}
		}
	}
	return out, nil
}

// ReplayTotals replays t through the strategies as [Replay] does but
// keeps only each strategy's totals, for a caller that sums many sessions:
// no call is kept (each Result's Calls is empty, not nil, so its JSON says
// []) and no indices are worked out. opts must not stream calls (OnCall
// nil); its OnResult and Progress are used.
func ReplayTotals(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	if opts.OnCall != nil {
		return nil, errors.New("ReplayTotals: OnCall must be nil")
	}
	opts.Indices = false
	opts.OnCall = func(string, *Call, *Event) error { return nil }
	res, err := Replay(ctx, t, strategies, opts)
	if err != nil {
		return nil, err
	}
	for i := range res {
		if res[i].Calls == nil {
			res[i].Calls = []Call{}
		}
	}
	return res, nil
}

// SessionTotals is one session's totals under one strategy, a row of
// [SessionsReport].
type SessionTotals struct {
	// File names the input the session was read from.
	File string `json:"file"`
	// Conversation names the session when the file holds several.
	Conversation string `json:"conversation,omitempty"`
	Strategy     string `json:"strategy"`
	Totals
}

// StrategyTotals is one strategy's totals over every session.
type StrategyTotals struct {
	Strategy string `json:"strategy"`
	// Sessions is the number of sessions summed.
	Sessions int `json:"sessions"`
	Totals
}

// SessionsReport sums the replays of several sessions: one row per
// session and strategy, in the order added, and a grand total per
// strategy, in the order the strategies first appear.
type SessionsReport struct {
	Sessions []SessionTotals  `json:"sessions"`
	Totals   []StrategyTotals `json:"totals"`
}

// NewSessionsReport returns an empty report (empty lists, not null).
func NewSessionsReport() *SessionsReport {
	return &SessionsReport{Sessions: []SessionTotals{}, Totals: []StrategyTotals{}}
}

// Add adds one session's results. The grand totals are checked sums: a
// token total that does not fit an int is a [*engine.TokenOverflowError]
// and the report is left as it was.
func (r *SessionsReport) Add(file, conversation string, results []Result) error {
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
