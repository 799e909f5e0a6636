package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

var (
	full     = mustParse("full")
	turnOnly = mustParse("turn")
)

func mustParse(spec string) window.Strategy {
	s, err := window.Parse(spec, window.DefaultOptions())
	if err != nil {
		panic(err)
	}
	return s
}

// held is a [sessions.Sink] that keeps each session's results.
type held struct{ results [][]window.Result }

func (h *held) Stream(sessions.Info, *window.ReplayOptions) (func() error, error) {
	return func() error { return nil }, nil
}

func (h *held) Report(_ sessions.Info, results []window.Result) error {
	h.results = append(h.results, results)
	return nil
}

func (h *held) Totals(sessions.Info, []window.Result, []sessions.SessionTotals) error { return nil }

func (h *held) End([]sessions.StrategyTotals) error { return nil }

// replayAll replays ts through the strategies, up to workers at a time,
// and returns each one's results in the order of ts.
func replayAll(ctx context.Context, ts []*transcript.Transcript, strategies []window.Strategy, ro window.ReplayOptions, workers int) ([][]window.Result, error) {
	var h held
	_, err := sessions.Replay(ctx, func(yield func(sessions.Session, error) bool) {
		for i, tr := range ts {
			if !yield(sessions.Session{File: fmt.Sprint(i), Transcript: tr}, nil) {
				return
			}
		}
	}, sessions.Options{Strategies: strategies, Replay: ro, Workers: workers}, &h)
	if err != nil {
		return nil, err
	}
	return h.results, nil
}

// TestReplayOrder replays generated sessions on several workers (run
// with -race) and checks each result against the same session replayed
// alone: same order, same numbers, whatever the workers.
func TestReplayOrder(t *testing.T) {
	var ts []*transcript.Transcript
	for seed := uint64(1); seed <= 6; seed++ {
		ts = append(ts, transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 30 + 10*int(seed), Usage: seed%2 == 0, Overhead: 300, MaxToolChars: 3000}))
	}
	o := window.DefaultOptions()
	o.Mask = window.MaskSettings{Keep: new(3)}
	o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(4000), new(3000)
	var strategies []window.Strategy
	for _, spec := range []string{"full", "mask", "summarizing+mask", "windowed:chars=5000+clear:trigger=2000"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	ro := window.ReplayOptions{Options: o}
	var want [][]window.Result
	for _, tr := range ts {
		res, err := window.Replay(context.Background(), tr, strategies, ro)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, res)
	}
	for _, workers := range []int{1, 3, 0} {
		got, err := replayAll(context.Background(), ts, strategies, ro, workers)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("workers %d: results differ from one replay at a time", workers)
		}
	}
}

func usageSession(tokens ...int) *transcript.Transcript {
	tr := &transcript.Transcript{Format: "harpe"}
	for i, n := range tokens {
		n := n
		tr.Messages = append(tr.Messages,
			transcript.Message{Role: "user", Text: "q", Turn: i + 1},
			transcript.Message{Role: "assistant", Text: "a", Turn: i + 1, InputTokens: &n})
	}
	for i := range tr.Messages {
		tr.Messages[i].Index = i
	}
	tr.Turns = len(tokens)
	return tr
}

// TestTotalsOverflow: sums of recorded usage that do not fit an int are
// an error naming what was summed, within one session and across them.
func TestTotalsOverflow(t *testing.T) {
	const half = 1 << 62
	tests := []struct {
		name     string
		sessions [][]int
		want     string // "" for no error
	}{
		{"fits", [][]int{{half - 1, half - 1}}, ""},
		{"one session", [][]int{{half, half}}, "the tokens full sends"},
		{"largest", [][]int{{math.MaxInt, 1}}, "the tokens full sends"},
		{"across sessions", [][]int{{half - 1, half - 1}, {2}}, "the tokens full sends"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ts []*transcript.Transcript
			for _, s := range tt.sessions {
				ts = append(ts, usageSession(s...))
			}
			res, err := replayAll(context.Background(), ts, []window.Strategy{full, turnOnly}, window.ReplayOptions{Options: window.DefaultOptions()}, 2)
			if err == nil {
				rep := sessions.NewReport()
				for i, r := range res {
					if err = rep.Add(fmt.Sprint(i), "", r); err != nil {
						if len(rep.Sessions) != 2*i {
							t.Errorf("a failed Add changed the report: %d rows", len(rep.Sessions))
						}
						break
					}
				}
			}
			var oe *engine.TokenOverflowError
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("error %v", err)
			case tt.want != "" && (!errors.As(err, &oe) || oe.What != tt.want):
				t.Fatalf("error %v, want an overflow of %q", err, tt.want)
			}
		})
	}
}

// TestReport sums two sessions by hand: calls, tokens and
// compactions add up, the largest call is the larger, the saved ratio is
// that of the sums.
func TestReport(t *testing.T) {
	rep := sessions.NewReport()
	a := []window.Result{
		{Strategy: "full", Totals: window.Totals{Calls: 2, TokensSent: 100, TokensFull: 100, MaxCallTokens: 60}},
		{Strategy: "mask", Totals: window.Totals{Calls: 2, TokensSent: 50, TokensFull: 100, SavedRatio: 0.5, MaxCallTokens: 30, Compactions: 1}},
	}
	b := []window.Result{
		{Strategy: "full", Totals: window.Totals{Calls: 3, TokensSent: 300, TokensFull: 300, MaxCallTokens: 150, OverWindowCalls: 1}},
		{Strategy: "mask", Totals: window.Totals{Calls: 3, TokensSent: 250, TokensFull: 300, SavedRatio: 0.167, MaxCallTokens: 140, Compactions: 2}},
	}
	if err := rep.Add("a", "", a); err != nil {
		t.Fatal(err)
	}
	if err := rep.Add("b", "c1", b); err != nil {
		t.Fatal(err)
	}
	want := []sessions.StrategyTotals{
		{Strategy: "full", Sessions: 2, Totals: window.Totals{Calls: 5, TokensSent: 400, TokensFull: 400, MaxCallTokens: 150, OverWindowCalls: 1}},
		// 1 - 300/400 = 0.25.
		{Strategy: "mask", Sessions: 2, Totals: window.Totals{Calls: 5, TokensSent: 300, TokensFull: 400, SavedRatio: 0.25, MaxCallTokens: 140, Compactions: 3}},
	}
	if !reflect.DeepEqual(rep.Totals, want) {
		t.Errorf("totals %+v\nwant   %+v", rep.Totals, want)
	}
	if len(rep.Sessions) != 4 || rep.Sessions[3].File != "b" || rep.Sessions[3].Conversation != "c1" || rep.Sessions[3].Strategy != "mask" {
		t.Errorf("rows %+v", rep.Sessions)
	}
}

// TestReplayCancelled: under a context already done no session is
// replayed; the error is the context's.
func TestReplayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ts := []*transcript.Transcript{usageSession(5), usageSession(7), usageSession(9)}
	out, err := replayAll(ctx, ts, []window.Strategy{full}, window.ReplayOptions{Options: window.DefaultOptions()}, 2)
	if out != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("Replay cancelled = %v, %v; want nil and context.Canceled", out, err)
	}
	if out, err := replayAll(context.Background(), nil, []window.Strategy{full}, window.ReplayOptions{}, 0); err != nil || len(out) != 0 {
		t.Errorf("Replay of none = %v, %v", out, err)
	}
}
