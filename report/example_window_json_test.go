package report_test

import (
	"context"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// A report written call by call as the replay makes the calls: one call,
// the prompt "one two" (7 characters, 2 tokens by the estimate) sent
// whole.
func ExampleReplayJSONWriter() {
	ts, err := transcript.Read(strings.NewReader(`{"type":"user","content":"one two"}
{"type":"assistant","content":"three"}
`), "t.jsonl", "")
	if err != nil {
		panic(err)
	}
	t := ts[0]
	counter, _ := tokenize.New("estimate")
	opts := window.ReplayOptions{Options: window.DefaultOptions(), Indices: true}
	opts.Counter = counter
	strategies, err := window.ParseAll([]string{"full"}, opts)
	if err != nil {
		panic(err)
	}
	rw := report.NewReplayJSONWriter(os.Stdout)
	if err := rw.Begin(window.TranscriptInfo{Format: string(t.Format), Messages: len(t.Messages), Turns: t.Turns}); err != nil {
		panic(err)
	}
	rw.Hook(&opts)
	if _, err := window.Replay(context.Background(), t, strategies, opts); err != nil {
		panic(err)
	}
	if err := rw.End(); err != nil {
		panic(err)
	}
	// Output:
	// {
	//   "transcript": {
	//     "format": "harpe",
	//     "messages": 2,
	//     "turns": 1
	//   },
	//   "strategies": [
	//     {
	//       "strategy": "full",
	//       "calls": [
	//         {
	//           "turn": 1,
	//           "call": 1,
	//           "messages": [
	//             [
	//               0,
	//               0
	//             ]
	//           ],
	//           "summary_chars": 0,
	//           "chars": 7,
	//           "tokens": 2,
	//           "full_tokens": 2,
	//           "over_window": false,
	//           "over_budget": false,
	//           "parts": [
	//             {
	//               "from": 0,
	//               "to": 0,
	//               "sent": "whole",
	//               "chars": 7,
	//               "tokens": 2
	//             }
	//           ]
	//         }
	//       ],
	//       "events": [],
	//       "totals": {
	//         "calls": 1,
	//         "tokens_sent": 2,
	//         "tokens_full": 2,
	//         "saved_ratio": 0,
	//         "max_call_tokens": 2,
	//         "compactions": 0,
	//         "over_window_calls": 0,
	//         "over_budget_calls": 0
	//       }
	//     }
	//   ]
	// }
}
