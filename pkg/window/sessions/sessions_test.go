package sessions_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

// sinkLog is a [sessions.Sink] that writes down what it is handed,
// a line each.
type sinkLog struct{ lines []string }

func (l *sinkLog) add(format string, args ...any) {
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *sinkLog) Stream(s sessions.Info, opts *window.ReplayOptions) (func() error, error) {
	l.add("stream %d %s several=%t file=%q", s.Index, s.File, s.Several, s.Transcript.File)
	onCall, onResult := opts.OnCall, opts.OnResult
	opts.OnCall = func(name string, c *window.Call, ev *window.Event) error {
		l.add("call %s %d %d", name, c.Call, c.Tokens)
		if onCall != nil {
			return onCall(name, c, ev)
		}
		return nil
	}
	opts.OnResult = func(r *window.Result) error {
		l.add("result %s %d", r.Strategy, r.Totals.TokensSent)
		if onResult != nil {
			return onResult(r)
		}
		return nil
	}
	return func() error { l.add("done %d", s.Index); return nil }, nil
}

func (l *sinkLog) Report(s sessions.Info, results []window.Result) error {
	l.add("report %d %s several=%t file=%q calls=%d", s.Index, s.File, s.Several, s.Transcript.File, len(results[0].Calls))
	return nil
}

func (l *sinkLog) Totals(s sessions.Info, results []window.Result, rows []sessions.SessionTotals) error {
	var rs []string
	for _, r := range rows {
		rs = append(rs, fmt.Sprintf("%s:%s:%d", r.File, r.Strategy, r.TokensSent))
	}
	l.add("totals %d several=%t calls=%d rows=%s", s.Index, s.Several, len(results[0].Calls), strings.Join(rs, ","))
	return nil
}

func (l *sinkLog) End(totals []sessions.StrategyTotals) error {
	if totals == nil {
		l.add("end")
		return nil
	}
	for _, t := range totals {
		l.add("end %s sessions=%d sent=%d", t.Strategy, t.Sessions, t.TokensSent)
	}
	return nil
}

// TestReplaySink: what a sessions replay hands its sink, in
// order, for each way of taking the reports. a.jsonl records calls of 5
// and 7 input tokens, b.jsonl one of 3; full sends what is recorded, so
// a's totals are 12 and the grand total 15 over 3 calls. The first
// session is handed over only once it is known whether there are
// several.
func TestReplaySink(t *testing.T) {
	a := sessions.Session{File: "a.jsonl", Transcript: usageSession(5, 7)}
	b := sessions.Session{File: "b.jsonl", Transcript: usageSession(3)}
	tests := []struct {
		name     string
		sessions []sessions.Session
		o        sessions.Options
		want     []string
	}{
		{"streamed, two", []sessions.Session{a, b}, sessions.Options{Stream: true}, []string{
			`stream 0 a.jsonl several=true file="a.jsonl"`, "call full 1 5", "call full 2 7", "result full 12", "done 0",
			`stream 1 b.jsonl several=true file="b.jsonl"`, "call full 1 3", "result full 3", "done 1", "end"}},
		{"streamed, one", []sessions.Session{a}, sessions.Options{Stream: true}, []string{
			`stream 0 a.jsonl several=false file=""`, "call full 1 5", "call full 2 7", "result full 12", "done 0", "end"}},
		{"held, two, a few at once", []sessions.Session{a, b}, sessions.Options{Workers: 3}, []string{
			`report 0 a.jsonl several=true file="a.jsonl" calls=2`, `report 1 b.jsonl several=true file="b.jsonl" calls=1`, "end"}},
		// A Distill command of the user's: one at a time, held.
		{"streamed in order", []sessions.Session{a}, sessions.Options{Stream: true, InOrder: true}, []string{
			`report 0 a.jsonl several=false file="" calls=2`, "end"}},
		{"totals, two", []sessions.Session{a, b}, sessions.Options{Totals: true, Workers: 2}, []string{
			"totals 0 several=true calls=0 rows=a.jsonl:full:12", "totals 1 several=true calls=0 rows=b.jsonl:full:3",
			"end full sessions=2 sent=15"}},
		{"totals, two, the first kept", []sessions.Session{a, b}, sessions.Options{Totals: true, KeepFirst: true}, []string{
			"totals 0 several=true calls=2 rows=a.jsonl:full:12", "totals 1 several=true calls=0 rows=b.jsonl:full:3",
			"end full sessions=2 sent=15"}},
		{"totals, one", []sessions.Session{a}, sessions.Options{Totals: true, Stream: true}, []string{
			"totals 0 several=false calls=0 rows=a.jsonl:full:12", "end full sessions=1 sent=12"}},
		{"totals, one as a report", []sessions.Session{a}, sessions.Options{Totals: true, OneAsReport: true}, []string{
			`report 0 a.jsonl several=false file="" calls=2`, "end"}},
		{"totals, two, one as a report", []sessions.Session{a, b}, sessions.Options{Totals: true, OneAsReport: true}, []string{
			"totals 0 several=true calls=0 rows=a.jsonl:full:12", "totals 1 several=true calls=0 rows=b.jsonl:full:3",
			"end full sessions=2 sent=15"}},
		{"none", nil, sessions.Options{Totals: true}, []string{"end"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := tt.o
			o.Strategies = []window.Strategy{full}
			o.Replay = window.ReplayOptions{Options: window.DefaultOptions()}
			var log sinkLog
			n, err := sessions.Replay(context.Background(), func(yield func(sessions.Session, error) bool) {
				for _, s := range tt.sessions {
					if !yield(s, nil) {
						return
					}
				}
			}, o, &log)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(tt.sessions) {
				t.Errorf("%d sessions, want %d", n, len(tt.sessions))
			}
			if got, want := strings.Join(log.lines, "\n"), strings.Join(tt.want, "\n"); got != want {
				t.Errorf("handed over:\n%s\nwant:\n%s", got, want)
			}
		})
	}
	o := sessions.Options{Strategies: []window.Strategy{full},
		Replay: window.ReplayOptions{Options: window.DefaultOptions(), OnResult: func(*window.Result) error { return nil }}}
	if _, err := sessions.Replay(context.Background(), func(func(sessions.Session, error) bool) {}, o, &sinkLog{}); err == nil {
		t.Error("Replay.OnResult set: no error")
	}
}
