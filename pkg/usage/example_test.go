package usage_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
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
