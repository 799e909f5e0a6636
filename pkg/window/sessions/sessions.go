package sessions

import (
	"context"
	"errors"
	"iter"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// Session is one conversation of a replay over many: its transcript and
// the input it was read from.
type Session struct {
	File       string
	Transcript *transcript.Transcript
}

// Options say how [Replay] replays sessions and hands
// their reports over.
type Options struct {
	Strategies []window.Strategy
	// Replay are the replays' options; its Progress is used only where
	// the sessions are replayed one after the other (Workers ≤ 1, the
	// calls streamed, InOrder), and its OnCall and OnResult must be nil.
	Replay window.ReplayOptions
	// Limits, when set, replays each session under each of these
	// context windows ([window.ReplayOptions.Limits]).
	Limits []int
	// InOrder replays the sessions one at a time, in input order, as
	// each is handed over: for a Summarizing.Distill that runs a command
	// of the user's.
	InOrder bool
	// Workers replays up to this many sessions at once ahead of the one
	// being handed over, where their calls are held anyway (not
	// streamed, several limits, totals); ≤ 1 replays each as it is handed
	// over.
	Workers int
	// Stream hands each session's calls over as they are made
	// ([Sink.Stream]), holding none, unless InOrder; else each
	// session's results are held and handed over whole
	// ([Sink.Report]).
	Stream bool
	// Totals sums the sessions: each one's rows go to
	// [Sink.Totals], the grand totals to [Sink.End]. With
	// OneAsReport, a run of one session hands its report over instead
	// ([Sink.Report], its calls held).
	Totals      bool
	OneAsReport bool
	// KeepFirst keeps the first session's calls under Totals (replayed
	// with [window.Replay], not with [window.ReplayOptions.Totals]): a
	// plot of it draws them.
	KeepFirst bool
	// OnResult, when set, is given each strategy's result of each
	// session's report, as it is handed over (not the totals of several).
	OnResult func(r *window.Result)
}

// Info names one session of [Replay] as it is handed to a
// [Sink].
type Info struct {
	// Index is the session's place in the input, from 0.
	Index int
	// File is the input the session was read from.
	File string
	// Several tells whether the run holds more than one session: known
	// once a second comes or the input ends, so the first session is
	// handed over only then.
	Several bool
	// Transcript is what the session's report says of its transcript,
	// File set only when Several.
	Transcript window.TranscriptInfo
}

// A Sink is given what [Replay] makes of each session,
// in input order, one at a time: a session's report whole (Report), or
// its calls as they are made (Stream), or its totals (Totals), and at
// the end, End.
type Sink interface {
	// Stream is called before a streamed session is replayed: it sets
	// opts' OnCall and OnResult to take the calls and results as they are
	// made (calling the hooks opts held, when set), and returns done,
	// called once the session's replay has ended.
	Stream(s Info, opts *window.ReplayOptions) (done func() error, err error)
	// Report is given a session's results, its calls held.
	Report(s Info, results []window.Result) error
	// Totals is given a session's results (their calls kept only with
	// KeepFirst, for the first) and its rows of the totals.
	Totals(s Info, results []window.Result, rows []SessionTotals) error
	// End is called once every session is in: with the grand totals of
	// a run of Totals, else with nil.
	End(totals []StrategyTotals) error
}

// Replay replays the sessions in the order sessions yields them
// and hands each one's report to sink as soon as it is replayed, then
// lets it go, so memory holds a few sessions, not all: streamed calls
// ([Options.Stream]) are handed over as they are made, under
// each limit in turn; a report held holds one session's calls. The
// first session is handed over once a second comes, or the input ends:
// only then is it known whether there are several. The totals of several
// sessions are handed over a session's rows at a time, the grand totals
// at the end.
// It returns the number of sessions replayed. An error of sessions is
// returned as it is; a replay's is a [*Error] naming the
// session's file.
func Replay(ctx context.Context, sessions iter.Seq2[Session, error], o Options, sink Sink) (int, error) {
	if o.Replay.OnCall != nil || o.Replay.OnResult != nil {
		return 0, errors.New("Replay: OnCall and OnResult must be nil")
	}
	r := &sessionsRun{ctx: ctx, sink: sink, o: o}
	r.callByCall = o.Stream && !o.InOrder
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
	return r.n, err
}

// replayedSession is a session and, once replayed, its results.
type replayedSession struct {
	Session
	index   int
	results []window.Result
	err     error
}

// info is what the sink is told of s.
func (s *replayedSession) info(several bool) Info {
	t := s.Transcript
	tj := window.TranscriptInfo{Format: string(t.Format), Messages: len(t.Messages), Turns: t.Turns, ID: t.ID}
	if several {
		tj.File = s.File
	}
	return Info{Index: s.index, File: s.File, Several: several, Transcript: tj}
}

// sessionsRun is one [Replay].
type sessionsRun struct {
	ctx  context.Context
	sink Sink
	o    Options
	// callByCall streams the calls as they are made; else each
	// session's results are held until it is handed over.
	callByCall bool
	n          int              // sessions added
	pending    *replayedSession // the first, until a second comes
	totals     *Report          // the totals of several
}

// prepare replays session i ahead of its handing over, on a worker of
// its own, where the run holds its calls anyway and replays several at
// once; else it is replayed as it is handed over. The first session of
// a run of totals waits: how it is replayed depends on whether there are
// several.
func (r *sessionsRun) prepare(i int, s Session) *replayedSession {
	rs := &replayedSession{Session: s, index: i}
	held := !r.o.Stream || r.o.Limits != nil || r.o.Totals
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
func (r *sessionsRun) replay(s *replayedSession, opts window.ReplayOptions, totalsOnly bool) ([]window.Result, error) {
	var res []window.Result
	var err error
	switch {
	case r.o.Limits != nil:
		opts.Limits = r.o.Limits
		res, err = window.Replay(r.ctx, s.Transcript, r.o.Strategies, opts)
	case totalsOnly && !(r.o.KeepFirst && s.index == 0):
		opts.Totals = true
		res, err = window.Replay(r.ctx, s.Transcript, r.o.Strategies, opts)
	default:
		res, err = window.Replay(r.ctx, s.Transcript, r.o.Strategies, opts)
	}
	if err != nil {
		return nil, &Error{Index: s.index, File: s.File, Err: err}
	}
	return res, nil
}

// add takes the next session in input order. The first is held until a
// second comes (or the input ends); from the second on, each is handed
// over at once.
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
		if err := r.hand(r.pending, true); err != nil {
			return err
		}
		r.pending = nil
	}
	return r.hand(s, true)
}

