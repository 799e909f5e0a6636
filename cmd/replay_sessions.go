package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// replayed is one transcript's replay.
type replayed struct {
	file    string
	t       *transcript.Transcript
	results []window.Result
	// messages is the conversation's length where t was let go after
	// its replay (t then keeps only its ID, format and turns).
	messages int
}

// messageCount is the number of messages of the run's conversation.
func (r *replayed) messageCount() int {
	if r.t.Messages == nil {
		return r.messages
	}
	return len(r.t.Messages)
}

// info is what the report says of the session; file only when the run
// reads several.
func (r *replayed) info(several bool) window.TranscriptInfo {
	tj := window.TranscriptInfo{Format: string(r.t.Format), Messages: r.messageCount(), Turns: r.t.Turns, ID: r.t.ID}
	if several {
		tj.File = r.file
	}
	return tj
}

// light is r without its messages: what the plot and the sessions'
// list read of it.
func (r *replayed) light() replayed {
	return replayed{file: r.file, results: r.results, messages: r.messageCount(),
		t: &transcript.Transcript{ID: r.t.ID, Format: r.t.Format, Turns: r.t.Turns}}
}

// readReplayInputs reads every input (files and directories, in parallel,
// in argument order, as every transcript command reads them) and returns
// the conversations to replay, --conversation applied.
func readReplayInputs(a *app, job *replayJob) ([]replayed, error) {
	type inputFile struct {
		name string
		ts   []*transcript.Transcript
	}
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, job.files, func(name string, r io.Reader) (inputFile, error) {
		ts, err := transcript.Read(r, name, job.inputFormat)
		if err != nil {
			return inputFile{}, inputError(err)
		}
		return inputFile{name, ts}, nil
	})
	if err != nil {
		return nil, err
	}
	var runs []replayed
	for _, f := range files {
		a.warnTranscripts(f.ts)
		for _, t := range f.ts {
			if job.conversation == "" || t.ID == job.conversation {
				runs = append(runs, replayed{file: f.name, t: t})
			}
		}
	}
	if err := job.noConversation(len(runs)); err != nil {
		return nil, err
	}
	return runs, nil
}

// noConversation is the error of --conversation matching none of the n
// sessions read.
func (job *replayJob) noConversation(n int) error {
	if job.conversation != "" && n == 0 {
		return usageErrorf("--conversation: no conversation with id %q", job.conversation)
	}
	return nil
}

// classifySessions reads the inputs, quietly and in order, until one
// session is an agent loop ([window.IsAgentLoop]), and says whether one
// is: holding no transcript longer than it takes to read it, and reading
// no further than the first agent loop (the defaults are then the agent
// loops', whatever follows).
func classifySessions(a *app, job *replayJob) (bool, error) {
	agent := false
	err := eachTranscriptFile(a, readRules{once: true, refuseEmpty: true, quiet: true}, job.files, func(name string, r io.Reader) (bool, error) {
		ts, err := transcript.Read(r, name, job.inputFormat)
		if err != nil {
			return false, inputError(err)
		}
		return slices.ContainsFunc(ts, func(t *transcript.Transcript) bool {
			return (job.conversation == "" || t.ID == job.conversation) && window.IsAgentLoop(t)
		}), nil
	}, func(isAgent bool) error {
		if isAgent {
			agent = true
			return errAgentFound
		}
		return nil
	})
	if errors.Is(err, errAgentFound) {
		err = nil
	}
	return agent, err
}

// errAgentFound ends classifySessions' read at the first agent loop.
var errAgentFound = errors.New("an agent loop")

// replayRuns replays every run into run.results: several at once when
// there are several (bounded workers, results in input order), one after
// the other with --distill-cmd (its runs are the user's command) or
// several --context-window limits.
func (job *replayJob) replayRuns(a *app, runs []replayed) error {
	if len(runs) > 1 && !job.distill && job.limits == nil {
		ropts := job.ropts
		ropts.Progress = nil
		ts := make([]*transcript.Transcript, len(runs))
		for i := range runs {
			ts[i] = runs[i].t
		}
		res, err := window.ReplayAll(a.ctx, ts, job.strategies, ropts, 0)
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
		res, err := job.replayHeld(a, &runs[i], job.ropts)
		if err != nil {
			return err
		}
		runs[i].results = res
	}
	return nil
}

// replayHeld replays one session, keeping its calls: under each of
// several --context-window limits (window.ReplayLimits) or the one.
func (job *replayJob) replayHeld(a *app, run *replayed, ropts window.ReplayOptions) ([]window.Result, error) {
	if job.limits == nil {
		return job.replay(a, run, ropts)
	}
	res, err := window.ReplayLimits(a.ctx, run.t, job.strategies, ropts, job.limits)
	return res, job.replayErr(a, run, err)
}

// replay replays run under the strategies with ropts, its errors named
// after its file.
func (job *replayJob) replay(a *app, run *replayed, ropts window.ReplayOptions) ([]window.Result, error) {
	res, err := window.Replay(a.ctx, run.t, job.strategies, ropts)
	return res, job.replayErr(a, run, err)
}

// replayErr is err of a replay of run, named after its file (nil for
// nil).
func (job *replayJob) replayErr(a *app, run *replayed, err error) error {
	if err == nil {
		return nil
	}
	if a.ctx.Err() != nil {
		return a.ctx.Err()
	}
	return replayError(run.file, err)
}

