package provider_test

import (
	"encoding/json"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/provider"
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
			}{{provider.OpenAIRequestFor(tt.r), tt.openai}, {provider.AnthropicRequestFor(tt.r), tt.anthrop}} {
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
		a := provider.AnthropicRequestFor(r)
		if _, err := json.Marshal(a); err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(provider.OpenAIRequestFor(r)); err != nil {
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
