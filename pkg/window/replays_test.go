package window_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// usageSession is a session of one call a turn, each recording tokens.
func usageSession(tokens ...int) *transcript.Transcript {
	tr := &transcript.Transcript{Format: "harpe"}
	for i, n := range tokens {
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

// TestReplayTotals: a session of three calls recorded at 5, 7 and 9 input
// tokens sends 21 tokens under full, 9 at most in one call, as Replay
// says too; Totals keeps no call (an empty list, not nil) and
// refuses an OnCall of its own.
func TestReplayTotals(t *testing.T) {
	ro := window.ReplayOptions{Options: window.DefaultOptions(), Indices: true}
	totals := ro
	totals.Totals = true
	got, err := window.Replay(context.Background(), usageSession(5, 7, 9), []window.Strategy{window.Full}, totals)
	if err != nil {
		t.Fatal(err)
	}
	want, err := window.Replay(context.Background(), usageSession(5, 7, 9), []window.Strategy{window.Full}, ro)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Calls == nil || len(got[0].Calls) != 0 {
		t.Fatalf("calls = %#v, want one result with an empty, non-nil list", got)
	}
	tot := got[0].Totals
	if tot.Calls != 3 || tot.TokensSent != 21 || tot.TokensFull != 21 || tot.MaxCallTokens != 9 {
		t.Errorf("totals = %+v, want 3 calls, 21 sent of 21, 9 at most", tot)
	}
	if !reflect.DeepEqual(tot, want[0].Totals) {
		t.Errorf("totals = %+v, Replay says %+v", tot, want[0].Totals)
	}
	totals.OnCall = func(string, *window.Call, *window.Event) error { return nil }
	if _, err := window.Replay(context.Background(), usageSession(5), []window.Strategy{window.Full}, totals); err == nil {
		t.Error("Totals with OnCall: no error")
	}
}

// TestWithDistill: a distiller hooked into a summarizing strategy value
// (alone, or under an edit) writes its summaries; any other strategy
// comes back as it was. Summarizing with a high-water mark of 0 compacts
// before every call with something to fold: over three turns it folds
// the first before call 2 and the second before call 3.
func TestWithDistill(t *testing.T) {
	o := window.DefaultOptions()
	o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(0), new(0)
	for _, spec := range []string{"summarizing", "summarizing+mask"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		calls := 0
		s = window.WithDistill(s, func(summary.Request) (string, error) {
			calls++
			return "S", nil
		})
		res, err := window.Replay(context.Background(), usageSession(5, 7, 9), []window.Strategy{s}, window.ReplayOptions{Options: o})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 2 || res[0].Totals.Compactions != 2 || res[0].Calls[2].SummaryChars != 1 {
			t.Errorf("%s: %d distills, %d compactions, summary of %d chars at call 3; want 2, 2, 1", spec, calls, res[0].Totals.Compactions, res[0].Calls[2].SummaryChars)
		}
	}
	full, err := window.Parse("full", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := window.WithDistill(full, nil); got != full {
		t.Errorf("full: %v, want it as it was", got)
	}
}
