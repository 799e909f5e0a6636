package report_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// A replay's report written for people: a conversation of two turns sent
// whole by full, its calls and then the totals.
func ExampleWriteReplayTables() {
	rep := twoCalls()
	if err := report.WriteReplayTables(os.Stdout, &rep, report.ReplayTableOptions{Width: 80}); err != nil {
		panic(err)
	}
	// Output:
	// harpe transcript: 4 messages, 2 turns
	// +------+------+----------+-------+--------+------+------+
	// | turn | call | messages | chars | tokens | full | note |
	// +------+------+----------+-------+--------+------+------+
	// | 1    | 1    | 1/1      | 7     | 2      | 2    |      |
	// | 2    | 2    | 3/3      | 20    | 6      | 6    |      |
	// +------+------+----------+-------+--------+------+------+
	// C: compacted before this call, !: over the context window
	// +----------+------+-------+----------+----------+----------+
	// | strategy | sent | saved | max call | compact. | over win |
	// +----------+------+-------+----------+----------+----------+
	// | full     | 8    | 0.0%  | 6        | 0        | 0        |
	// +----------+------+-------+----------+----------+----------+
	// 2 calls; full context would send 8 tokens in all
}

// The same replay drawn as harpe replay --plot draws it: an SVG picture
// whose title names the file.
func ExampleWriteReplayPlot() {
	rep := twoCalls()
	rep.Transcript.File = "s.jsonl"
	var b strings.Builder
	if err := report.WriteReplayPlot(&b, &rep, report.ReplayPlotOptions{ContextWindow: 10}); err != nil {
		panic(err)
	}
	svg := b.String()
	fmt.Println(strings.HasPrefix(svg, "<svg"), strings.Contains(svg, "Tokens per call: s.jsonl (harpe transcript, 2 turns)"),
		strings.Contains(svg, "context window 10"))
	// Output: true true true
}

// twoCalls is the replay of a conversation of two turns sent whole by
// full.
func twoCalls() report.Replay {
	return report.Replay{
		Transcript: window.TranscriptInfo{Format: "harpe", Messages: 4, Turns: 2},
		Strategies: []window.Result{{
			Strategy: "full",
			Calls: []window.Call{
				{Turn: 1, Call: 1, MessageCount: 1, FullMessages: 1, Chars: 7, Tokens: 2, FullTokens: 2},
				{Turn: 2, Call: 2, MessageCount: 3, FullMessages: 3, Chars: 20, Tokens: 6, FullTokens: 6},
			},
			Totals: window.Totals{Calls: 2, TokensSent: 8, TokensFull: 8, MaxCallTokens: 6},
		}},
	}
}
