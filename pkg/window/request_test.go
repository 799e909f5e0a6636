package window_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/harpe-dev/harpe/internal/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

func call(id, name, args string) []transcript.ToolCall {
	return []transcript.ToolCall{{ID: id, Name: name, Arguments: args}}
}

// TestRequestBodies pins each request shape on small windows written out
// by hand from the providers' documented bodies (OpenAI Chat Completions
// messages; Anthropic Messages system + content blocks).
func TestRequestBodies(t *testing.T) {
	tests := []struct {
		name            string
		r               window.Rendered
		openai, anthrop string
	}{
		{
			name:    "empty",
			r:       window.Rendered{},
			openai:  `{"messages":[]}`,
			anthrop: `{"messages":[]}`,
		},
		{
			name: "tool loop",
			r: window.Rendered{System: "S", Messages: []transcript.Message{
				{Role: "user", Text: "q"},
				{Role: "assistant", Text: "let me look", ToolCalls: call("c1", "Read", ` {"p": 1} `)},
				{Role: "tool", ToolCallID: "c1", Text: "r1"},
				{Role: "assistant", ToolCalls: call("c2", "Ls", "")},
				{Role: "tool", ToolCallID: "c2", Text: ""},
				{Role: "user", Text: "more"},
			}},
			openai: `{"messages":[{"role":"system","content":"S"},{"role":"user","content":"q"},` +
				`{"role":"assistant","content":"let me look","tool_calls":[{"id":"c1","type":"function","function":{"name":"Read","arguments":" {\"p\": 1} "}}]},` +
				`{"role":"tool","content":"r1","tool_call_id":"c1"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c2","type":"function","function":{"name":"Ls","arguments":""}}]},` +
				`{"role":"tool","content":"","tool_call_id":"c2"},{"role":"user","content":"more"}]}`,
			// The second result and the user's text join one user message.
			anthrop: `{"system":"S","messages":[{"role":"user","content":[{"type":"text","text":"q"}]},` +
				`{"role":"assistant","content":[{"type":"text","text":"let me look"},{"type":"tool_use","id":"c1","name":"Read","input":{"p":1}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"r1"}]},` +
				`{"role":"assistant","content":[{"type":"tool_use","id":"c2","name":"Ls","input":{}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c2"},{"type":"text","text":"more"}]}]}`,
		},
		{
			name: "odd arguments, late system message, empty text",
			r: window.Rendered{Messages: []transcript.Message{
				{Role: "user", Text: "q", Name: "ann"},
				{Role: "assistant", ToolCalls: call("c1", "sh", "ls -l")},
				{Role: "tool", ToolCallID: "c1", Text: "x"},
				{Role: "system", Text: "note"},
				{Role: "assistant", Text: ""},
			}},
			openai: `{"messages":[{"role":"user","content":"q","name":"ann"},` +
				`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"sh","arguments":"ls -l"}}]},` +
				`{"role":"tool","content":"x","tool_call_id":"c1"},{"role":"system","content":"note"},{"role":"assistant","content":""}]}`,
			anthrop: `{"messages":[{"role":"user","content":[{"type":"text","text":"q"}]},` +
				`{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"sh","input":{"arguments":"ls -l"}}]},` +
				`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"x"},{"type":"text","text":"note"}]}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, c := range []struct {
				body any
				want string
			}{{window.OpenAIRequestFor(tt.r), tt.openai}, {window.AnthropicRequestFor(tt.r), tt.anthrop}} {
				got, err := json.Marshal(c.body)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != c.want {
					t.Errorf("got  %s\nwant %s", got, c.want)
				}
			}
		})
	}
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
				if p.Sent == window.SentSummary {
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
	var re *window.CallRangeError
	if !errors.As(err, &re) || re.Call != 1000 {
		t.Errorf("call 1000: got %v, want a CallRangeError", err)
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
	body, _ := json.Marshal(window.AnthropicRequestFor(v.Rendered).Messages[2])
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

// FuzzRequestBodies builds windows from fuzzed texts and arguments and
// checks the Anthropic body's rules: roles alternate, no empty text
// block, every tool_use input is a JSON object, every result follows its
// call; and that both bodies encode as JSON.
func FuzzRequestBodies(f *testing.F) {
	f.Add("S", "q", `{"a":1}`, "out", "", false)
	f.Add("", "", "", "", "late", true)
	f.Add("s", "x", "not json", "r", "", true)
	f.Add("", "q", "[1,2]", "", "", false)
	f.Fuzz(func(t *testing.T, system, prompt, args, result, late string, twice bool) {
		msgs := []transcript.Message{
			{Role: "user", Text: prompt},
			{Role: "assistant", ToolCalls: call("c1", "t", args)},
			{Role: "tool", ToolCallID: "c1", Text: result},
		}
		if twice {
			msgs = append(msgs, transcript.Message{Role: "assistant", Text: prompt, ToolCalls: call("c2", "t", args)},
				transcript.Message{Role: "tool", ToolCallID: "c2", Text: result})
		}
		msgs = append(msgs, transcript.Message{Role: "system", Text: late}, transcript.Message{Role: "user", Text: prompt})
		r := window.Rendered{System: system, Messages: msgs}
		a := window.AnthropicRequestFor(r)
		if _, err := json.Marshal(a); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(window.OpenAIRequestFor(r)); err != nil {
			t.Fatal(err)
		}
		called := map[string]bool{}
		for i, m := range a.Messages {
			if i > 0 && a.Messages[i-1].Role == m.Role {
				t.Fatalf("messages %d and %d are both %s", i-1, i, m.Role)
			}
			if len(m.Content) == 0 {
				t.Fatalf("message %d has no block", i)
			}
			for _, b := range m.Content {
				switch b.Type {
				case "text":
					if b.Text == "" {
						t.Fatalf("message %d: empty text block", i)
					}
				case "tool_use":
					var obj map[string]any
					if err := json.Unmarshal(b.Input, &obj); err != nil || obj == nil {
						t.Fatalf("tool_use input %s is not an object", b.Input)
					}
					called[b.ID] = true
				case "tool_result":
					if !called[b.ToolUseID] || m.Role != "user" {
						t.Fatalf("result %s before its call or outside a user message", b.ToolUseID)
					}
				}
			}
		}
	})
}
