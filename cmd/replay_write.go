package cmd

import (
	"fmt"
	"io"

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
	rep := window.Report{Transcript: tj, Strategies: run.results}
	return rep.WriteTables(w, replayTables(w, out))
}

// replayTables is how the replay tables written to w are drawn.
func replayTables(w io.Writer, out replayOut) window.TableOptions {
	o := tableOptionsOf(w)
	return window.TableOptions{Width: o.Width, EastAsian: o.EastAsian, Note: out.chosen, TotalsOnly: out.totalsOnly}
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
	sessions := make([]window.Report, len(runs))
	for i := range runs {
		sessions[i] = window.Report{Transcript: runs[i].info(true), Strategies: runs[i].results}
	}
	return rep.WriteTable(w, sessions, replayTables(w, out))
}

// noteUnpriced writes on w one note for each model in results that has
// no prices, once per run of the command (noted).
func (a *app) noteUnpriced(w io.Writer, noted map[string]bool, results []window.Result) {
	for _, r := range results {
		if r.Totals.CostTotals == nil {
			continue
		}
		noteNoPrices(w, noted, r.Totals.UnpricedModels)
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
