package usage_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// Recorded usage whose total over calls passes the largest int is an
// error at the line of the usage that took it there: 5·10^18 twice is
// 10^19, more than 2^63−1.
func ExampleListing_Add() {
	events := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":5000000000000000000}
`
	var l usage.Listing
	err := transcript.Scan(context.Background(), strings.NewReader(events), "chat.jsonl", "",
		func(t *transcript.Transcript, m *transcript.Message) error { return l.Add(m) }, nil)
	var oe *engine.TokenOverflowError
	fmt.Println(err)
	fmt.Println(errors.As(err, &oe))
	// Output:
	// chat.jsonl:6: the recorded input tokens add up to more than 9223372036854775807 tokens
	// true
}

func ExampleNewBreakdown() {
	events := `{"type":"user","content":"Show main.go."}
{"type":"assistant","content":"","tool_calls":[{"id":"c1","name":"Read","arguments":"{\"path\":\"main.go\"}"}]}
{"type":"tool_result","tool_call_id":"c1","content":"package main\n\nfunc main() {}"}
{"type":"assistant","content":"It is empty."}
`
	var sessions []*usage.SessionBreakdown
	err := transcript.Scan(context.Background(), strings.NewReader(events), "s.jsonl", "", func(t *transcript.Transcript, m *transcript.Message) error {
		if len(sessions) == 0 {
			sessions = append(sessions, usage.NewSessionBreakdown("s.jsonl", tokenize.Estimate))
		}
		sessions[0].Add(t, m)
		return nil
	}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	ts, _ := transcript.Read(strings.NewReader(events), "s.jsonl", "")
	sessions[0].Finish(ts[0])
	b, err := usage.NewBreakdown(sessions)
	if err != nil {
		fmt.Println(err)
		return
	}
	tk := b.Totals.Tokens
	fmt.Println("visible", b.Totals.VisibleTokens, "user", tk.User, "assistant", tk.Assistant, "calls", tk.ToolCalls, "results", tk.ToolResults)
	for _, tool := range b.Totals.Tools {
		fmt.Println(tool.Name, tool.Calls, "call,", tool.ResultTokens, "result tokens")
	}
	// Output:
	// visible 50 user 9 assistant 14 calls 15 results 12
	// Read 1 call, 12 result tokens
}

// A session summary priced call by call (each by CallCost): the first call falls before
// claude-sonnet-4-6's price change of 2026-03-13 and above 200,000 prompt
// tokens (6 input, 0.60 cache read per million), the second after it (3,
// 0.30): 3×6 + 200,000×0.6 = $0.120018, then 3×3 + 200,000×0.3 =
// $0.060009.
func ExampleCallCost() {
	in := `{"type":"user","uuid":"u1","cwd":"/src/app","timestamp":"2026-03-12T23:58:00Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-03-12T23:59:00Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-6","content":"a","usage":{"input_tokens":3,"cache_read_input_tokens":200000,"output_tokens":0}}}
{"type":"user","uuid":"u2","timestamp":"2026-03-13T00:00:00Z","message":{"role":"user","content":"again"}}
{"type":"assistant","uuid":"a2","timestamp":"2026-03-13T00:01:00Z","message":{"id":"m2","role":"assistant","model":"claude-sonnet-4-6","content":"b","usage":{"input_tokens":3,"cache_read_input_tokens":200000,"output_tokens":0}}}
`
	got, err := usage.Collect(context.Background(), strings.NewReader(in), "s.jsonl",
		usage.CollectOptions{Build: usage.BuildSummary, Catalog: prices.Default()})
	if err != nil {
		fmt.Println(err)
		return
	}
	sum, err := usage.NewSummary(got.Summaries, "day")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, g := range sum.Groups {
		fmt.Printf("%s: %d call, $%.6f\n", g.Key, g.Recorded.Calls, *g.CostUSD)
	}
	fmt.Printf("%s: $%.6f\n", sum.Totals.Models[0], *sum.Totals.CostUSD)
	// Output:
	// 2026-03-12: 1 call, $0.120018
	// 2026-03-13: 1 call, $0.060009
	// claude-sonnet-4-6: $0.180027
}
