package report

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"iter"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

// ReplayCallLine is one line of the "jsonl" format: a call with its
// strategy and the compaction before it.
type ReplayCallLine struct {
	Strategy string `json:"strategy"`
	// File and Conversation name the session when the run reads several.
	File         string `json:"file,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	window.Call
	Compaction *window.Event `json:"compaction,omitempty"`
}

// ReplaySessionsOptions say how [WriteReplaySessions] writes the
// sessions' reports.
type ReplaySessionsOptions struct {
	// Format is "json" (one [Replay] per session, written call by
	// call where it can be), "jsonl" (a [ReplayCallLine] per call) or
	// "table" ([WriteReplayTables] with Tables, a blank line between
	// sessions). With [sessions.Options.Totals] only the sessions'
	// totals are written: a [sessions.Report] (its JSON, a line per
	// row and per grand total, or, when there are several sessions,
	// [WriteReplayTotalsTable]); one session's table is its report's, with
	// Tables.TotalsOnly leaving out its row per call.
	Format string
	Tables ReplayTableOptions
	// Plot keeps the first session's calls as [WriteReplayPlot] draws
	// them, in [ReplaySessionsResult].First.
	Plot bool
}

// ReplaySessionsResult is what [WriteReplaySessions] did.
type ReplaySessionsResult struct {
	// Sessions is the number of sessions replayed.
	Sessions int
	// First is the first session's report, its transcript's File always
	// set; its results hold what a plot draws only with
	// [ReplaySessionsOptions.Plot].
	First Replay
}

// WriteReplaySessions replays the sessions as [sessions.Replay]
// does and writes each one's report to w as soon as it is replayed: JSON
// and JSON lines call by call ([ReplayJSONWriter]), under each limit in
// turn, a table (or any with a Distill command) a session at a time,
// its calls held. Each report names its file (and conversation) when
// there are several sessions. The totals of several sessions are
// written a session's rows at a time (JSON, JSON lines), the grand
// totals at the end; a table of them holds every session's totals. The
// format sets o's Stream, OneAsReport and KeepFirst.
func WriteReplaySessions(ctx context.Context, w io.Writer, seq iter.Seq2[sessions.Session, error], o sessions.Options, f ReplaySessionsOptions) (ReplaySessionsResult, error) {
	o.Stream = f.Format != "table"
	o.OneAsReport = f.Format == "table"
	o.KeepFirst = f.Plot
	sw := &replaySessionsWriter{w: w, f: f}
	n, err := sessions.Replay(ctx, seq, o, sw)
	return ReplaySessionsResult{Sessions: n, First: sw.first}, err
}

// replaySessionsWriter writes a sessions replay as it is handed over: a
// [sessions.Sink].
type replaySessionsWriter struct {
	w       io.Writer
	f       ReplaySessionsOptions
	written int // sessions written
	first   Replay
	plot    ReplayPlotKeeper
	// With totals as a table: each session's report and rows; as JSON:
	// the rows written.
	kept     []Replay
	keptRows []sessions.SessionTotals
	rows     int
}

// Stream writes s's JSON (or JSON lines) call by call; for a plot it
// keeps what the plot draws of the first session's calls.
func (sw *replaySessionsWriter) Stream(s sessions.Info, opts *window.ReplayOptions) (func() error, error) {
	var rw *ReplayJSONWriter
	if sw.f.Format == "jsonl" {
		onCall := opts.OnCall
		opts.OnCall = func(name string, c *window.Call, ev *window.Event) error {
			line := ReplayCallLine{Strategy: name, Call: *c, Compaction: ev}
			if s.Several {
				line.File, line.Conversation = s.File, s.Transcript.ID
			}
			if err := replayEncodeJSON(sw.w, line); err != nil {
				return err
			}
			if onCall != nil {
				return onCall(name, c, ev)
			}
			return nil
		}
	} else {
		rw = NewReplayJSONWriter(sw.w)
		if err := rw.Begin(s.Transcript); err != nil {
			return nil, err
		}
	}
	if s.Index == 0 && sw.f.Plot {
		sw.plot.Hook(opts)
	}
	if rw != nil {
		rw.Hook(opts)
	}
	return func() error {
		if rw != nil {
			if err := rw.End(); err != nil {
				return err
			}
		}
		sw.written++
		sw.keepFirst(s, sw.plot.Results())
		return nil
	}, nil
}

// Report writes s's report, its calls held.
func (sw *replaySessionsWriter) Report(s sessions.Info, results []window.Result) error {
	if sw.written > 0 && sw.f.Format == "table" {
		if _, err := io.WriteString(sw.w, "\n"); err != nil {
			return err
		}
	}
	rep := Replay{Transcript: s.Transcript, Strategies: results}
	var err error
	switch sw.f.Format {
	case "json":
		err = NewReplayJSONWriter(sw.w).WriteReport(&rep)
	case "jsonl":
		err = replayWriteCallLines(sw.w, &rep, s.File, s.Several)
	default:
		err = WriteReplayTables(sw.w, &rep, sw.f.Tables)
	}
	if err != nil {
		return err
	}
	sw.written++
	sw.keepFirst(s, results)
	return nil
}

// Totals writes the rows of s's totals, for JSON (the bytes of the
// whole [sessions.Report]'s, the grand totals left for End) or JSON
// lines, and lets them go; a table holds them, and s's report.
func (sw *replaySessionsWriter) Totals(s sessions.Info, results []window.Result, rows []sessions.SessionTotals) error {
	if sw.f.Format == "table" {
		tj := s.Transcript
		tj.File = s.File
		sw.kept = append(sw.kept, Replay{Transcript: tj, Strategies: results})
		sw.keptRows = append(sw.keptRows, rows...)
	} else if err := sw.writeRows(rows); err != nil {
		return err
	}
	sw.written++
	sw.keepFirst(s, results)
	return nil
}

// writeRows writes rows of the totals as JSON lines, or as the
// "sessions" of the whole report's JSON.
func (sw *replaySessionsWriter) writeRows(rows []sessions.SessionTotals) error {
	for _, row := range rows {
		if sw.f.Format == "jsonl" {
			if err := replayEncodeJSON(sw.w, row); err != nil {
				return err
			}
			continue
		}
		sep := ",\n    "
		if sw.rows == 0 {
			sep = "{\n  \"sessions\": [\n    "
		}
		sw.rows++
		if _, err := io.WriteString(sw.w, sep); err != nil {
			return err
		}
		if err := replayEncodeIndented(sw.w, row, "    "); err != nil {
			return err
		}
	}
	return nil
}

// End writes the grand totals of several sessions, if any.
func (sw *replaySessionsWriter) End(totals []sessions.StrategyTotals) error {
	switch {
	case totals == nil:
		return nil
	case sw.f.Format == "table":
		rep := &sessions.Report{Sessions: sw.keptRows, Totals: totals}
		return WriteReplayTotalsTable(sw.w, rep, sw.kept, sw.f.Tables)
	case sw.f.Format == "jsonl":
		for _, t := range totals {
			if err := replayEncodeJSON(sw.w, t); err != nil {
				return err
			}
		}
		return nil
	}
	end := "\n  ],\n  \"totals\": "
	if sw.rows == 0 {
		end = "{\n  \"sessions\": [],\n  \"totals\": "
	}
	if _, err := io.WriteString(sw.w, end); err != nil {
		return err
	}
	if err := replayEncodeIndented(sw.w, totals, "  "); err != nil {
		return err
	}
	_, err := io.WriteString(sw.w, "\n}\n")
	return err
}

// keepFirst keeps the first session's report for
// ReplaySessionsResult.First: its file always named, its results only
// for a plot.
func (sw *replaySessionsWriter) keepFirst(s sessions.Info, results []window.Result) {
	if s.Index != 0 {
		return
	}
	sw.first = Replay{Transcript: s.Transcript}
	sw.first.Transcript.File = s.File
	if sw.f.Plot {
		sw.first.Strategies = results
	}
}

// replayWriteCallLines writes rep's calls held, a [ReplayCallLine] each.
func replayWriteCallLines(w io.Writer, rep *Replay, file string, several bool) error {
	for _, res := range rep.Strategies {
		ev := 0
		for _, c := range res.Calls {
			line := ReplayCallLine{Strategy: res.Strategy, Call: c}
			if several {
				line.File, line.Conversation = file, rep.Transcript.ID
			}
			if ev < len(res.Events) && res.Events[ev].Call == c.Call {
				line.Compaction = &res.Events[ev]
				ev++
			}
			if err := replayEncodeJSON(w, line); err != nil {
				return err
			}
		}
	}
	return nil
}

// replayEncodeIndented writes v as an encoder indenting by two spaces
// writes it at a depth whose lines start with prefix, without the
// newline after.
func replayEncodeIndented(w io.Writer, v any, prefix string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}

// replayEncodeJSON writes v as JSON on one line, without HTML escaping.
func replayEncodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
