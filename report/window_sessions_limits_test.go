package report_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
	"github.com/harpe-dev/harpe/report"
)

// eventLog records, in order, the replays' progress starts and the
// writes of the report.
type eventLog struct {
	events []string
	out    bytes.Buffer
}

func (l *eventLog) Write(p []byte) (int, error) {
	if n := len(l.events); n == 0 || l.events[n-1] != "write" {
		l.events = append(l.events, "write")
	}
	return l.out.Write(p)
}

// Several context windows are written call by call, as one is (issue 35
// item 3: two limits of a 10 MB session held 4.1 GB): the JSON is
// byte for byte the report of Replay with Limits written whole, and the first
// write comes before the last strategy under the last limit starts.
func TestReplaySessionsLimitsStreamed(t *testing.T) {
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 7, AgentCalls: 30, Overhead: 100, MaxToolChars: 2000})
	o := window.DefaultOptions()
	var strategies []window.Strategy
	for _, spec := range []string{"full", "clear", "mask"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	limits := []int{3000, 8000}
	ro := window.ReplayOptions{Options: o, Indices: true}
	lo := ro
	lo.Limits = limits
	res, err := window.Replay(context.Background(), tr, strategies, lo)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	rep := report.Replay{Transcript: window.TranscriptInfo{Format: string(tr.Format), Messages: len(tr.Messages), Turns: tr.Turns}, Strategies: res}
	if err := report.NewReplayJSONWriter(&want).WriteReport(&rep); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "jsonl"} {
		log := &eventLog{}
		opts := ro
		opts.Progress = func(strategy string, done, total int) {
			if done == 0 {
				log.events = append(log.events, "start "+strategy)
			}
		}
		seq := func(yield func(sessions.Session, error) bool) {
			yield(sessions.Session{File: "s.jsonl", Transcript: tr}, nil)
		}
		if _, err := report.WriteReplaySessions(context.Background(), log, seq, sessions.Options{
			Strategies: strategies, Replay: opts, Limits: limits, Workers: 1}, report.ReplaySessionsOptions{Format: format}); err != nil {
			t.Fatal(err)
		}
		if format == "json" && log.out.String() != want.String() {
			t.Errorf("json differs from the report of Replay with Limits written whole")
		}
		if format == "jsonl" {
			// A line per call, strategy by strategy, each limit in turn.
			var names []string
			for _, line := range strings.Split(strings.TrimSpace(log.out.String()), "\n") {
				name := line[strings.Index(line, `"strategy":"`)+12:]
				name = name[:strings.IndexByte(name, '"')]
				if len(names) == 0 || names[len(names)-1] != name {
					names = append(names, name)
				}
			}
			if got := strings.Join(names, " "); got != "full@3k full@8k clear@3k clear@8k mask@3k mask@8k" {
				t.Errorf("jsonl strategies in order %s", got)
			}
		}
		first := strings.Join(log.events, "|")
		lastStart := strings.LastIndex(first, "start ")
		if w := strings.Index(first, "write"); w < 0 || w > lastStart {
			t.Errorf("%s: nothing written before the last replay started: %s", format, first)
		}
	}
}
