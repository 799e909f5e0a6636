package window

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"iter"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Session is one conversation of a replay over many: its transcript and
// the input it was read from.
type Session struct {
	File       string
	Transcript *transcript.Transcript
}

// SessionsOptions say how [ReplaySessions] replays sessions and writes
// their reports.
type SessionsOptions struct {
	Strategies []Strategy
	// Replay are the replays' options; its Progress is used only where
	// the sessions are replayed one after the other (Workers ≤ 1, the
	// JSON written call by call, InOrder), and its OnCall and OnResult
	// must be nil.
	Replay ReplayOptions
	// Limits, when set, replays each session under each of these
	// context windows ([ReplayLimits]).
	Limits []int
	// InOrder replays the sessions one at a time, in input order, as
	// each is written: for a Summarizing.Distill that runs a command of
	// the user's.
	InOrder bool
	// Workers replays up to this many sessions at once ahead of the one
	// being written, where their calls are held anyway (a table, several
	// limits); ≤ 1 replays each as it is written.
	Workers int
	// Format is "json" (one [Report] per session, written call by call
	// where it can be), "jsonl" (a [CallLine] per call) or "table"
	// ([Report.WriteTables] with Tables, a blank line between sessions).
	Format string
	Tables TableOptions
	// Totals writes only the sessions' totals: a [SessionsReport] (its
	// JSON, a line per row and per grand total, or, when there are
	// several sessions, [SessionsReport.WriteTable]). One session's
	// table is its report's, without a row per call.
	Totals bool
	// Plot keeps the first session's calls as [Report.WritePlot] draws
	// them, in [SessionsResult].First.
	Plot bool
	// OnResult, when set, is given each strategy's result of each
	// session's report, as it is written (not the totals of several).
	OnResult func(r *Result)
}

// SessionsResult is what [ReplaySessions] did.
type SessionsResult struct {
	// Sessions is the number of sessions replayed.
	Sessions int
	// First is the first session's report, its transcript's File always
	// set; its results hold what a plot draws only with
	// [SessionsOptions.Plot].
	First Report
}

