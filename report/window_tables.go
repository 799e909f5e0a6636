package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/termtext"
	"github.com/harpe-dev/harpe/pkg/window"
)

// ReplayTableOptions say how a replay's tables for people are drawn.
type ReplayTableOptions struct {
	// Width is the number of columns the tables are made to fit (below
	// 80, 0 included, they fit 80), and EastAsian counts East Asian
	// ambiguous-width characters as two columns, as terminals in a CJK
	// locale show them.
	Width     int
	EastAsian bool
	// Note is a line written under the title, before the tables ("" for
	// none): which strategies were chosen, say.
	Note string
	// TotalsOnly leaves out the table of calls.
	TotalsOnly bool
}

// table is o as the table drawer takes it: at least 80 columns.
func (o ReplayTableOptions) table() table.Options {
	return table.Options{Width: o.Width, EastAsian: o.EastAsian}.AtLeastMin()
}

// WriteReplayTables writes r for people: a title naming the transcript,
// a table of its calls (one strategy) or of the tokens per call
// (several) with their legend and compactions, then the totals, a row
// per strategy, and the notes under them.
func WriteReplayTables(w io.Writer, r *Replay, o ReplayTableOptions) error {
	tj, results := r.Transcript, r.Strategies
	title := fmt.Sprintf("%s transcript: %s, %s", tj.Format, prose.Plural(tj.Messages, "message"), prose.Plural(tj.Turns, "turn"))
	if tj.ID != "" {
		title = "conversation " + termtext.Escape(tj.ID) + ": " + title
	}
	if tj.File != "" {
		title = termtext.Escape(tj.File) + ": " + title
	}
	fmt.Fprintln(w, title)
	if o.Note != "" {
		fmt.Fprintln(w, o.Note)
	}
	if len(results) == 0 || results[0].Totals.Calls == 0 {
		fmt.Fprintln(w, "no model calls")
	}
	if !o.TotalsOnly && len(results) > 0 && len(results[0].Calls) > 0 {
		if err := replayCallsTable(w, results, o); err != nil {
			return err
		}
	}
	if err := replayTotalsTable(w, results, o); err != nil {
		return err
	}
	return replayTotalsNotes(w, results, o)
}

// writeCallsTable writes the table of calls, its legend and the
// compactions under it.
func replayCallsTable(w io.Writer, results []window.Result, o ReplayTableOptions) error {
	header, rows := replayComparisonRows(results)
	if len(results) == 1 {
		header, rows = replayCallRows(results[0])
	}
	if err := table.Render(w, o.table(), header, rows, nil); err != nil {
		return err
	}
	if len(results) > 1 {
		fmt.Fprint(w, "tokens per call; ")
	}
	legend := "C: compacted before this call, !: over the context window"
	if slices.ContainsFunc(results, func(r window.Result) bool { return r.Totals.OverBudgetCalls > 0 }) {
		legend += ", B: over the budget"
	}
	fmt.Fprintln(w, legend)
	if len(results) == 1 && results[0].Totals.CostTotals != nil {
		fmt.Fprintln(w, "cached: tokens read from the prompt cache; cost $: the call's price")
	}
	for k, r := range results {
		if len(results) > 1 && replayShortName(r.Strategy, k) != r.Strategy && replayShortName(r.Strategy, k) != replayOldShort(r.Strategy) {
			fmt.Fprintf(w, "%s: %s\n", replayShortName(r.Strategy, k), r.Strategy)
		}
	}
	for _, r := range results {
		for _, e := range r.Events {
			replayHanging(w, o, fmt.Sprintf("%s compacted before call %d (turn %d): %d → %s, summary %s, folded messages %s",
				r.Strategy, e.Call, e.Turn, e.MessagesBefore, prose.Plural(e.MessagesAfter, "message"),
				prose.Plural(e.SummaryChars, "char"), prose.Ranges(e.Folded)))
		}
	}
	return nil
}

