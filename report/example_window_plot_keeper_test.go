package report_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// A replay streamed as JSON (io.Discard here) whose calls are kept for a
// plot: one call, the prompt "one two" (7 characters, 2 tokens by the
// estimate). The picture is then drawn from what was kept.
func ExampleReplayPlotKeeper() {
	ts, err := transcript.Read(strings.NewReader(`{"type":"user","content":"one two"}
{"type":"assistant","content":"three"}
`), "t.jsonl", "")
	if err != nil {
		panic(err)
	}
	t := ts[0]
	opts := window.ReplayOptions{Options: window.DefaultOptions()}
	strategies, err := window.ParseAll([]string{"full"}, opts)
	if err != nil {
		panic(err)
	}
	info := window.TranscriptInfo{Format: string(t.Format), Messages: len(t.Messages), Turns: t.Turns}
	rw := report.NewReplayJSONWriter(io.Discard)
	if err := rw.Begin(info); err != nil {
		panic(err)
	}
	var k report.ReplayPlotKeeper
	k.Hook(&opts)
	rw.Hook(&opts)
	if _, err := window.Replay(context.Background(), t, strategies, opts); err != nil {
		panic(err)
	}
	if err := rw.End(); err != nil {
		panic(err)
	}
	for _, r := range k.Results() {
		fmt.Printf("%s: %d call(s), tokens of the first %d\n", r.Strategy, r.Totals.Calls, r.Calls[0].Tokens)
	}
	rep := report.Replay{Transcript: info, Strategies: k.Results()}
	var svg strings.Builder
	if err := report.WriteReplayPlot(&svg, &rep, report.ReplayPlotOptions{}); err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(svg.String(), "<svg"))
	// Output:
	// full: 1 call(s), tokens of the first 2
	// true
}
