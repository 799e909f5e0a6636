package report_test

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// A replay streamed call by call and kept by a PlotKeeper draws the same
// picture as the replay held whole: the same points, and the compaction
// that summarizing makes (high water 15 tokens, as the testscript
// replay_summarizing has it) marked on its line.
func TestPlotKeeperDrawsTheHeldPlot(t *testing.T) {
	f, err := os.Open("../testdata/replay/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "worked.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	opts := window.ReplayOptions{Options: window.DefaultOptions()}
	opts.Summarizing.HighWaterTokens, opts.Summarizing.LowWaterChars = new(15), new(50)
	strategies, err := window.ParseAll([]string{"full", "summarizing"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	held, err := window.Replay(context.Background(), ts[0], strategies, opts)
	if err != nil {
		t.Fatal(err)
	}
	if n := held[1].Totals.Compactions; n != 1 {
		t.Fatalf("summarizing made %d compactions, want 1 (the test needs one to mark)", n)
	}
	var k report.ReplayPlotKeeper
	streamed := opts
	streamed.OnCall = func(string, *window.Call, *window.Event) error { return nil }
	k.Hook(&streamed)
	if _, err := window.Replay(context.Background(), ts[0], strategies, streamed); err != nil {
		t.Fatal(err)
	}
	info := window.TranscriptInfo{Format: string(ts[0].Format), Turns: ts[0].Turns, File: "worked.jsonl"}
	for _, o := range []report.ReplayPlotOptions{{HighWater: 15}, {Cost: true}} {
		var want, got bytes.Buffer
		if err := report.WriteReplayPlot(&want, &report.Replay{Transcript: info, Strategies: held}, o); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteReplayPlot(&got, &report.Replay{Transcript: info, Strategies: k.Results()}, o); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%+v: the kept plot differs from the held one:\n%s\nwant\n%s", o, got.String(), want.String())
		}
		if !bytes.Contains(got.Bytes(), []byte(">compaction</text>")) {
			t.Errorf("%+v: no compaction marked", o)
		}
	}
}