// writeHanging writes line wrapped at spaces to the tables' width,
// continuation lines indented: a real session's compaction or plan line
// is over 100 wide.
func replayHanging(w io.Writer, o ReplayTableOptions, line string) {
	to := o.table()
	for i, l := range strings.Split(to.Wrap(line, to.Width-2), "\n") {
		if i > 0 {
			l = "  " + l
		}
		fmt.Fprintln(w, l)
	}
}

// marks are the marks of a call in a table: C when compacted before it
// (the strategy's next event, ev, is at it, and then ev moves on), ! when
// over the context window, B when over the budget.
func replayMarks(r *window.Result, c *window.Call, ev *int) []string {
	var m []string
	if *ev < len(r.Events) && r.Events[*ev].Call == c.Call {
		m = append(m, "C")
		*ev++
	}
	if c.OverWindow {
		m = append(m, "!")
	}
	if c.OverBudget {
		m = append(m, "B")
	}
	return m
}

// callRows are one strategy's calls, a row each, with their marks and,
// when priced, the cache read and the price.
func replayCallRows(r window.Result) ([]string, [][]string) {
	header := []string{"turn", "call", "messages", "chars", "tokens", "full", "note"}
	priced := r.Totals.CostTotals != nil
	if priced {
		header = append(header, "cached", "cost $")
	}
	var rows [][]string
	ev := 0
	for i := range r.Calls {
		c := &r.Calls[i]
		row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call),
			fmt.Sprintf("%d/%d", c.MessageCount, c.FullMessages), strconv.Itoa(c.Chars),
			strconv.Itoa(c.Tokens), strconv.Itoa(c.FullTokens), strings.Join(replayMarks(&r, c, &ev), " ")}
		if priced && c.CallCost != nil {
			cell := prose.USD(c.CostUSD.Or(0))
			if slices.Contains(r.Totals.UnpricedModels, c.CallCost.Model) {
				cell = "unpriced"
			}
			row = append(row, strconv.Itoa(c.Cache.Read), cell)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// comparisonRows are tokens per call, one column per strategy (and
// full's, when full is not one of them).
func replayComparisonRows(results []window.Result) ([]string, [][]string) {
	withFull := !slices.ContainsFunc(results, func(r window.Result) bool { return r.Strategy == "full" })
	header := []string{"turn", "call"}
	if withFull {
		header = append(header, "full")
	}
	for k, r := range results {
		header = append(header, replayShortName(r.Strategy, k))
	}
	var rows [][]string
	evs := make([]int, len(results))
	for k, c := range results[0].Calls {
		row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call)}
		if withFull {
			row = append(row, strconv.Itoa(c.FullTokens))
		}
		for j := range results {
			rc := &results[j].Calls[k]
			row = append(row, strings.Join(append([]string{strconv.Itoa(rc.Tokens)}, replayMarks(&results[j], rc, &evs[j])...), " "))
		}
		rows = append(rows, row)
	}
	return header, rows
}

// writeTotalsTable writes the totals, a row per strategy: six columns,
// headers of at most 8 characters (the table helper shares the 80
// columns out and cuts longer headers), or nine when priced, the last
// three cut to fit 80 columns, with a legend under the table. Every
// strategy makes the same calls, so their number is in the last line.
func replayTotalsTable(w io.Writer, results []window.Result, o ReplayTableOptions) error {
	priced := len(results) > 0 && results[0].Totals.CostTotals != nil
	header := []string{"strategy", "sent", "saved", "max call", "compact.", "over win"}
	if priced {
		header = []string{"strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max", "C", "!"}
	}
	var rows [][]string
	for _, r := range results {
		t := r.Totals
		row := []string{r.Strategy, strconv.Itoa(t.TokensSent), replayPercent(t.SavedRatio)}
		if priced {
			saved := replayPercent(t.SavedCostRatio.Or(0))
			if t.CostTotals.AllUnpriced() {
				saved = "unpriced"
			}
			row = append(row, replayCostCell(t), saved, replayRegretCell(t.CostTotals))
		}
		rows = append(rows, append(row, strconv.Itoa(t.MaxCallTokens),
			strconv.Itoa(t.Compactions), strconv.Itoa(t.OverWindowCalls)))
	}
	if err := table.Render(w, o.table(), header, rows, nil); err != nil {
		return err
	}
	if priced {
		fmt.Fprintln(w, "cost $: what the calls cost, output included; $ saved: against full's cost;")
		fmt.Fprintln(w, "regret $: cost $ minus the cheapest plan's; max: the largest call;")
		fmt.Fprintln(w, "C: compactions; !: calls over the context window")
	}
	return nil
}

