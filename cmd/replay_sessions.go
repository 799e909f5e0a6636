package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// replayRuns replays every run into run.results: several at once when
// there are several (bounded workers, results in input order), one after
// the other with --distill-cmd (its runs are the user's command) or a
// terminal progress line.
func replayRuns(a *app, o *replayOptions, runs []replayed, strategies []window.Strategy, ropts window.ReplayOptions) error {
	if len(o.contextWindows) > 1 {
		return replayLimits(a, o, runs, strategies, ropts)
	}
	if len(runs) > 1 && o.distillCmd == "" {
		ropts.Progress = nil
		ts := make([]*transcript.Transcript, len(runs))
		for i := range runs {
			ts[i] = runs[i].t
		}
		res, err := window.ReplayAll(a.ctx, ts, strategies, ropts, 0)
		if err != nil {
			if a.ctx.Err() != nil {
				return a.ctx.Err()
			}
			var se *window.SessionError
			if errors.As(err, &se) {
				return replayError(runs[se.Index].file, se.Err)
			}
			return err
		}
		for i := range runs {
			runs[i].results = res[i]
		}
		return nil
	}
	for i := range runs {
		run := &runs[i]
		res, err := window.Replay(a.ctx, run.t, strategies, ropts)
		if err != nil {
			if a.ctx.Err() != nil {
				return err
			}
			return replayError(run.file, err)
		}
		run.results = res
	}
	if ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	return nil
}

// replayError is a replay's failure on file: a --distill-cmd failure is
// a usage error, anything else (a sum too large) bad input.
func replayError(file string, err error) error {
	var de *window.DistillError
	if errors.As(err, &de) {
		return usageErrorf("--distill-cmd: %s: %v", file, de.Err)
	}
	return inputError(fmt.Errorf("%s: %w", file, err))
}

// replaySessionsTotals writes --totals over several sessions: one row per
// session and strategy and a grand total per strategy (table), the
// window.SessionsReport (json), or one line per row and then per grand
// total (jsonl).
func replaySessionsTotals(a *app, o *replayOptions, runs []replayed, strategies []window.Strategy, ropts window.ReplayOptions) error {
	if err := replayRuns(a, o, runs, strategies, ropts); err != nil {
		return err
	}
	rep := window.NewSessionsReport()
	for _, run := range runs {
		if err := rep.Add(run.file, run.t.ID, run.results); err != nil {
			return inputError(fmt.Errorf("%s: %w", run.file, err))
		}
	}
	var out bytes.Buffer
	switch o.format {
	case "json":
		if err := writeJSON(&out, rep); err != nil {
			return err
		}
	case "jsonl":
		for _, s := range rep.Sessions {
			if err := writeJSONLine(&out, s); err != nil {
				return err
			}
		}
		for _, t := range rep.Totals {
			if err := writeJSONLine(&out, t); err != nil {
				return err
			}
		}
	default:
		if err := writeSessionsTable(&out, runs, rep); err != nil {
			return err
		}
	}
	if o.plot != "" {
		if err := a.stageFile(o.plot, func(w io.Writer) error { return plotReplay(w, o, runs[0]) }); err != nil {
			return err
		}
		a.notePlotSession(len(runs), runs[0].file, runs[0].t.ID)
	}
	return a.writeOutput(o.output, func(w io.Writer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}

// writeSessionsTable writes the sessions numbered (file, conversation,
// format, size), then one table: a row per session and strategy, and the
// grand totals per strategy as rows "all".
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
			plural(len(run.t.Messages), "message"), plural(run.t.Turns, "turn"), plural(calls, "call"))
	}
	// Seven columns, so that 9-digit sums still fit 80 columns; every
	// strategy makes a session's calls, listed above.
	header := []string{"session", "strategy", "sent", "full", "saved", "max call", "compact."}
	priced := false
	for _, t := range rep.Totals {
		priced = priced || t.CostTotals != nil
	}
	if priced {
		// Cost in place of full's tokens and the compactions, which the
		// single-session tables show.
		header = []string{"session", "strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max call"}
	}
	row := func(session, strategy string, t window.Totals) []string {
		saved := strconv.FormatFloat(t.SavedRatio*100, 'f', 1, 64) + "%"
		if priced {
			cost, costSaved, regret := "-", "-", "-"
			if t.CostTotals != nil {
				cost, costSaved, regret = usd4(t.CostUSD), strconv.FormatFloat(t.SavedCostRatio*100, 'f', 1, 64)+"%", regretCell(t.CostTotals)
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
	if err := renderTable(w, header, rows, nil); err != nil {
		return err
	}
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
	over := false
	for _, t := range rep.Totals {
		if t.OverWindowCalls > 0 || t.OverBudgetCalls > 0 {
			over = true
		}
	}
	if over {
		for _, t := range rep.Totals {
			fmt.Fprintf(w, "%s: %s over the context window, %s over the budget\n", t.Strategy,
				plural(t.OverWindowCalls, "call"), plural(t.OverBudgetCalls, "call"))
		}
	}
	return nil
}
