package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/termtext"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

// WriteReplayTotalsTable writes r for people: the sessions numbered (file,
// conversation, format, size), then one table, a row per session and
// strategy and the grand totals per strategy as rows "all", then the
// notes under it. reports are the replays r sums, in the order added
// (their Transcript names each session; their results say what is
// unpriced).
func WriteReplayTotalsTable(w io.Writer, r *sessions.Report, reports []Replay, o ReplayTableOptions) error {
	if o.Note != "" {
		fmt.Fprintln(w, o.Note)
	}
	fmt.Fprintf(w, "%s:\n", prose.Plural(len(reports), "session"))
	width := len(strconv.Itoa(len(reports)))
	for i, s := range reports {
		tj := s.Transcript
		name := termtext.Escape(tj.File)
		if tj.ID != "" {
			name += " (conversation " + termtext.Escape(tj.ID) + ")"
		}
		calls := 0
		if len(s.Strategies) > 0 {
			calls = s.Strategies[0].Totals.Calls
		}
		fmt.Fprintf(w, "%*d  %s: %s, %s, %s, %s\n", width, i+1, name, tj.Format,
			prose.Plural(tj.Messages, "message"), prose.Plural(tj.Turns, "turn"), prose.Plural(calls, "call"))
	}
	priced := slices.ContainsFunc(r.Totals, func(t sessions.StrategyTotals) bool { return t.CostTotals != nil })
	header, rows := replaySessionsRows(r, len(reports), priced)
	if err := table.Render(w, o.table(), header, rows, nil); err != nil {
		return err
	}
	return replaySessionsNotes(w, r, reports, priced)
}

// replaySessionsRows are the sessions table of n sessions: seven
// columns, so that 9-digit sums still fit 80 columns (every strategy
// makes a session's calls, listed above), or with cost in place of
// full's tokens and the compactions, which the single-session tables
// show.
func replaySessionsRows(r *sessions.Report, n int, priced bool) ([]string, [][]string) {
	header := []string{"session", "strategy", "sent", "full", "saved", "max call", "compact."}
	if priced {
		header = []string{"session", "strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max call"}
	}
	row := func(session, strategy string, t window.Totals) []string {
		if priced {
			cost, costSaved, regret := "-", "-", "-"
			if t.CostTotals != nil {
				cost, costSaved, regret = replayCostCell(t), replayPercent(t.SavedCostRatio.Or(0)), replayRegretCell(t.CostTotals)
				if t.CostTotals.AllUnpriced() {
					costSaved = "unpriced"
				}
			}
			return []string{session, strategy, strconv.Itoa(t.TokensSent), replayPercent(t.SavedRatio), cost, costSaved, regret, strconv.Itoa(t.MaxCallTokens)}
		}
		return []string{session, strategy, strconv.Itoa(t.TokensSent), strconv.Itoa(t.TokensFull),
			replayPercent(t.SavedRatio), strconv.Itoa(t.MaxCallTokens), strconv.Itoa(t.Compactions)}
	}
	var rows [][]string
	per := len(r.Sessions) / max(1, n)
	for i, s := range r.Sessions {
		rows = append(rows, row(strconv.Itoa(i/max(1, per)+1), s.Strategy, s.Totals))
	}
	for _, t := range r.Totals {
		rows = append(rows, row("all", t.Strategy, t.Totals))
	}
	return header, rows
}

// replaySessionsNotes writes the lines under the sessions table: calls and
// sessions, what full would cost, the legend, what is unpriced, and the
// calls over the window or the budget.
func replaySessionsNotes(w io.Writer, r *sessions.Report, reports []Replay, priced bool) error {
	if len(r.Totals) > 0 {
		fmt.Fprintf(w, "%s in %s", prose.Plural(r.Totals[0].Calls, "call"), prose.Plural(len(reports), "session"))
		if t := r.Totals[0]; t.CostTotals.AllUnpriced() {
			fmt.Fprint(w, "; full context would cost: unpriced")
		} else if t.CostTotals != nil {
			fmt.Fprintf(w, "; full context would cost $%s", prose.USD(float64(t.FullCostUSD)))
		}
		fmt.Fprintln(w)
		if priced {
			fmt.Fprintln(w, "cost $: what the calls cost, output included; $ saved: against full's cost;")
			fmt.Fprintln(w, "regret $: cost $ minus the cheapest plan's (see harpe replay --help)")
		}
	}
	var left []cost.Unpriced
	for _, s := range reports {
		if len(s.Strategies) > 0 {
			left = cost.MergeUnpriced(left, s.Strategies[0].Unpriced())
		}
	}
	if len(left) > 0 {
		if _, err := io.WriteString(w, unpricedLine(left)); err != nil {
			return err
		}
	}
	for _, t := range r.Totals {
		replayWhy(w, t.Strategy, t.CostTotals)
	}
	if !slices.ContainsFunc(r.Totals, func(t sessions.StrategyTotals) bool { return t.OverWindowCalls > 0 || t.OverBudgetCalls > 0 }) {
		return nil
	}
	for _, t := range r.Totals {
		if _, err := fmt.Fprintf(w, "%s: %s over the context window, %s over the budget\n", t.Strategy,
			prose.Plural(t.OverWindowCalls, "call"), prose.Plural(t.OverBudgetCalls, "call")); err != nil {
			return err
		}
	}
	return nil
}