// writeTotalsNotes writes the lines under the totals: the cheapest
// plans, the calls and what full sends, what is unpriced, how the
// modelled cache agrees with the records, the sizes from the records,
// why a strategy costs more than full, and the calls over the budget.
func replayTotalsNotes(w io.Writer, results []window.Result, o ReplayTableOptions) error {
	replayPlans(w, results, o)
	var full, calls int
	costing := ""
	if len(results) > 0 {
		full, calls = results[0].Totals.TokensFull, results[0].Totals.Calls
		if ct := results[0].Totals.CostTotals; ct.AllUnpriced() {
			costing = ", costing: unpriced"
		} else if ct != nil {
			costing = ", costing $" + prose.USD(float64(ct.FullCostUSD))
		}
	}
	if _, err := fmt.Fprintf(w, "%s; full context would send %s in all%s\n", prose.Plural(calls, "call"), prose.Plural(full, "token"), costing); err != nil {
		return err
	}
	if len(results) > 0 {
		if left := results[0].Unpriced(); len(left) > 0 {
			if _, err := io.WriteString(w, unpricedLine(left)); err != nil {
				return err
			}
		}
	}
	for _, r := range results {
		if a := r.Totals.CostTotals; a != nil && a.Agreement != nil {
			replayAgreement(w, r.Strategy, a)
		}
	}
	if len(results) > 0 {
		if cal := results[0].Totals.Calibration; cal != nil && cal.Ratio != 1 {
			fmt.Fprintf(w, "sizes from the records: a front of %s; the counter gives %.3f× the recorded tokens of %s\n",
				prose.Plural(cal.Front, "token"), cal.Ratio, prose.Plural(cal.Messages, "message"))
		}
	}
	for _, r := range results {
		replayWhy(w, r.Strategy, r.Totals.CostTotals)
	}
	for _, r := range results {
		if n := r.Totals.OverBudgetCalls; n > 0 {
			if _, err := fmt.Fprintf(w, "%s: %s over the budget (what it always keeps, the system part and the newest prompt, is alone over it)\n", r.Strategy, prose.Plural(n, "call")); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeWhy writes, where strategy costs more than full, the line that
// says why ([window.CostWhy]).
func replayWhy(w io.Writer, strategy string, ct *window.CostTotals) {
	if ct != nil && ct.Why != nil {
		fmt.Fprintf(w, "%s %s\n", strategy, costWhyLine(ct.Why))
	}
}

// writeAgreement says how the modelled cache reads of strategy agree with
// the records, and what the records bill.
func replayAgreement(w io.Writer, strategy string, a *window.CostTotals) {
	fmt.Fprintf(w, "%s: modelled cache reads agree with the records on %d of %s (%.1f%%)\n",
		strategy, a.Agreement.Agree, prose.Plural(a.Agreement.Calls, "call"), 100*float64(a.Agreement.Agree)/float64(a.Agreement.Calls))
	if a.AllUnpriced() {
		fmt.Fprintf(w, "%s: the records bill: unpriced\n", strategy)
		return
	}
	if a.RecordedCostUSD == nil {
		return
	}
	line := fmt.Sprintf("%s: the records bill $%s", strategy, prose.USD(*a.RecordedCostUSD))
	if len(a.UnpricedModels) > 0 {
		line += " without the unpriced calls"
	}
	if a.EvictedCalls > 0 {
		line += fmt.Sprintf("; %s read less than modelled: every strategy is priced with the cache cut there", prose.Plural(a.EvictedCalls, "call"))
	}
	fmt.Fprintln(w, line)
}

// writePlans writes one line per cheapest plan under the totals: how many
// calls it cleared at, which, and how many results, wrapped to the
// table's width.
func replayPlans(w io.Writer, results []window.Result, o ReplayTableOptions) {
	for _, r := range results {
		if r.Plan == nil && !strings.HasPrefix(r.Strategy, "cheapest") {
			continue
		}
		plan := r.Strategy + " plan"
		line := plan + ": clears nothing (full costs least)"
		if r.Totals.CostTotals.AllUnpriced() {
			// No call has a price: the plan minimises the tokens sent.
			plan = r.Strategy + " plan (in tokens: unpriced)"
			line = plan + ": clears nothing (full sends fewest)"
		}
		var calls, drops []int
		n, freed := 0, 0
		for _, st := range r.Plan {
			if len(st.Cleared) > 0 {
				calls = append(calls, st.Call)
			}
			if st.DropBefore > 0 {
				drops = append(drops, st.Call)
			}
			n += len(st.Cleared)
			freed += st.FreedTokens
		}
		if len(calls) > 0 {
			line = fmt.Sprintf("%s: clears %s before %s (%s), freeing %s at those calls; --format json lists each",
				plan, prose.Plural(n, "tool result"), prose.Plural(len(calls), "call"), prose.Ranges(calls), prose.Plural(freed, "token"))
		} else if len(drops) > 0 {
			line = plan + ": clears nothing"
		}
		replayHanging(w, o, line)
		if len(drops) > 0 {
			replayHanging(w, o, fmt.Sprintf("%s plan: drops the oldest whole turns before %s (%s), where clears alone do not fit the window",
				r.Strategy, prose.Plural(len(drops), "call"), prose.Ranges(drops)))
		}
		if len(r.PlanUnfit) > 0 {
			over := make([]string, len(r.PlanUnfit))
			at := make([]int, len(r.PlanUnfit))
			for i, u := range r.PlanUnfit {
				at[i], over[i] = u.Call, strconv.Itoa(u.Over)
			}
			replayHanging(w, o, fmt.Sprintf("%s plan: %s (%s) cannot fit the window: the system part, overhead and active turn alone are over it by %s tokens",
				r.Strategy, prose.Plural(len(at), "call"), prose.Ranges(at), strings.Join(over, ", ")))
		}
	}
}

// percent writes a ratio as a percentage with one decimal.
func replayPercent(ratio float64) string { return strconv.FormatFloat(ratio*100, 'f', 1, 64) + "%" }

// costCell is a strategy's cost in a table: "unpriced" when no call of
// it has a price.
func replayCostCell(t window.Totals) string {
	if t.CostTotals.AllUnpriced() {
		return "unpriced"
	}
	return prose.USD4(float64(t.CostUSD))
}

// regretCell writes a strategy's regret against the cheapest plan, "-"
// where there is none, "unpriced" where no call has a price.
func replayRegretCell(ct *window.CostTotals) string {
	if ct.AllUnpriced() {
		return "unpriced"
	}
	if ct == nil || ct.RegretUSD == nil {
		return "-"
	}
	return prose.USD4(*ct.RegretUSD)
}

// shortName is a strategy's name as a column header (at most 8
// characters): a longer one becomes "#k", k its place in the strategies
// given, and a line under the table says which it is.
func replayShortName(name string, k int) string {
	if n := replayOldShort(name); len(n) <= 8 {
		return n
	}
	return "#" + strconv.Itoa(k+1)
}

func replayOldShort(name string) string {
	if name == "summarizing" {
		return "summ."
	}
	return name
}