// finish hands over the last session, then the totals of several.
func (r *sessionsRun) finish() error {
	if r.pending != nil {
		if err := r.hand(r.pending, r.n > 1); err != nil {
			return err
		}
		r.pending = nil
	}
	if r.totals == nil {
		return r.sink.End(nil)
	}
	return r.sink.End(r.totals.Totals)
}

// hand replays s if it is not yet and hands its report over (or, for
// the totals of several, its totals), then lets it go.
func (r *sessionsRun) hand(s *replayedSession, several bool) error {
	if r.o.Totals && (several || !r.o.OneAsReport) {
		// The totals of one session are handed over as of several: its
		// calls are not kept.
		return r.addTotals(s, several)
	}
	if r.callByCall {
		return r.stream(s, several)
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
	return r.sink.Report(s.info(several), s.results)
}

// addTotals adds the totals of s, replaying it if it is not yet, and
// hands its rows over.
func (r *sessionsRun) addTotals(s *replayedSession, several bool) error {
	if s.results == nil {
		var err error
		if s.results, err = r.replay(s, r.o.Replay, true); err != nil {
			return err
		}
	}
	if r.totals == nil {
		r.totals = NewReport()
	}
	if err := r.totals.Add(s.File, s.Transcript.ID, s.results); err != nil {
		return &Error{Index: s.index, File: s.File, Err: err}
	}
	rows := r.totals.Sessions
	r.totals.Sessions = rows[:0:0]
	return r.sink.Totals(s.info(several), s.results, rows)
}

// stream replays s, its calls handed to the sink as they are made.
func (r *sessionsRun) stream(s *replayedSession, several bool) error {
	opts := r.o.Replay
	if r.o.OnResult != nil {
		opts.OnResult = func(res *window.Result) error {
			r.o.OnResult(res)
			return nil
		}
	}
	done, err := r.sink.Stream(s.info(several), &opts)
	if err != nil {
		return err
	}
	// Under several limits, window.Replay streams one strategy under
	// one limit at a time: nothing holds the calls of several limits.
	if _, err := r.replay(s, opts, false); err != nil {
		return err
	}
	return done()
}
