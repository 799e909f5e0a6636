package cmd

import (
	"bytes"
	"fmt"
	"io"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// readAhead is how many files eachTranscriptFile reads (and, for held
// reports, replays) ahead of the one being written.
const readAhead = 1

// eachTranscriptFile reads the inputs as readTranscriptFiles does (bad
// input stops the run, a file under a directory that holds no transcript
// is skipped and counted, the skip summary comes last) and hands each
// file's result to emit in argument order, as soon as it and those
// before it are read: readAhead files are read ahead of emit
// ([pool.Ahead]), so memory holds a few files' results, not all. The
// first error in argument order ends the run.
func eachTranscriptFile[T any](a *app, rules readRules, args []string, read func(name string, r io.Reader) (T, error), emit func(T) error) error {
	ins, err := expandInputs(a, rules, args)
	if err != nil {
		return err
	}
	type result struct {
		v   T
		err error
	}
	n := 0
	err = pool.Ahead(a.ctx, len(ins.ins), readAhead, func(i int) result {
		v, err := readInput(a, rules, ins.ins[i], read)
		return result{v, err}
	}, func(i int, r result) error {
		skipped, err := ins.skip(i, r.err)
		if err != nil || skipped {
			return err
		}
		n++
		return emit(r.v)
	})
	if err != nil {
		return err
	}
	return ins.finish(a, rules, args, n)
}

// replayFile is one input file, read (and, for held reports, replayed).
type replayFile struct {
	runs     []replayed
	warnings bytes.Buffer
}

// streamSessions replays the sessions in input order and writes each as
// soon as it is replayed: read, replay, write, let go, one session at a
// time, so memory holds a few sessions, not all. The JSON of one limit
// is written call by call (window.ReportWriter); a table, or the
// reports of several limits or of a --distill-cmd, holds one session's
// calls. held are the sessions already read, if any. The output is
// staged (standard output spooled), so bad input in a later file still
// leaves nothing written.
func (job *replayJob) streamSessions(a *app, held []replayed) error {
	s := &sessionWriter{job: job, a: a, callByCall: job.out.format != "table" && !job.distill && job.limits == nil}
	err := a.writeOutput(job.out.output, func(w io.Writer) error {
		s.w, s.notes = w, a.io.Err
		if held != nil {
			for _, run := range held {
				if err := s.add(run); err != nil {
					return err
				}
			}
			return s.finish()
		}
		var notes bytes.Buffer // after the skip summary, as when every file was read first
		s.notes = &notes
		var warnings bytes.Buffer
		err := eachTranscriptFile(a, readRules{once: true, refuseEmpty: true}, job.files, s.read, func(f *replayFile) error {
			warnings.Write(f.warnings.Bytes())
			for _, run := range f.runs {
				if err := s.add(run); err != nil {
					return err
				}
			}
			return nil
		})
		if err == nil {
			err = s.finish()
		}
		if err == nil {
			a.io.Err.Write(warnings.Bytes())
			a.io.Err.Write(notes.Bytes())
		}
		return err
	})
	if job.ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil || job.out.plot == "" {
		return err
	}
	a.notePlotSession(s.n, s.first.file, s.first.t.ID)
	return a.stageFile(job.out.plot, func(w io.Writer) error { return plotReplay(w, job.out, s.first) })
}

// sessionWriter writes the sessions' reports one after the other. The
// first is written once a second is read, or the input ends: whether
// there are several (each then named by its file) is known by then.
type sessionWriter struct {
	job *replayJob
	a   *app
	w   io.Writer
	// notes takes the notes on unpriced models.
	notes io.Writer
	noted map[string]bool
	n     int       // sessions added
	done  int       // sessions written
	first replayed  // the first session, for --plot (its results: what the plot draws)
	next  *replayed // the session read, not yet written
	plot  window.PlotKeeper
	// callByCall writes the JSON as the calls are made; else each
	// session's results are held until it is written.
	callByCall bool
}

// read reads one input file's sessions; for held reports it replays them
// too, several at once for a file of several conversations, so that the
// replays of the next file run while this one is written.
func (s *sessionWriter) read(name string, r io.Reader) (*replayFile, error) {
	job := s.job
	ts, err := transcript.Read(r, name, job.inputFormat)
	if err != nil {
		return nil, inputError(err)
	}
	f := &replayFile{}
	for _, t := range ts {
		for _, w := range t.Warnings {
			fmt.Fprintf(&f.warnings, "harpe: warning: %s\n", escapeControl(w.Error()))
		}
		if job.conversation == "" || t.ID == job.conversation {
			f.runs = append(f.runs, replayed{file: name, t: t})
		}
	}
	if s.callByCall || job.distill {
		return f, nil // replayed as written, one after the other
	}
	if len(f.runs) > 1 && job.limits == nil {
		return f, job.replayRuns(s.a, f.runs)
	}
	ropts := job.ropts
	ropts.Progress = nil // files replayed at once: no one progress line
	for i := range f.runs {
		if f.runs[i].results, err = job.replayHeld(s.a, &f.runs[i], ropts); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// add takes the next session in input order. The first is held until a
// second comes (or the input ends); from the second on, each is written
// at once.
func (s *sessionWriter) add(run replayed) error {
	s.n++
	if s.next != nil {
		if err := s.write(*s.next, true); err != nil {
			return err
		}
		s.next = nil
	}
	if s.n > 1 {
		return s.write(run, true)
	}
	s.next = &run
	return nil
}

// finish writes the last session; it is an error when --conversation
// matched none.
func (s *sessionWriter) finish() error {
	if s.next != nil {
		if err := s.write(*s.next, s.n > 1); err != nil {
			return err
		}
		s.next = nil
	}
	return s.job.noConversation(s.n)
}

// write replays run if it is not yet, writes its report, and lets it go
// but for what --plot draws of the first.
func (s *sessionWriter) write(run replayed, several bool) error {
	job := s.job
	if s.noted == nil {
		s.noted = map[string]bool{}
	}
	if s.done > 0 && job.out.format == "table" {
		if _, err := io.WriteString(s.w, "\n"); err != nil {
			return err
		}
	}
	var err error
	switch {
	case s.callByCall:
		err = s.writeCalls(run, several)
	case run.results == nil:
		if run.results, err = job.replayHeld(s.a, &run, job.ropts); err == nil {
			s.a.noteUnpriced(s.notes, s.noted, run.results)
			err = writeReplay(s.w, job.out, run, several)
		}
	default:
		s.a.noteUnpriced(s.notes, s.noted, run.results)
		err = writeReplay(s.w, job.out, run, several)
	}
	if err != nil {
		return err
	}
	if s.done == 0 && job.out.plot != "" {
		s.first = run.light()
		if s.callByCall {
			s.first.results = s.plot.Results()
		}
	}
	s.done++
	return nil
}

// writeCalls replays run and writes its JSON (or JSON lines) call by
// call; for --plot it keeps what the plot draws of the first session's
// calls.
func (s *sessionWriter) writeCalls(run replayed, several bool) error {
	job := s.job
	opts := job.ropts
	keep := s.done == 0 && job.out.plot != ""
	var rw *window.ReportWriter
	switch job.out.format {
	case "jsonl":
		opts.OnCall = func(name string, c *window.Call, ev *window.Event) error {
			line := callLine{Strategy: name, Call: *c, Compaction: ev}
			if several {
				line.File, line.Conversation = run.file, run.t.ID
			}
			return writeJSONLine(s.w, line)
		}
	default:
		rw = window.NewReportWriter(s.w)
		if err := rw.Begin(run.info(several)); err != nil {
			return err
		}
	}
	opts.OnResult = func(r *window.Result) error {
		s.a.noteUnpriced(s.notes, s.noted, []window.Result{*r})
		return nil
	}
	if keep {
		s.plot.Hook(&opts)
	}
	if rw != nil {
		rw.Hook(&opts)
	}
	if _, err := job.replay(s.a, &run, opts); err != nil {
		return err
	}
	if rw != nil {
		return rw.End()
	}
	return nil
}
