package window

import (
	"context"
	"errors"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// replayTotals is [Replay] keeping only the totals
// ([ReplayOptions.Totals]).
func replayTotals(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	if opts.OnCall != nil {
		return nil, errors.New("Replay: Totals with an OnCall")
	}
	opts.Totals = false
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

// replayLimits is [Replay] under each of opts.Limits: the calls held,
// every strategy under one limit at a time; or, with opts.OnCall, one
// strategy under one limit at a time, each call handed to opts' hooks as
// it is made, so nothing holds the calls of several limits (two limits
// of a 10 MB session held 4.1 GB, three ran out of memory).
func replayLimits(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	limits := opts.Limits
	opts.Limits = nil
	if opts.OnCall != nil {
		var merged []Result
		for k := range strategies {
			for _, limit := range limits {
				o := opts
				o.ContextWindow = limit
				suffix := "@" + limitName(limit)
				o.OnCall = func(name string, c *Call, ev *Event) error {
					return opts.OnCall(name+suffix, c, ev)
				}
				if opts.OnResult != nil {
					o.OnResult = func(res *Result) error {
						named := *res
						named.Strategy += suffix
						return opts.OnResult(&named)
					}
				}
				res, err := Replay(ctx, t, strategies[k:k+1], o)
				if err != nil {
					return nil, err
				}
				res[0].Strategy += suffix
				merged = append(merged, res[0])
			}
		}
		return merged, nil
	}
	per := make([][]Result, len(limits))
	for k, limit := range limits {
		opts.ContextWindow = limit
		res, err := Replay(ctx, t, strategies, opts)
		if err != nil {
			return nil, err
		}
		per[k] = res
	}
	var merged []Result
	for s := range strategies {
		for k, limit := range limits {
			r := per[k][s]
			r.Strategy += "@" + limitName(limit)
			merged = append(merged, r)
		}
	}
	return merged, nil
}

// limitName writes a context-window limit short: 100000 as 100k, 1500
// as 1500.
func limitName(n int) string {
	if n > 0 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