// readAndReplayTotals reads every input as readReplayInputs does (files
// on a few workers, results in argument order, bad input stops the run
// before anything is written) and replays each conversation as soon as
// its file is read, keeping only the totals (window.ReplayTotals): each
// transcript is let go once replayed but for its ID, format and turns. A
// replay's error (a sum too large) counts as its file's error.
func readAndReplayTotals(a *app, job *replayJob) (runs []replayed, warnings []*transcript.Error, err error) {
	type inputFile struct {
		runs     []replayed
		warnings []*transcript.Error
	}
	ropts := job.ropts
	if len(job.files) != 1 || job.files[0] != "-" && !isRegular(job.files[0]) {
		ropts.Progress = nil // several files at once: no one progress line
	}
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, job.files, func(name string, r io.Reader) (inputFile, error) {
		ts, err := transcript.Read(r, name, job.inputFormat)
		if err != nil {
			return inputFile{}, inputError(err)
		}
		var f inputFile
		for _, t := range ts {
			f.warnings = append(f.warnings, t.Warnings...)
			if job.conversation != "" && t.ID != job.conversation {
				continue
			}
			run := replayed{file: name, t: t}
			res, err := window.ReplayTotals(a.ctx, t, job.strategies, ropts)
			if err := job.replayErr(a, &run, err); err != nil {
				return inputFile{}, err
			}
			run.results = res
			f.runs = append(f.runs, run.light())
		}
		return f, nil
	})
	if ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		warnings = append(warnings, f.warnings...)
		runs = append(runs, f.runs...)
	}
	if err := job.noConversation(len(runs)); err != nil {
		return nil, nil, err
	}
	return runs, warnings, nil
}

// warn writes the readers' warnings on stderr.
func (a *app) warn(warnings []*transcript.Error) {
	for _, w := range warnings {
		fmt.Fprintf(a.io.Err, "harpe: warning: %v\n", w)
	}
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

// runTotals writes --totals. Over many files without a plot, a
// --distill-cmd or several limits, each file is replayed as it is read
// and let go, a few at once, so memory holds a few transcripts and every
// session's totals, not every session. held are the sessions already
// read, if any.
func (job *replayJob) runTotals(a *app, held []replayed) error {
	runs := held
	if runs == nil && job.streamsTotals() {
		if job.out.format != "table" && job.oneSession(a) {
			// JSON of one session writes its calls: replayed once, call
			// by call, rather than for its totals and then again.
			return job.streamSessions(a, nil)
		}
		runs, warnings, err := readAndReplayTotals(a, job)
		if err != nil {
			return err
		}
		if len(runs) == 1 && job.out.format != "table" {
			// One session found only by reading (a directory, standard
			// input): replayed again, where the reader's warnings are
			// said.
			return job.streamSessions(a, nil)
		}
		a.warn(warnings)
		if len(runs) > 1 {
			return job.sessionsTotals(a, runs)
		}
		return job.writeHeld(a, runs[0])
	}
	if runs == nil {
		var err error
		if runs, err = readReplayInputs(a, job); err != nil {
			return err
		}
	}
	if len(runs) > 1 {
		if err := job.replayRuns(a, runs); err != nil {
			return err
		}
		return job.sessionsTotals(a, runs)
	}
	return job.streamSessions(a, runs)
}

// oneSession is whether the input is one regular file that holds one
// session to replay (one conversation, or the one --conversation names),
// found by a quiet read that keeps nothing (the file is read again for
// the replay; reading costs far less than replaying). Any error reading
// it says false: the reading proper reports it.
func (job *replayJob) oneSession(a *app) bool {
	if len(job.files) != 1 || !isRegular(job.files[0]) {
		return false
	}
	n := 0
	err := eachTranscriptFile(a, readRules{once: true, refuseEmpty: true, quiet: true}, job.files, func(name string, r io.Reader) (int, error) {
		err := transcript.Scan(a.ctx, r, name, job.inputFormat, func(*transcript.Transcript, *transcript.Message) error { return nil },
			func(t *transcript.Transcript) error {
				if job.conversation == "" || t.ID == job.conversation {
					if n++; n > 1 {
						return errSeveral
					}
				}
				return nil
			})
		return n, err
	}, func(int) error { return nil })
	return err == nil && n == 1
}

// errSeveral ends oneSession's read at a second session.
var errSeveral = errors.New("several sessions")

// writeHeld writes the report of one session replayed already.
func (job *replayJob) writeHeld(a *app, run replayed) error {
	a.noteUnpriced(a.io.Err, map[string]bool{}, run.results)
	return a.writeOutput(job.out.output, func(w io.Writer) error {
		return writeReplay(w, job.out, run, false)
	})
}

// sessionsTotals writes --totals over several sessions: one row per
// session and strategy and a grand total per strategy (table), the
// window.SessionsReport (json), or one line per row and then per grand
// total (jsonl).
func (job *replayJob) sessionsTotals(a *app, runs []replayed) error {
	rep := window.NewSessionsReport()
	for _, run := range runs {
		if err := rep.Add(run.file, run.t.ID, run.results); err != nil {
			return inputError(fmt.Errorf("%s: %w", run.file, err))
		}
	}
	if job.out.plot != "" {
		if err := a.stageFile(job.out.plot, func(w io.Writer) error { return plotReplay(w, job.out, runs[0]) }); err != nil {
			return err
		}
		a.notePlotSession(len(runs), runs[0].file, runs[0].t.ID)
	}
	return a.writeOutput(job.out.output, func(w io.Writer) error {
		return writeSessionsTotals(w, job.out, runs, rep)
	})
}
