package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// marshalReport is the reference: the whole report through encoding/json,
// as harpe replay --format json wrote it before it streamed.
func marshalReport(t *testing.T, rep report.Replay) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rep); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readSample(t *testing.T, rel string) []*transcript.Transcript {
	t.Helper()
	f, err := os.Open(filepath.Join("../testdata/transcripts", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, rel, "")
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// TestReplayJSONWriter checks that the streamed report, written call by call
// during a replay, is byte for byte the json marshalling of the report
// the same replay returns whole, on sample sessions of several formats,
// priced and not, with compactions, events, plans and sessions of no call.
func TestReplayJSONWriter(t *testing.T) {
	cases := []struct {
		name, file string
		specs      []string
		priced     bool
		window     int
	}{
		{"claude code, agent defaults, priced", "claude-code/long.jsonl", []string{"full", "clear", "mask", "cheapest"}, true, 0},
		{"claude code, edits on strategies", "claude-code/session.jsonl", []string{"windowed+clear", "summarizing+mask", "limit:bytes=200"}, true, 50000},
		{"codex, chat strategies", "codex/long.jsonl", []string{"full", "windowed", "summarizing", "turn"}, false, 20000},
		{"harpe events, compactions", "harpe/long.jsonl", []string{"summarizing:high=2000:low=4000", "sliding:head=1"}, false, 0},
		{"harpe, aborted turns", "harpe/aborted.jsonl", []string{"full", "turn"}, false, 0},
		{"a system part alone: no call", "harpe/system-only.jsonl", []string{"full", "clear"}, false, 0},
		{"sharegpt, unpriced", "sharegpt/conversations.json", []string{"full", "windowed"}, true, 0},
	}
	var events, plans, noCalls int // what the samples covered
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ts := readSampleAny(t, c.file)
			var strategies []window.Strategy
			for _, spec := range c.specs {
				s, err := window.Parse(spec, window.DefaultOptions())
				if err != nil {
					t.Fatal(err)
				}
				strategies = append(strategies, s)
			}
			for k, tr := range ts {
				opts := window.ReplayOptions{Options: window.DefaultOptions(), Indices: true, ContextWindow: c.window, Regret: true}
				if c.priced {
					opts.Cost = &window.CostOptions{Rule: prices.CacheAnthropic, Model: "claude-sonnet-4", Catalog: prices.Default()}
				}
				whole, err := window.Replay(context.Background(), tr, strategies, opts)
				if err != nil {
					t.Fatal(err)
				}
				info := window.TranscriptInfo{Format: string(tr.Format), Messages: len(tr.Messages), Turns: tr.Turns, ID: tr.ID}
				if k > 0 {
					info.File = c.file
				}
				want := marshalReport(t, report.Replay{Transcript: info, Strategies: whole})
				for _, r := range whole {
					events += len(r.Events)
					plans += len(r.Plan)
					if len(r.Calls) == 0 {
						noCalls++
					}
				}

				var streamed bytes.Buffer
				rw := report.NewReplayJSONWriter(&streamed)
				if err := rw.Begin(info); err != nil {
					t.Fatal(err)
				}
				sopts := opts
				rw.Hook(&sopts)
				if _, err := window.Replay(context.Background(), tr, strategies, sopts); err != nil {
					t.Fatal(err)
				}
				if err := rw.End(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(streamed.Bytes(), want) {
					t.Errorf("session %d: streamed report differs from json's\n got: %.600s\nwant: %.600s", k, streamed.Bytes(), want)
				}

				var written bytes.Buffer
				if err := report.NewReplayJSONWriter(&written).WriteReport(&report.Replay{Transcript: info, Strategies: whole}); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(written.Bytes(), want) {
					t.Errorf("session %d: WriteReport differs from json's\n got: %.600s\nwant: %.600s", k, written.Bytes(), want)
				}
				if k == 2 {
					break // three conversations of a file are enough
				}
			}
		})
	}
	if events == 0 || plans == 0 || noCalls == 0 {
		t.Errorf("the samples cover %d events, %d plan steps, %d results without calls: want some of each", events, plans, noCalls)
	}
}

