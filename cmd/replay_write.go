package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// callLine is one --format jsonl line: a call with its strategy and the
// compaction before it.
type callLine struct {
	Strategy string `json:"strategy"`
	// File and Conversation name the session when the run reads several.
	File         string `json:"file,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	window.Call
	Compaction *window.Event `json:"compaction,omitempty"`
}

// writeReplay writes one session's report, its calls held in
// run.results: the window.Report (json), a line per call (jsonl) or the
// tables.
func writeReplay(w io.Writer, out replayOut, run replayed, several bool) error {
	tj := run.info(several)
	switch out.format {
	case "json":
		return writeJSON(w, window.Report{Transcript: tj, Strategies: run.results})
	case "jsonl":
		for _, r := range run.results {
			ev := 0
			for _, c := range r.Calls {
				cj := callLine{Strategy: r.Strategy, Call: c}
				if several {
					cj.File, cj.Conversation = run.file, run.t.ID
				}
				if ev < len(r.Events) && r.Events[ev].Call == c.Call {
					cj.Compaction = &r.Events[ev]
					ev++
				}
				if err := writeJSONLine(w, cj); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return writeReplayTable(w, out, tj, run.results)
}

// writeReplayTable writes one table of calls (one strategy) or a
// comparison of tokens per call (several), then the totals.
func writeReplayTable(w io.Writer, out replayOut, tj window.TranscriptInfo, results []window.Result) error {
	title := fmt.Sprintf("%s transcript: %s, %s", tj.Format, plural(tj.Messages, "message"), plural(tj.Turns, "turn"))
	if tj.ID != "" {
		title = "conversation " + escapeControl(tj.ID) + ": " + title
	}
	if tj.File != "" {
		title = escapeControl(tj.File) + ": " + title
	}
	fmt.Fprintln(w, title)
	if out.chosen != "" {
		fmt.Fprintln(w, out.chosen)
	}
	if len(results) == 0 || results[0].Totals.Calls == 0 {
		fmt.Fprintln(w, "no model calls")
	}
	if !out.totalsOnly && len(results) > 0 && len(results[0].Calls) > 0 {
		if err := writeCallsTable(w, results); err != nil {
			return err
		}
	}
	if err := writeTotalsTable(w, results); err != nil {
		return err
	}
	return writeTotalsNotes(w, results)
}

// writeCallsTable writes the table of calls, its legend and the
// compactions under it.
func writeCallsTable(w io.Writer, results []window.Result) error {
	header, rows := comparisonRows(results)
	if len(results) == 1 {
		header, rows = callRows(results[0])
	}
	if err := renderTable(w, header, rows, nil); err != nil {
		return err
	}
	if len(results) > 1 {
		fmt.Fprint(w, "tokens per call; ")
	}
	legend := "C: compacted before this call, !: over the context window"
	if overBudget(results) {
		legend += ", B: over the budget"
	}
	fmt.Fprintln(w, legend)
	if len(results) == 1 && results[0].Totals.CostTotals != nil {
		fmt.Fprintln(w, "cached: tokens read from the prompt cache; cost $: the call's price")
	}
	for k, r := range results {
		if len(results) > 1 && shortName(r.Strategy, k) != r.Strategy && shortName(r.Strategy, k) != oldShort(r.Strategy) {
			fmt.Fprintf(w, "%s: %s\n", shortName(r.Strategy, k), r.Strategy)
		}
	}
	writeCompactions(w, results)
	return nil
}

// callRows are one strategy's calls, a row each, with their marks and,
// when priced, the cache read and the price.
func callRows(r window.Result) ([]string, [][]string) {
	header := []string{"turn", "call", "messages", "chars", "tokens", "full", "note"}
	priced := r.Totals.CostTotals != nil
	if priced {
		header = append(header, "cached", "cost $")
	}
	var rows [][]string
	ev := 0
	for _, c := range r.Calls {
		note := ""
		if ev < len(r.Events) && r.Events[ev].Call == c.Call {
			note = "C"
			ev++
		}
		if c.OverWindow {
			note = strings.TrimSpace(note + " !")
		}
		if c.OverBudget {
			note = strings.TrimSpace(note + " B")
		}
		row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call),
			fmt.Sprintf("%d/%d", c.MessageCount, c.FullMessages), strconv.Itoa(c.Chars),
			strconv.Itoa(c.Tokens), strconv.Itoa(c.FullTokens), note}
		if priced && c.CallCost != nil {
			cell := usd(c.CostUSD)
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
func comparisonRows(results []window.Result) ([]string, [][]string) {
	withFull := !slices.Contains(strategiesOf(results), "full")
	header := []string{"turn", "call"}
	if withFull {
		header = append(header, "full")
	}
	for k, r := range results {
		header = append(header, shortName(r.Strategy, k))
	}
	var rows [][]string
	evs := make([]int, len(results))
	for k, c := range results[0].Calls {
		row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call)}
		if withFull {
			row = append(row, strconv.Itoa(c.FullTokens))
		}
		for j, r := range results {
			rc := r.Calls[k]
			cell := strconv.Itoa(rc.Tokens)
			if evs[j] < len(r.Events) && r.Events[evs[j]].Call == rc.Call {
				cell += " C"
				evs[j]++
			}
			if rc.OverWindow {
				cell += " !"
			}
			if rc.OverBudget {
				cell += " B"
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	return header, rows
}

// writeCompactions writes a line per compaction, wrapped at spaces to
// the table's width, continuation lines indented: a real session's line
// is over 100 wide.
func writeCompactions(w io.Writer, results []window.Result) {
	to := tableOptionsOf(w)
	for _, r := range results {
		for _, e := range r.Events {
			line := fmt.Sprintf("%s compacted before call %d (turn %d): %d → %s, summary %s, folded messages %s",
				r.Strategy, e.Call, e.Turn, e.MessagesBefore, plural(e.MessagesAfter, "message"), plural(e.SummaryChars, "char"), ranges(e.Folded))
			for i, l := range strings.Split(to.Wrap(line, to.Width-2), "\n") {
				if i > 0 {
					l = "  " + l
				}
				fmt.Fprintln(w, l)
			}
		}
	}
}

// writeTotalsTable writes the totals, a row per strategy: six columns,
// headers of at most 8 characters (the table helper shares the 80
// columns out and cuts longer headers), or nine when priced, the last
// three cut to fit 80 columns, with a legend under the table. Every
// strategy makes the same calls, so their number is in the last line.
func writeTotalsTable(w io.Writer, results []window.Result) error {
	priced := len(results) > 0 && results[0].Totals.CostTotals != nil
	header := []string{"strategy", "sent", "saved", "max call", "compact.", "over win"}
	if priced {
		header = []string{"strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max", "C", "!"}
	}
	var rows [][]string
	for _, r := range results {
		t := r.Totals
		row := []string{string(r.Strategy), strconv.Itoa(t.TokensSent),
			strconv.FormatFloat(t.SavedRatio*100, 'f', 1, 64) + "%"}
		if priced {
			row = append(row, costCell(t), strconv.FormatFloat(t.SavedCostRatio*100, 'f', 1, 64)+"%", regretCell(t.CostTotals))
		}
		rows = append(rows, append(row, strconv.Itoa(t.MaxCallTokens),
			strconv.Itoa(t.Compactions), strconv.Itoa(t.OverWindowCalls)))
	}
	if err := renderTable(w, header, rows, nil); err != nil {
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
// and the calls over the budget.
func writeTotalsNotes(w io.Writer, results []window.Result) error {
	writePlans(w, results)
	var full, calls int
	costing := ""
	if len(results) > 0 {
		full, calls = results[0].Totals.TokensFull, results[0].Totals.Calls
		if results[0].Totals.CostTotals != nil {
			costing = ", costing $" + usd(results[0].Totals.FullCostUSD)
		}
	}
	if _, err := fmt.Fprintf(w, "%s; full context would send %s in all%s\n", plural(calls, "call"), plural(full, "token"), costing); err != nil {
		return err
	}
	if len(results) > 0 {
		if left := results[0].Unpriced(); len(left) > 0 {
			if _, err := io.WriteString(w, transcript.UnpricedLine(left)); err != nil {
				return err
			}
		}
	}
	for _, r := range results {
		if a := r.Totals.CostTotals; a != nil && a.Agreement != nil {
			fmt.Fprintf(w, "%s: modelled cache reads agree with the records on %d of %s (%.1f%%)\n",
				r.Strategy, a.Agreement.Agree, plural(a.Agreement.Calls, "call"), 100*float64(a.Agreement.Agree)/float64(a.Agreement.Calls))
			if a.RecordedCostUSD != nil {
				line := fmt.Sprintf("%s: the records bill $%s", r.Strategy, usd(*a.RecordedCostUSD))
				if len(a.UnpricedModels) > 0 {
					line += " without the unpriced calls"
				}
				if a.EvictedCalls > 0 {
					line += fmt.Sprintf("; %s read less than modelled: every strategy is priced with the cache cut there", plural(a.EvictedCalls, "call"))
				}
				fmt.Fprintln(w, line)
			}
		}
	}
	if len(results) > 0 {
		if cal := results[0].Totals.Calibration; cal != nil && cal.Ratio != 1 {
			fmt.Fprintf(w, "sizes from the records: a front of %s; the counter gives %.3f× the recorded tokens of %s\n",
				plural(cal.Front, "token"), cal.Ratio, plural(cal.Messages, "message"))
		}
	}
	for _, r := range results {
		if n := r.Totals.OverBudgetCalls; n > 0 {
			if _, err := fmt.Fprintf(w, "%s: %s over the budget (what it always keeps, the system part and the newest prompt, is alone over it)\n", r.Strategy, plural(n, "call")); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeSessionsTotals writes --totals over several sessions.
func writeSessionsTotals(w io.Writer, out replayOut, runs []replayed, rep *window.SessionsReport) error {
	switch out.format {
	case "json":
		return writeJSON(w, rep)
	case "jsonl":
		for _, s := range rep.Sessions {
			if err := writeJSONLine(w, s); err != nil {
				return err
			}
		}
		for _, t := range rep.Totals {
			if err := writeJSONLine(w, t); err != nil {
				return err
			}
		}
		return nil
	}
	if out.chosen != "" {
		fmt.Fprintln(w, out.chosen)
	}
	return writeSessionsTable(w, runs, rep)
}

// writeSessionsTable writes the sessions numbered (file, conversation,
// format, size), then one table: a row per session and strategy, and the
// grand totals per strategy as rows "all", then the notes under it.
func writeSessionsTable(w io.Writer, runs []replayed, rep *window.SessionsReport) error {
	fmt.Fprintf(w, "%s:\n", plural(len(runs), "session"))
	width := len(strconv.Itoa(len(runs)))
	for i, run := range runs {
		name := escapeControl(run.file)
		if run.t.ID != "" {
			name += " (conversation " + escapeControl(run.t.ID) + ")"
		}
		calls := 0
		if len(run.results) > 0 {
			calls = run.results[0].Totals.Calls
		}
		fmt.Fprintf(w, "%*d  %s: %s, %s, %s, %s\n", width, i+1, name, run.t.Format,
			plural(run.messageCount(), "message"), plural(run.t.Turns, "turn"), plural(calls, "call"))
	}
	priced := slices.ContainsFunc(rep.Totals, func(t window.StrategyTotals) bool { return t.CostTotals != nil })
	header, rows := sessionsRows(runs, rep, priced)
	if err := renderTable(w, header, rows, nil); err != nil {
		return err
	}
	return writeSessionsNotes(w, runs, rep, priced)
}

// sessionsRows are the sessions table: seven columns, so that 9-digit
// sums still fit 80 columns (every strategy makes a session's calls,
// listed above), or with cost in place of full's tokens and the
// compactions, which the single-session tables show.
func sessionsRows(runs []replayed, rep *window.SessionsReport, priced bool) ([]string, [][]string) {
	header := []string{"session", "strategy", "sent", "full", "saved", "max call", "compact."}
	if priced {
		header = []string{"session", "strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max call"}
	}
	row := func(session, strategy string, t window.Totals) []string {
		saved := strconv.FormatFloat(t.SavedRatio*100, 'f', 1, 64) + "%"
		if priced {
			cost, costSaved, regret := "-", "-", "-"
			if t.CostTotals != nil {
				cost, costSaved, regret = costCell(t), strconv.FormatFloat(t.SavedCostRatio*100, 'f', 1, 64)+"%", regretCell(t.CostTotals)
			}
			return []string{session, strategy, strconv.Itoa(t.TokensSent), saved, cost, costSaved, regret, strconv.Itoa(t.MaxCallTokens)}
		}
		return []string{session, strategy, strconv.Itoa(t.TokensSent), strconv.Itoa(t.TokensFull),
			saved, strconv.Itoa(t.MaxCallTokens), strconv.Itoa(t.Compactions)}
	}
	var rows [][]string
	per := len(rep.Sessions) / max(1, len(runs))
	for i, s := range rep.Sessions {
		rows = append(rows, row(strconv.Itoa(i/max(1, per)+1), s.Strategy, s.Totals))
	}
	for _, t := range rep.Totals {
		rows = append(rows, row("all", t.Strategy, t.Totals))
	}
	return header, rows
}

// writeSessionsNotes writes the lines under the sessions table: calls
// and sessions, what full would cost, the legend, what is unpriced, and
// the calls over the window or the budget.
func writeSessionsNotes(w io.Writer, runs []replayed, rep *window.SessionsReport, priced bool) error {
	if len(rep.Totals) > 0 {
		fmt.Fprintf(w, "%s in %s", plural(rep.Totals[0].Calls, "call"), plural(len(runs), "session"))
		if t := rep.Totals[0]; t.CostTotals != nil {
			fmt.Fprintf(w, "; full context would cost $%s", usd(t.FullCostUSD))
		}
		fmt.Fprintln(w)
		if priced {
			fmt.Fprintln(w, "cost $: what the calls cost, output included; $ saved: against full's cost;")
			fmt.Fprintln(w, "regret $: cost $ minus the cheapest plan's (see harpe replay --help)")
		}
	}
	var left []cost.Unpriced
	for _, run := range runs {
		if len(run.results) > 0 {
			left = cost.MergeUnpriced(left, run.results[0].Unpriced())
		}
	}
	if len(left) > 0 {
		if _, err := io.WriteString(w, transcript.UnpricedLine(left)); err != nil {
			return err
		}
	}
	if !slices.ContainsFunc(rep.Totals, func(t window.StrategyTotals) bool { return t.OverWindowCalls > 0 || t.OverBudgetCalls > 0 }) {
		return nil
	}
	for _, t := range rep.Totals {
		if _, err := fmt.Fprintf(w, "%s: %s over the context window, %s over the budget\n", t.Strategy,
			plural(t.OverWindowCalls, "call"), plural(t.OverBudgetCalls, "call")); err != nil {
			return err
		}
	}
	return nil
}

// noteUnpriced writes on w one note for each model in results that has
// no prices, once per run of the command (noted).
func (a *app) noteUnpriced(w io.Writer, noted map[string]bool, results []window.Result) {
	for _, r := range results {
		if r.Totals.CostTotals == nil {
			continue
		}
		for _, m := range r.Totals.UnpricedModels {
			if !noted[m] {
				noted[m] = true
				fmt.Fprintf(w, "harpe: note: no prices for model %q; its calls are priced at 0 (add them under models: in harpe.yaml)\n", m)
			}
		}
	}
}

// notePlotSession says on stderr which session --plot drew when the
// input held several (it draws the first), so the choice is not silent.
func (a *app) notePlotSession(n int, file, conversation string) {
	if n < 2 {
		return
	}
	name := escapeControl(file)
	if conversation != "" {
		name += " (conversation " + escapeControl(conversation) + ")"
	}
	fmt.Fprintf(a.io.Err, "harpe: note: --plot draws session 1 of %d, %s; name one file (or --conversation ID) to draw another\n", n, name)
}

// usd writes a price in US dollars with six decimals; usd4 with four.
func usd(x float64) string  { return strconv.FormatFloat(x, 'f', 6, 64) }
func usd4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// costCell is a strategy's cost in a table: "unpriced" when no call of
// it has a price.
func costCell(t window.Totals) string {
	if t.CostUSD == 0 && len(t.UnpricedModels) > 0 {
		return "unpriced"
	}
	return usd4(t.CostUSD)
}

func overBudget(results []window.Result) bool {
	return slices.ContainsFunc(results, func(r window.Result) bool { return r.Totals.OverBudgetCalls > 0 })
}

func strategiesOf(results []window.Result) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r.Strategy
	}
	return out
}

// shortName is a strategy's name as a column header (at most 8
// characters): a longer one becomes "#k", k its place in --strategy, and a
// line under the table says which it is.
func shortName(name string, k int) string {
	if n := oldShort(name); len(n) <= 8 {
		return n
	}
	return "#" + strconv.Itoa(k+1)
}

func oldShort(name string) string {
	if name == "summarizing" {
		return "summ."
	}
	return name
}

// ranges writes increasing indices as "1-6, 9, 12-13".
func ranges(idx []int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(idx[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(idx[j]))
		}
		i = j + 1
	}
	return b.String()
}
