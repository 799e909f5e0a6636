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
