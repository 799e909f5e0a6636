package window_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/provider"
)

// call is one tool call of id to name with args.
func call(id, name, args string) []transcript.ToolCall {
	return []transcript.ToolCall{{ID: id, Name: name, Arguments: args}}
}

// TestShowCallAddsUp checks ShowCall on generated agent loops under
// several strategies: the messages shown are the call's parts message by
// message (same indices, same way sent), and their tokens and characters
// add up to what the call reports as counted and sent.
func TestShowCallAddsUp(t *testing.T) {
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 3, AgentCalls: 40, AgentTurns: 2, Usage: true, Overhead: 500, MaxToolChars: 4000})
	o := window.DefaultOptions()
	o.Clear = window.ClearSettings{Trigger: new(3000), Keep: new(2)}
	o.Mask = window.MaskSettings{Keep: new(3)}
	o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(3000), new(2000)
	for _, spec := range []string{"full", "mask", "clear:inputs", "windowed:chars=8000+limit:bytes=300", "summarizing+mask"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		ro := window.ReplayOptions{Options: o}
		for _, n := range []int{1, 7, 20, 41} {
			v, err := window.ShowCall(context.Background(), tr, s, ro, n)
			if err != nil {
				t.Fatalf("%s call %d: %v", spec, n, err)
			}
			chars, tokens, k := 0, 0, 0
			for _, p := range v.Call.Parts {
				from, to := p.From, p.To
				if p.Sent == "summary" {
					to = from
				}
				for i := from; i <= to; i++ {
					m := v.Messages[k]
					if m.Index != i || m.Sent != p.Sent {
						t.Fatalf("%s call %d: message %d is [%d] %s, part says [%d] %s", spec, n, k, m.Index, m.Sent, i, p.Sent)
					}
					chars += m.Chars
					tokens += m.Tokens
					k++
				}
			}
			if k != len(v.Messages) || chars != v.Call.Chars || tokens != v.Call.Counted {
				t.Errorf("%s call %d: %d messages, %d chars, %d tokens; call has %d messages, %d chars, %d counted",
					spec, n, len(v.Messages), chars, tokens, v.Call.MessageCount, v.Call.Chars, v.Call.Counted)
			}
		}
	}
	_, err := window.ShowCall(context.Background(), tr, window.Full, window.ReplayOptions{Options: o}, 1000)
	if !errors.Is(err, window.ErrCallRange) || !strings.HasPrefix(err.Error(), "call 1000 out of range: the transcript has ") {
		t.Errorf("call 1000: got %v, want ErrCallRange", err)
	}
}

// ShowCall shows one call's window message by message; the request bodies
// are what a provider would be sent.
func ExampleShowCall() {
	tr := &transcript.Transcript{Format: "harpe", Turns: 1, Messages: []transcript.Message{
		{Index: 0, Role: "system", Text: "Be brief."},
		{Index: 1, Role: "user", Text: "List the files.", Turn: 1},
		{Index: 2, Role: "assistant", Turn: 1, ToolCalls: call("c1", "ls", `{"dir":"."}`)},
		{Index: 3, Role: "tool", Turn: 1, ToolCallID: "c1", Text: "a.go\nb.go\nc.go\nd.go\ne.go"},
		{Index: 4, Role: "assistant", Turn: 1, ToolCalls: call("c2", "ls", `{"dir":"x"}`)},
		{Index: 5, Role: "tool", Turn: 1, ToolCallID: "c2", Text: "f.go"},
		{Index: 6, Role: "assistant", Turn: 1, Text: "Six files."},
	}}
	mask, err := window.Parse("mask:keep=1", window.DefaultOptions())
	if err != nil {
		panic(err)
	}
	v, err := window.ShowCall(context.Background(), tr, mask, window.ReplayOptions{Options: window.DefaultOptions()}, 3)
	if err != nil {
		panic(err)
	}
	for _, m := range v.Messages {
		fmt.Printf("[%d] %s %s %d: %q\n", m.Index, m.Role, m.Sent, m.Tokens, m.Message.Text)
	}
	body, _ := json.Marshal(provider.AnthropicRequestFor(v.Rendered).Messages[2])
	fmt.Println(string(body))
	// Output:
	// [0] system whole 3: "Be brief."
	// [1] user whole 4: "List the files."
	// [2] assistant whole 10: ""
	// [3] tool masked 12: "[output of ls omitted: 5 lines, 24 chars]"
	// [4] assistant whole 10: ""
	// [5] tool whole 3: "f.go"
	// {"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"[output of ls omitted: 5 lines, 24 chars]"}]}
}