// CallLine is one line of the "jsonl" format: a call with its strategy
// and the compaction before it.
type CallLine struct {
	Strategy string `json:"strategy"`
	// File and Conversation name the session when the run reads several.
	File         string `json:"file,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	Call
	Compaction *Event `json:"compaction,omitempty"`
}

// ReplaySessions replays the sessions in the order sessions yields them
// and writes each one's report to w as soon as it is replayed, then lets
// it go, so memory holds a few sessions, not all: the JSON of one limit
// is written call by call ([ReportWriter]); a table or the reports of
// several limits hold one session's calls. The first session is written
// once a second comes, or the input ends: only then is it known whether
// there are several, and each report then names its file (and
// conversation). The totals of several sessions are written a session's
// rows at a time (JSON, JSON lines), the grand totals at the end; a
// table of them holds every session's totals. An error of sessions is
// returned as it is; a replay's is a [*SessionError] naming the
// session's file.
func ReplaySessions(ctx context.Context, w io.Writer, sessions iter.Seq2[Session, error], o SessionsOptions) (SessionsResult, error) {
	if o.Replay.OnCall != nil || o.Replay.OnResult != nil {
		return SessionsResult{}, errors.New("ReplaySessions: OnCall and OnResult must be nil")
	}
	r := &sessionsRun{ctx: ctx, w: w, o: o}
	r.callByCall = o.Format != "table" && !o.InOrder
	ahead := max(o.Workers-1, 1)
	err := pool.Stream(ctx, sessions, ahead, r.prepare, func(i int, s *replayedSession) error {
		return r.add(s)
	})
	if err == nil {
		err = r.finish()
	}
	if err != nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	return SessionsResult{Sessions: r.n, First: r.first}, err
}

// replayedSession is a session and, once replayed, its results.
type replayedSession struct {
	Session
	index   int
	results []Result
	err     error
}

// info is what a report says of s; File only when there are several.
func (s *replayedSession) info(several bool) TranscriptInfo {
	t := s.Transcript
	tj := TranscriptInfo{Format: string(t.Format), Messages: len(t.Messages), Turns: t.Turns, ID: t.ID}
	if several {
		tj.File = s.File
	}
	return tj
}

// sessionsRun is one [ReplaySessions].
type sessionsRun struct {
	ctx context.Context
	w   io.Writer
	o   SessionsOptions
	// callByCall writes the JSON as the calls are made; else each
	// session's results are held until it is written.
	callByCall bool
	n          int              // sessions added
	written    int              // sessions written
	pending    *replayedSession // the first, until a second comes
	first      Report
	plot       PlotKeeper
	totals     *SessionsReport // the totals of several
	kept       []Report        // with totals as a table: each session's
	rows       int             // with totals as JSON: the rows written
}

// prepare replays session i ahead of its writing, on a worker of its
// own, where the run holds its calls anyway and replays several at once;
// else it is replayed as it is written. The first session of a run of
// totals waits: how it is replayed depends on whether there are several.
func (r *sessionsRun) prepare(i int, s Session) *replayedSession {
	rs := &replayedSession{Session: s, index: i}
	held := r.o.Format == "table" || r.o.Limits != nil || r.o.Totals
	if r.o.Workers <= 1 || r.o.InOrder || !held || (i == 0 && r.o.Totals) {
		return rs
	}
	opts := r.o.Replay
	opts.Progress = nil // several at once: no one progress line
	rs.results, rs.err = r.replay(rs, opts, r.o.Totals)
	return rs
}

// replay replays s under opts: under each limit, or keeping only the
// totals, or keeping its calls.
func (r *sessionsRun) replay(s *replayedSession, opts ReplayOptions, totalsOnly bool) ([]Result, error) {
	var res []Result
	var err error
	switch {
	case r.o.Limits != nil:
		res, err = ReplayLimits(r.ctx, s.Transcript, r.o.Strategies, opts, r.o.Limits)
	case totalsOnly && !(r.o.Plot && s.index == 0):
		res, err = ReplayTotals(r.ctx, s.Transcript, r.o.Strategies, opts)
	default:
		res, err = Replay(r.ctx, s.Transcript, r.o.Strategies, opts)
	}
	if err != nil {
		return nil, &SessionError{Index: s.index, File: s.File, Err: err}
	}
	return res, nil
}

// add takes the next session in input order. The first is held until a
// second comes (or the input ends); from the second on, each is written
// at once.
func (r *sessionsRun) add(s *replayedSession) error {
	if s.err != nil {
		return s.err
	}
	r.n++
	if r.n == 1 {
		r.pending = s
		return nil
	}
	if r.pending != nil {
		if err := r.write(r.pending, true); err != nil {
			return err
		}
		r.pending = nil
	}
	return r.write(s, true)
}

// finish writes the last session, or the totals of several.
func (r *sessionsRun) finish() error {
	if r.pending != nil {
		if err := r.write(r.pending, r.n > 1); err != nil {
			return err
		}
		r.pending = nil
	}
	switch {
	case r.totals == nil:
		return nil
	case r.o.Format == "table":
		return r.totals.WriteTable(r.w, r.kept, r.o.Tables)
	case r.o.Format == "jsonl":
		for _, t := range r.totals.Totals {
			if err := encodeJSON(r.w, t, false); err != nil {
				return err
			}
		}
		return nil
	}
	end := "\n  ],\n  \"totals\": "
	if r.rows == 0 {
		end = "{\n  \"sessions\": [],\n  \"totals\": "
	}
	if _, err := io.WriteString(r.w, end); err != nil {
		return err
	}
	if err := encodeIndented(r.w, r.totals.Totals, "  "); err != nil {
		return err
	}
	_, err := io.WriteString(r.w, "\n}\n")
	return err
}

// writeRows writes the rows of the totals added last, for JSON (the
// bytes of the whole [SessionsReport]'s, the grand totals left for
// finish) or JSON lines, and lets them go; a table holds them.
func (r *sessionsRun) writeRows() error {
	rows := r.totals.Sessions
	r.totals.Sessions = rows[:0]
	for _, row := range rows {
		if r.o.Format == "jsonl" {
			if err := encodeJSON(r.w, row, false); err != nil {
				return err
			}
			continue
		}
		sep := ",\n    "
		if r.rows == 0 {
			sep = "{\n  \"sessions\": [\n    "
		}
		r.rows++
		if _, err := io.WriteString(r.w, sep); err != nil {
			return err
		}
		if err := encodeIndented(r.w, row, "    "); err != nil {
			return err
		}
	}
	return nil
}

// write replays s if it is not yet and writes its report (or, for the
// totals of several, adds its totals), then lets it go but for what
// the plot draws of the first and what a table of totals lists.
func (r *sessionsRun) write(s *replayedSession, several bool) error {
	if r.o.Totals && (several || r.o.Format != "table") {
		// JSON and JSON lines write the totals of one session as of
		// several: its calls are not kept, nor written.
		return r.addTotals(s)
	}
	if r.written > 0 && r.o.Format == "table" {
		if _, err := io.WriteString(r.w, "\n"); err != nil {
			return err
		}
	}
	if r.callByCall {
		return r.writeCalls(s, several)
	}
	if s.results == nil {
		var err error
		if s.results, err = r.replay(s, r.o.Replay, false); err != nil {
			return err
		}
	}
	if r.o.OnResult != nil {
		for i := range s.results {
			r.o.OnResult(&s.results[i])
		}
	}
	rep := Report{Transcript: s.info(several), Strategies: s.results}
	var err error
	switch r.o.Format {
	case "json":
		err = NewReportWriter(r.w).WriteReport(&rep)
	case "jsonl":
		err = writeCallLines(r.w, &rep, s.File, several)
	default:
		err = rep.WriteTables(r.w, r.o.Tables)
	}
	if err != nil {
		return err
	}
	r.written++
	r.keepFirst(s, s.results)
	return nil
}

// addTotals adds the totals of s, one of several, replaying it if it is
// not yet.
func (r *sessionsRun) addTotals(s *replayedSession) error {
	if s.results == nil {
		var err error
		if s.results, err = r.replay(s, r.o.Replay, true); err != nil {
			return err
		}
	}
	if r.totals == nil {
		r.totals = NewSessionsReport()
	}
	if err := r.totals.Add(s.File, s.Transcript.ID, s.results); err != nil {
		return &SessionError{Index: s.index, File: s.File, Err: err}
	}
	if r.o.Format == "table" {
		r.kept = append(r.kept, Report{Transcript: s.info(true), Strategies: s.results})
	} else if err := r.writeRows(); err != nil {
		return err
	}
	r.written++
	r.keepFirst(s, s.results)
	return nil
}

// keepFirst keeps the first session's report for SessionsResult.First.
func (r *sessionsRun) keepFirst(s *replayedSession, results []Result) {
	if s.index != 0 {
		return
	}
	r.first = Report{Transcript: s.info(true)}
	if r.o.Plot {
		r.first.Strategies = results
	}
}

// writeCalls replays s and writes its JSON (or JSON lines) call by call;
// for a plot it keeps what the plot draws of the first session's calls.
func (r *sessionsRun) writeCalls(s *replayedSession, several bool) error {
	opts := r.o.Replay
	var rw *ReportWriter
	if r.o.Format == "jsonl" {
		opts.OnCall = func(name string, c *Call, ev *Event) error {
			line := CallLine{Strategy: name, Call: *c, Compaction: ev}
			if several {
				line.File, line.Conversation = s.File, s.Transcript.ID
			}
			return encodeJSON(r.w, line, false)
		}
	} else {
		rw = NewReportWriter(r.w)
		if err := rw.Begin(s.info(several)); err != nil {
			return err
		}
	}
	if r.o.OnResult != nil {
		opts.OnResult = func(res *Result) error {
			r.o.OnResult(res)
			return nil
		}
	}
	keep := s.index == 0 && r.o.Plot
	if keep {
		r.plot.Hook(&opts)
	}
	if rw != nil {
		rw.Hook(&opts)
	}
	if r.o.Limits != nil {
		if err := r.replayLimits(s, opts); err != nil {
			return err
		}
	} else if _, err := r.replay(s, opts, false); err != nil {
		return err
	}
	if rw != nil {
		if err := rw.End(); err != nil {
			return err
		}
	}
	r.written++
	r.keepFirst(s, r.plot.Results())
	return nil
}

// replayLimits replays s under each limit as [ReplayLimits] does, its
// results in the same order and with the same names, but one strategy
// under one limit at a time, each call handed to opts' hooks as it is
// made: nothing holds the calls of several limits (two limits of a 10 MB
// session held 4.1 GB, three ran out of memory).
func (r *sessionsRun) replayLimits(s *replayedSession, opts ReplayOptions) error {
	for k := range r.o.Strategies {
		for _, limit := range r.o.Limits {
			o := opts
			o.ContextWindow = limit
			suffix := "@" + limitName(limit)
			if opts.OnCall != nil {
				o.OnCall = func(name string, c *Call, ev *Event) error {
					return opts.OnCall(name+suffix, c, ev)
				}
			}
			if opts.OnResult != nil {
				o.OnResult = func(res *Result) error {
					named := *res
					named.Strategy += suffix
					return opts.OnResult(&named)
				}
			}
			if _, err := Replay(r.ctx, s.Transcript, r.o.Strategies[k:k+1], o); err != nil {
				return &SessionError{Index: s.index, File: s.File, Err: err}
			}
		}
	}
	return nil
}

// writeCallLines writes rep's calls held, a [CallLine] each.
func writeCallLines(w io.Writer, rep *Report, file string, several bool) error {
	for _, res := range rep.Strategies {
		ev := 0
		for _, c := range res.Calls {
			line := CallLine{Strategy: res.Strategy, Call: c}
			if several {
				line.File, line.Conversation = file, rep.Transcript.ID
			}
			if ev < len(res.Events) && res.Events[ev].Call == c.Call {
				line.Compaction = &res.Events[ev]
				ev++
			}
			if err := encodeJSON(w, line, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// encodeIndented writes v as an encoder indenting by two spaces writes
// it at a depth whose lines start with prefix, without the newline after.
func encodeIndented(w io.Writer, v any, prefix string) error {
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

// encodeJSON writes v as JSON without HTML escaping: indented by two
// spaces, or on one line.
func encodeJSON(w io.Writer, v any, indent bool) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	return enc.Encode(v)
}
