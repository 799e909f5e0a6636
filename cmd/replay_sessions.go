package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"runtime"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
	"github.com/harpe-dev/harpe/pkg/window/summary"
	"github.com/harpe-dev/harpe/report"
)

// sessions reads the inputs in argument order (directories walked, a
// file that holds no transcript skipped and counted, bad input an error
// in its place) and yields each conversation --conversation selects as
// soon as it is read (transcript.Scan), its messages gathered: a file of
// many conversations costs about one at a time. The readers' warnings go
// to job.warnings; quiet leaves out the notes and warnings, for a first
// look at inputs that are read again.
func (job *replayJob) sessions(a *app, quiet bool) iter.Seq2[sessions.Session, error] {
	return func(yield func(sessions.Session, error) bool) {
		rules := readRules{once: true, refuseEmpty: true, quiet: quiet}
		set, err := openInputs(a, rules, job.files)
		if err != nil {
			yield(sessions.Session{}, err)
			return
		}
		stopped := false
		err = set.Each(a.ctx, func(name string, r io.Reader) error {
			read := map[*transcript.Transcript][]transcript.Message{}
			err := transcript.Scan(a.ctx, r, name, job.inputFormat, func(t *transcript.Transcript, m *transcript.Message) error {
				read[t] = append(read[t], *m)
				return nil
			}, func(t *transcript.Transcript) error {
				t.Messages = read[t]
				delete(read, t)
				if !quiet {
					job.warnings = append(job.warnings, t.Warnings...)
				}
				if job.conversation != "" && t.ID != job.conversation || yield(sessions.Session{File: name, Transcript: t}, nil) {
					return nil
				}
				stopped = true
				return errStopped
			})
			if stopped {
				return errStopped
			}
			return inputError(err)
		})
		if stopped {
			return
		}
		if err == nil {
			err = finishInputs(a, rules, job.files, set)
		}
		if err != nil {
			yield(sessions.Session{}, inputError(err))
		}
	}
}

// errStopped ends the reading of sessions whose consumer has stopped.
var errStopped = errors.New("stopped")

// heldSessions reads every session of the inputs and holds them: standard
// input, which cannot be read twice, when the defaults depend on every
// session; --show-call's one session.
func (job *replayJob) heldSessions(a *app) ([]sessions.Session, error) {
	var held []sessions.Session
	for s, err := range job.sessions(a, false) {
		if err != nil {
			return nil, err
		}
		held = append(held, s)
	}
	return held, job.noConversation(len(held))
}

// anyAgentLoop reads the inputs quietly, in order, until one session is
// an agent loop ((isAgentLoop)), and says whether one is: holding
// no session longer than it takes to read it, and reading no further
// than the first agent loop (the defaults are then the agent loops',
// whatever follows).
func (job *replayJob) anyAgentLoop(a *app) (bool, error) {
	for s, err := range job.sessions(a, true) {
		if err != nil {
			return false, err
		}
		if isAgentLoop(s.Transcript) {
			return true, nil
		}
	}
	return false, nil
}

// noConversation is the error of --conversation matching none of the n
// sessions read.
func (job *replayJob) noConversation(n int) error {
	if job.conversation != "" && n == 0 {
		return usageErrorf("--conversation: no conversation with id %q", job.conversation)
	}
	return nil
}

// runSessions replays the sessions (held, when read already) in input
// order and writes each as soon as it is replayed (report.WriteReplaySessions),
// or with --totals over several their totals. One input is replayed a
// session at a time, with its progress line; several a few at once where
// the report holds the calls anyway. The output is staged (standard
// output spooled), so bad input in a later file still leaves nothing
// written; the readers' warnings and the notes on unpriced models come
// after the skip summary, as when every file was read first.
func (job *replayJob) runSessions(a *app, held []sessions.Session) error {
	src := job.sessions(a, false)
	if held != nil {
		src = func(yield func(sessions.Session, error) bool) {
			for _, s := range held {
				if !yield(s, nil) {
					return
				}
			}
		}
	}
	o := sessions.Options{Strategies: job.strategies, Replay: job.ropts, Limits: job.limits, InOrder: job.distill,
		Workers: runtime.GOMAXPROCS(0), Totals: job.out.totalsOnly}
	f := report.ReplaySessionsOptions{Format: job.out.format, Plot: job.out.plot != ""}
	if len(job.files) <= 1 && (len(job.files) == 0 || job.files[0] == "-" || isRegular(job.files[0])) {
		o.Workers = 1
	}
	var notes bytes.Buffer
	noted := map[string]bool{}
	o.OnResult = func(r *window.Result) {
		if r.Totals.CostTotals != nil {
			noteNoPrices(&notes, noted, r.Totals.UnpricedModels)
		}
	}
	var res report.ReplaySessionsResult
	err := a.writeOutput(job.out.output, func(w io.Writer) error {
		f.Tables = replayTables(w, job.out)
		var err error
		if res, err = report.WriteReplaySessions(a.ctx, w, src, o, f); err != nil {
			if a.ctx.Err() == nil {
				// what the readers warned of may explain the failure
				a.writeWarnings(job.warnings, false)
			}
			return sessionsError(a, err)
		}
		if err := job.noConversation(res.Sessions); err != nil {
			return err
		}
		a.writeWarnings(job.warnings, false)
		a.io.Err.Write(notes.Bytes())
		return nil
	})
	if job.ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil || job.out.plot == "" {
		return err
	}
	a.notePlotSession(res.Sessions, res.First.Transcript.File, res.First.Transcript.ID)
	return a.stageFile(job.out.plot, func(w io.Writer) error { return plotReplay(w, job.out, res.First) })
}

// sessionsError is err of report.WriteReplaySessions as harpe reports it: a
// session's failure named after its file.
func sessionsError(a *app, err error) error {
	if a.ctx.Err() != nil {
		return a.ctx.Err()
	}
	var se *sessions.Error
	if errors.As(err, &se) {
		return replayError(se.File, se.Err)
	}
	return err
}

// isRegular reports whether name is a regular file (following links).
func isRegular(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// replayError is a replay's failure on file: a --distill-cmd failure is
// a usage error, anything else (a sum too large) bad input.
func replayError(file string, err error) error {
	var de *summary.Error
	if errors.As(err, &de) {
		return usageErrorf("--distill-cmd: %s: %v", file, de.Err)
	}
	return inputError(fmt.Errorf("%s: %w", file, err))
}

// replayTables is how the replay tables written to w are drawn.
func replayTables(w io.Writer, out replayOut) report.ReplayTableOptions {
	o := tableOptionsOf(w)
	return report.ReplayTableOptions{Width: o.Width, EastAsian: o.EastAsian, Note: out.chosen, TotalsOnly: out.totalsOnly}
}
