package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/cost"
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

// readAndReplayTotals reads every input as readReplayInputs does (files
// on a few workers, results in argument order, bad input stops the run
// before anything is written) and replays each conversation as soon as
// its file is read, keeping only the totals: the calls are not kept
// (window.ReplayOptions.OnCall) and each transcript is let go once
// replayed but for its ID, format and turns. A replay's error (a sum too
// large) counts as its file's error.
func readAndReplayTotals(a *app, o *replayOptions, strategies []window.Strategy, ropts window.ReplayOptions) ([]replayed, error) {
	type inputFile struct {
		runs     []replayed
		warnings []*transcript.Error
	}
	if len(o.files) != 1 || o.files[0] != "-" && !isRegular(o.files[0]) {
		ropts.Progress = nil // several files at once: no one progress line
	}
	ropts.Indices = false
	ropts.OnCall = func(string, *window.Call, *window.Event) error { return nil }
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, o.files, func(name string, r io.Reader) (inputFile, error) {
		ts, err := transcript.Read(r, name, transcript.Format(o.inputFormat))
		if err != nil {
			return inputFile{}, inputError(err)
		}
		var f inputFile
		for _, t := range ts {
			f.warnings = append(f.warnings, t.Warnings...)
			if o.conversation != "" && t.ID != o.conversation {
				continue
			}
			res, err := window.Replay(a.ctx, t, strategies, ropts)
			if err != nil {
				if a.ctx.Err() != nil {
					return inputFile{}, a.ctx.Err()
				}
				return inputFile{}, replayError(name, err)
			}
			for i := range res {
				if res[i].Calls == nil {
					res[i].Calls = []window.Call{}
				}
			}
			f.runs = append(f.runs, replayed{file: name, results: res, messages: len(t.Messages),
				t: &transcript.Transcript{ID: t.ID, Format: t.Format, Turns: t.Turns}})
		}
		return f, nil
	})
	if ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil {
		return nil, err
	}
	var runs []replayed
	for _, f := range files {
		for _, w := range f.warnings {
			fmt.Fprintf(a.io.Err, "harpe: warning: %v\n", w)
		}
		runs = append(runs, f.runs...)
	}
	if o.conversation != "" && len(runs) == 0 {
		return nil, usageErrorf("--conversation: no conversation with id %q", o.conversation)
	}
	return runs, nil
}

// isRegular reports whether name is a regular file (following links).
func isRegular(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
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
	if runs[0].results == nil {
		if err := replayRuns(a, o, runs, strategies, ropts); err != nil {
			return err
		}
	}
	rep := window.NewSessionsReport()
	for _, run := range runs {
		if err := rep.Add(run.file, run.t.ID, run.results); err != nil {
			return inputError(fmt.Errorf("%s: %w", run.file, err))
		}
	}
	out := tableBuffer{opts: a.tableOptions(false)}
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
		if o.chosen != "" {
			fmt.Fprintln(&out, o.chosen)
		}
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
			plural(run.messageCount(), "message"), plural(run.t.Turns, "turn"), plural(calls, "call"))
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
	var left []cost.Unpriced
	for _, run := range runs {
		if len(run.results) > 0 {
			left = cost.MergeUnpriced(left, replayUnpriced(run.results[0]))
		}
	}
	if len(left) > 0 {
		io.WriteString(w, unpricedLine(left))
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
