package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/window"
)

// regretCell writes a strategy's regret against the cheapest plan, "-"
// where there is none.
func regretCell(ct *window.CostTotals) string {
	if ct == nil || ct.RegretUSD == nil {
		return "-"
	}
	return usd4(*ct.RegretUSD)
}

// writePlans writes one line per cheapest plan under the totals: how many
// calls it cleared at, which, and how many results, wrapped to the
// table's width.
func writePlans(w io.Writer, results []window.Result) {
	for _, r := range results {
		if r.Plan == nil && !strings.HasPrefix(r.Strategy, "cheapest") {
			continue
		}
		line := r.Strategy + " plan: clears nothing (full costs least)"
		if len(r.Plan) > 0 {
			calls := make([]int, len(r.Plan))
			n, freed := 0, 0
			for i, st := range r.Plan {
				calls[i] = st.Call
				n += len(st.Cleared)
				freed += st.FreedTokens
			}
			line = fmt.Sprintf("%s plan: clears %s before %s (%s), freeing %s at those calls; --format json lists each",
				r.Strategy, plural(n, "tool result"), plural(len(r.Plan), "call"), ranges(calls), plural(freed, "token"))
		}
		for i, l := range strings.Split(wrapCell(line, tableWidth(w)-2), "\n") {
			if i > 0 {
				l = "  " + l
			}
			fmt.Fprintln(w, l)
		}
	}
}

// windowList is --context-window: one limit, or several separated by
// commas ("100000,150000,200000"), each a whole number ≥ 0.
type windowList struct {
	first *int
	all   *[]int
}

func (w windowList) String() string {
	if w.all == nil || len(*w.all) == 0 {
		return "0"
	}
	parts := make([]string, len(*w.all))
	for i, n := range *w.all {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func (w windowList) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not a whole number of tokens (several: 100000,150000)", strings.TrimSpace(f))
		}
		out = append(out, n)
	}
	*w.all = out
	*w.first = out[0]
	return nil
}

func (windowList) Type() string { return "tokens" }

// replayLimits replays run under each of several window limits and
// returns the results of all of them, every strategy once per limit as
// "STRATEGY@LIMIT" (100000 as 100k; strategy by strategy, the limits in
// the order given).
func (job *replayJob) replayLimits(a *app, run *replayed, ropts window.ReplayOptions) ([]window.Result, error) {
	per := make([][]window.Result, len(job.limits))
	for k, limit := range job.limits {
		ropts.ContextWindow = limit
		res, err := job.replay(a, run, ropts)
		if err != nil {
			return nil, err
		}
		per[k] = res
	}
	var merged []window.Result
	for s := range job.strategies {
		for k, limit := range job.limits {
			r := per[k][s]
			r.Strategy += "@" + limitName(limit)
			merged = append(merged, r)
		}
	}
	return merged, nil
}

// limitName writes a window limit short: 100000 as 100k.
func limitName(n int) string {
	if n > 0 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}