// readSampleAny reads a sample file, or the first file of a sample
// directory.
func readSampleAny(t *testing.T, rel string) []*transcript.Transcript {
	t.Helper()
	if fi, err := os.Stat(filepath.Join("../testdata/transcripts", rel)); err == nil && !fi.IsDir() {
		return readSample(t, rel)
	}
	entries, err := os.ReadDir(filepath.Join("../testdata/transcripts", filepath.Dir(rel)))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no sample %s: %v", rel, err)
	}
	return readSample(t, filepath.Join(filepath.Dir(rel), entries[0].Name()))
}

// TestReplayJSONWriterEdges checks reports the replay does not make: no
// strategy, nil calls and strategies (json's null), results without calls.
func TestReplayJSONWriterEdges(t *testing.T) {
	info := window.TranscriptInfo{Format: "harpe", Messages: 2, Turns: 1}
	reports := map[string]report.Replay{
		"nil strategies":   {Transcript: info},
		"empty strategies": {Transcript: info, Strategies: []window.Result{}},
		"nil calls":        {Transcript: info, Strategies: []window.Result{{Strategy: "full"}}},
		"empty calls, html": {Transcript: window.TranscriptInfo{Format: "harpe", ID: "<a&b>"},
			Strategies: []window.Result{{Strategy: "x<y>", Calls: []window.Call{}, Events: []window.Event{}}}},
		"two strategies": {Transcript: info, Strategies: []window.Result{
			{Strategy: "full", Calls: []window.Call{{Turn: 1, Call: 1, Messages: []int{0, 1}, Tokens: 7}}},
			{Strategy: "turn", Calls: []window.Call{{Turn: 1, Call: 1}, {Turn: 1, Call: 2}},
				Plan: []window.PlanStep{{Call: 2}}}}},
	}
	for name, rep := range reports {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := report.NewReplayJSONWriter(&b).WriteReport(&rep); err != nil {
				t.Fatal(err)
			}
			if want := marshalReport(t, rep); !bytes.Equal(b.Bytes(), want) {
				t.Errorf("got\n%s\nwant\n%s", b.Bytes(), want)
			}
		})
	}
}

// TestReplayJSONWriterErrors checks that a failed write is returned, and
// that a report ended with a strategy open is refused.
func TestReplayJSONWriterErrors(t *testing.T) {
	rw := report.NewReplayJSONWriter(failWriter{})
	if err := rw.Begin(window.TranscriptInfo{}); !errors.Is(err, errFull) {
		t.Errorf("Begin on a full disk: %v, want %v", err, errFull)
	}
	var b bytes.Buffer
	rw = report.NewReplayJSONWriter(&b)
	if err := rw.Begin(window.TranscriptInfo{}); err != nil {
		t.Fatal(err)
	}
	if err := rw.Call("full", &window.Call{Call: 1}); err != nil {
		t.Fatal(err)
	}
	if err := rw.End(); err == nil {
		t.Error("End with a strategy's result missing: no error")
	}
}

var errFull = errors.New("no space left on device")

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

// TestResultUnpriced checks the calls a cost leaves out, worked by hand:
// two calls of the unpriced m1 (10 sent + 5 out, 20 + 1: 36 tokens), one
// of the priced m2 left out, one call without a cost skipped.
func TestResultUnpriced(t *testing.T) {
	r := window.Result{
		Calls: []window.Call{
			{Tokens: 10, CallCost: &window.CallCost{Model: "m1", OutputTokens: 5}},
			{Tokens: 7, CallCost: &window.CallCost{Model: "m2", OutputTokens: 3}},
			{Tokens: 20, CallCost: &window.CallCost{Model: "m1", OutputTokens: 1}},
			{Tokens: 9},
		},
		Totals: window.Totals{CostTotals: &window.CostTotals{UnpricedModels: []string{"m1"}}},
	}
	got := r.Unpriced()
	if len(got) != 1 || got[0].Model != "m1" || got[0].Calls != 2 || got[0].Tokens != 36 {
		t.Errorf("Unpriced() = %+v, want m1: 2 calls, 36 tokens", got)
	}
	r.Totals.UnpricedModels = nil
	if got := r.Unpriced(); got != nil {
		t.Errorf("priced whole: Unpriced() = %+v, want nil", got)
	}
	if got := (&window.Result{}).Unpriced(); got != nil {
		t.Errorf("not priced: Unpriced() = %+v, want nil", got)
	}
}

