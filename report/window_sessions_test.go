package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
	"github.com/harpe-dev/harpe/report"
)

// TestReplaySessionsAsEach: the reports of several sessions, replayed a
// few at once or one at a time, call by call or held, are each session's
// own report in input order (its file named), as one replay of each
// writes it; a replay's error names its session's file.
func TestReplaySessionsAsEach(t *testing.T) {
	var all []sessions.Session
	for seed := uint64(1); seed <= 5; seed++ {
		all = append(all, sessions.Session{File: fmt.Sprintf("s%d.jsonl", seed),
			Transcript: transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 10 + 5*int(seed), Overhead: 100, MaxToolChars: 2000})})
	}
	seq := func(yield func(sessions.Session, error) bool) {
		for _, s := range all {
			if !yield(s, nil) {
				return
			}
		}
	}
	o := window.DefaultOptions()
	o.Mask = window.MaskSettings{Keep: new(2)}
	var strategies []window.Strategy
	for _, spec := range []string{"full", "mask", "windowed:chars=3000"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	ro := window.ReplayOptions{Options: o, Indices: true}
	for _, format := range []string{"json", "table"} {
		var want bytes.Buffer
		for i, s := range all {
			res, err := window.Replay(context.Background(), s.Transcript, strategies, ro)
			if err != nil {
				t.Fatal(err)
			}
			rep := report.Replay{Transcript: window.TranscriptInfo{File: s.File, Format: string(s.Transcript.Format),
				Messages: len(s.Transcript.Messages), Turns: s.Transcript.Turns}, Strategies: res}
			if format == "json" {
				err = report.NewReplayJSONWriter(&want).WriteReport(&rep)
			} else {
				if i > 0 {
					want.WriteString("\n")
				}
				err = report.WriteReplayTables(&want, &rep, report.ReplayTableOptions{})
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		for _, workers := range []int{1, 3} {
			var got bytes.Buffer
			res, err := report.WriteReplaySessions(context.Background(), &got, seq, sessions.Options{Strategies: strategies,
				Replay: ro, Workers: workers}, report.ReplaySessionsOptions{Format: format})
			if err != nil {
				t.Fatal(err)
			}
			if res.Sessions != len(all) || res.First.Transcript.File != "s1.jsonl" {
				t.Errorf("%s, %d workers: %d sessions, first %q; want %d, s1.jsonl", format, workers, res.Sessions, res.First.Transcript.File, len(all))
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("%s, %d workers: the reports differ from each session's own (%d bytes, want %d)", format, workers, got.Len(), want.Len())
			}
		}
	}
	// The totals: the whole sessions.Report's JSON, written row by row.
	rep := sessions.NewReport()
	for _, s := range all {
		totals := ro
		totals.Totals = true
		res, err := window.Replay(context.Background(), s.Transcript, strategies, totals)
		if err != nil {
			t.Fatal(err)
		}
		if err := rep.Add(s.File, s.Transcript.ID, res); err != nil {
			t.Fatal(err)
		}
	}
	for _, format := range []string{"json", "jsonl"} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if format == "json" {
			enc.SetIndent("", "  ")
			if err := enc.Encode(rep); err != nil {
				t.Fatal(err)
			}
		} else {
			for _, row := range rep.Sessions {
				enc.Encode(row)
			}
			for _, row := range rep.Totals {
				enc.Encode(row)
			}
		}
		for _, workers := range []int{1, 3} {
			var got bytes.Buffer
			if _, err := report.WriteReplaySessions(context.Background(), &got, seq, sessions.Options{Strategies: strategies,
				Replay: ro, Workers: workers, Totals: true}, report.ReplaySessionsOptions{Format: format}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("totals %s, %d workers: differ from the sessions.Report's:\n%s\nwant\n%s", format, workers, got.Bytes(), want.Bytes())
			}
		}
	}
	bad := errors.New("unreadable")
	_, err := report.WriteReplaySessions(context.Background(), &bytes.Buffer{}, func(yield func(sessions.Session, error) bool) {
		if yield(all[0], nil) {
			yield(sessions.Session{}, bad)
		}
	}, sessions.Options{Strategies: strategies, Replay: ro}, report.ReplaySessionsOptions{Format: "json"})
	if !errors.Is(err, bad) {
		t.Errorf("a source's error: got %v, want %v", err, bad)
	}
}