// BenchmarkReplayJSONWriter writes a report of 3 strategies of 2,000 calls
// each, with message indices, call by call; BenchmarkReportJSON encodes
// the same report whole, for comparison.
func BenchmarkReplayJSONWriter(b *testing.B) {
	rep := benchReport()
	for b.Loop() {
		if err := report.NewReplayJSONWriter(io.Discard).WriteReport(&rep); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReportJSON(b *testing.B) {
	rep := benchReport()
	for b.Loop() {
		enc := json.NewEncoder(io.Discard)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			b.Fatal(err)
		}
	}
}

func benchReport() report.Replay {
	rep := report.Replay{Transcript: window.TranscriptInfo{Format: "harpe", Messages: 4000, Turns: 2000}}
	for _, name := range []string{"full", "clear", "mask"} {
		r := window.Result{Strategy: name, Events: []window.Event{}}
		for i := 1; i <= 2000; i++ {
			msgs := make([]int, 0, 20)
			for k := max(0, 2*i-20); k < 2*i; k++ {
				msgs = append(msgs, k)
			}
			r.Calls = append(r.Calls, window.Call{Turn: i, Call: i, Messages: msgs, Chars: 100 * i, Tokens: 25 * i, FullTokens: 25 * i,
				Parts: []window.Part{{From: msgs[0], To: 2*i - 1, Sent: "whole", Chars: 100 * i, Tokens: 25 * i}}})
		}
		rep.Strategies = append(rep.Strategies, r)
	}
	return rep
}

// The parts a ReplayJSONWriter writes itself are byte for byte those of
// encoding/json: none, an empty list, a rolling summary's -1 indices,
// and a kind of part that needs escaping (a quote, a control character,
// a non-ASCII letter), beside a call's cost.
func TestReplayJSONWriterParts(t *testing.T) {
	parts := []window.Part{
		{From: -1, To: -1, Sent: "summary", Chars: 120, Tokens: 30},
		{From: 0, To: 4, Sent: "whole", Chars: 2337, Tokens: 591},
		{From: 5, To: 5, Sent: "cleared", Chars: 40, Tokens: 9},
		{From: 6, To: 6, Sent: "od\"d\tsé", Chars: 0, Tokens: 0},
	}
	rep := report.Replay{
		Transcript: window.TranscriptInfo{Format: "anthropic", Messages: 7, Turns: 2},
		Strategies: []window.Result{{
			Strategy: "clear",
			Calls: []window.Call{
				{Turn: 1, Call: 1, Messages: window.Indices{0, 1}, Parts: nil},
				{Turn: 1, Call: 2, Messages: window.Indices{}, Parts: []window.Part{}},
				{Turn: 2, Call: 3, Messages: window.Indices{0, 1, 2, 3, 4, 5, 6}, Parts: parts, CallCost: &window.CallCost{Model: "m", CostUSD: 0.25}},
				{Turn: 2, Call: 4, Parts: parts[1:2]},
			},
			Events: []window.Event{},
		}},
	}
	var got bytes.Buffer
	if err := report.NewReplayJSONWriter(&got).WriteReport(&rep); err != nil {
		t.Fatal(err)
	}
	if want := marshalReport(t, rep); !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", got.Bytes(), want)
	}
}
