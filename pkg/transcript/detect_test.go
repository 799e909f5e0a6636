package transcript

import (
	"errors"
	"io"
	"maps"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, in string
		want     Format
	}{
		{"harpe event", `{"type":"user","content":"hi"}`, "harpe"},
		{"harpe after blank lines", "\n\n{\"type\":\"system\",\"content\":\"s\"}\n", "harpe"},
		{"claude code user", `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u","sessionId":"s"}`, "claude-code"},
		{"claude code summary first", `{"type":"summary","summary":"x","leafUuid":"u"}`, "claude-code"},
		{"codex session_meta", `{"timestamp":"2025-01-01T00:00:00Z","type":"session_meta","payload":{"id":"x"}}`, "codex"},
		{"openai line", `{"role":"user","content":"hi"}`, "openai"},
		{"anthropic line", `{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]}`, "anthropic"},
		{"openai array", `[{"role":"system","content":"s"},{"role":"user","content":"hi"}]`, "openai"},
		{"openai object over lines", "{\n \"messages\": [\n {\"role\": \"user\", \"content\": \"hi\"}\n ]\n}\n", "openai"},
		{"openai tool_calls", `{"messages":[{"role":"user","content":"a"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, "openai"},
		{"anthropic request", `{"system":"s","messages":[{"role":"user","content":"hi"}]}`, "anthropic"},
		{"anthropic array by block", "[\n{\"role\":\"user\",\"content\":\"a\"},\n{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t\",\"content\":\"x\"}]}\n]", "anthropic"},
		{"gemini contents", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "gemini"},
		{"gemini array", `[{"role":"user","parts":[{"text":"hi"}]}]`, "gemini"},
		{"gemini cli", `{"sessionId":"s","startTime":"2026-01-01T00:00:00Z","messages":[{"id":"1","type":"user","content":"hi"}]}`, "gemini-cli"},
		{"sharegpt array", `[{"id":"a","conversations":[{"from":"human","value":"hi"}]}]`, "sharegpt"},
		{"sharegpt object", `{"conversations":[{"from":"human","value":"hi"}]}`, "sharegpt"},
		{"swe-agent trajectory", `{"trajectory":[],"history":[{"role":"user","content":"fix it"}],"info":{}}`, "swe-agent"},
		{"openhands events", `[{"id":1,"source":"user","action":"message","args":{"content":"hi"}}]`, "openhands"},
		{"long-memory sample", `[{"sample_id":"c","conversation":{"speaker_a":"A","speaker_b":"B","session_1":[]}}]`, "long-memory"},
		{"responses items line", `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`, "codex"},
		{"responses items array", `[{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}]`, "codex"},
		{"responses request", `{"instructions":"be brief","input":"hi"}`, "codex"},
		{"claude code record of a new type", `{"type":"custom-title","sessionId":"s","uuid":"u","parentUuid":null}`, "claude-code"},
		{"plain text", "hello there\n", ""},
		{"a number", "42", ""},
		{"an object of nothing known", `{"events":[]}`, ""},
		{"an array of strings", `["a","b"]`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Detect([]byte(tt.in))
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), "tried harpe, claude-code, codex") {
					t.Fatalf("Detect = %q, %v; want an error listing what was tried", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Detect = %q, %v; want %q", got, err, tt.want)
			}
			// Read agrees with Detect.
			ts, err := Read(strings.NewReader(tt.in), "in", "")
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if ts[0].Format != tt.want {
				t.Errorf("Read format %q, want %q", ts[0].Format, tt.want)
			}
		})
	}
}

// TestReadErrors covers bad input in each format: the error names the
// place (line and column for JSONL, JSON path for documents).
func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, format, in, want string
	}{
		{"unknown format", "slack", "{}", `unknown transcript format "slack"; valid: harpe, claude-code`},
		{"openai unknown role", "", `[{"role":"user","content":"a"},{"role":"bot","content":"b"}]`, `x: [1]: unknown role "bot"; valid: system, developer, user, assistant, tool, function`},
		{"openai tool without id", "", `[{"role":"tool","content":"b"}]`, `x: [0]: a tool message needs "tool_call_id"`},
		{"openai content number", "", `{"messages":[{"role":"user","content":5}]}`, `x: messages[0]: "content" must be a string, null or an array of parts, got number`},
		{"openai name number", "", `{"messages":[{"role":"user","content":"a","name":7}]}`, `x: messages[0]: "name" must be a string, got number`},
		{"openai message not object", "", `{"messages":["hi"]}`, `x: messages[0]: want a message object, got string`},
		{"openai jsonl bad role", "", "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"x\"}\n", `x:2: unknown role "x"`},
		{"openai jsonl type", "", "{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"user\",\"content\":\"a\",\"name\":[]}\n", `x:2:37: "name" must be a string, got array`},
		{"anthropic unknown role", "anthropic", `{"messages":[{"role":"tool","content":"a"}]}`, `x: messages[0]: unknown role "tool"; valid: user, assistant`},
		{"anthropic tool_use without id", "anthropic", `{"messages":[{"role":"assistant","content":[{"type":"tool_use","name":"f"}]}]}`, `x: messages[0]: content[0]: a tool_use block needs "id"`},
		{"anthropic content object", "anthropic", `{"messages":[{"role":"user","content":{}}]}`, `x: messages[0]: "content" must be a string or an array of blocks, got object`},
		{"claude code missing message", "", `{"type":"user","uuid":"u","sessionId":"s"}`, `x:1: a user record needs "message"`},
		{"claude code bad content", "", `{"type":"user","uuid":"u","message":{"role":"user","content":3}}`, `x:1: message: "content" must be a string or an array of blocks, got number`},
		{"codex output without call", "", `{"type":"response_item","payload":{"type":"function_call_output","output":"x"}}`, `x:1: payload: a function_call_output needs "call_id"`},
		{"codex unknown role", "", `{"type":"response_item","payload":{"type":"message","role":"robot","content":[]}}`, `x:1: payload: unknown role "robot"`},
		{"codex payload type", "", `{"type":"event_msg","payload":{"type":5}}`, `x:1: payload: "type" must be a string, got number`},
		{"gemini role", "", `{"contents":[{"role":"system","parts":[{"text":"a"}]}]}`, `x: contents[0]: unknown role "system"; valid: user, model`},
		{"gemini parts type", "", `{"contents":[{"role":"user","parts":"a"}]}`, `x: contents[0]: "parts" must be an array, got string`},
		{"gemini cli missing type", "gemini-cli", `{"messages":[{"content":"a"}]}`, `x: messages[0]: missing "type"`},
		{"gemini cli call without id", "", `{"sessionId":"s","messages":[{"type":"gemini","content":"","toolCalls":[{"name":"f"}]}]}`, `x: messages[0].toolCalls[0]: "id" is required`},
		{"sharegpt speaker", "", `[{"conversations":[{"from":"robot","value":"a"}]}]`, `x: [0].conversations[0].from: unknown speaker "robot"; valid: human, gpt, system, function_call, observation`},
		{"sharegpt value type", "", `{"conversations":[{"from":"human","value":1}]}`, `x: "conversations.value" must be a string, got number`},
		{"second document", "", "{\"messages\":[]}\n{\"messages\":[{\"role\":\"bot\"}]}\n", `x: document 2 messages[0]: unknown role "bot"`},
		{"trailing garbage", "", "[{\"role\":\"user\",\"content\":\"a\"}]\nxyz\n", `x:2:1: invalid JSON: invalid character 'x'`},
		{"swe-agent history type", "swe-agent", `{"history":{}}`, `x: "history" must be an array, got object`},
		{"openhands no action", "", `[{"id":1,"source":"user","action":"message","args":{}},{"id":2,"source":"agent"}]`, `x: [1]: an event needs "action" or "observation"`},
		{"openhands timestamp", "", `[{"id":1,"source":"user","action":"message","timestamp":"noon"}]`, `x: [0]: "timestamp": timestamp "noon" is not RFC 3339`},
		{"long-memory stranger", "", `[{"conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"speaker":"C","text":"hi"}]}}]`, `x: [0].conversation.session_1[0].speaker: speaker "C" is neither speaker_a ("A") nor speaker_b ("B")`},
		{"undetectable", "", "just text\n", `x: cannot tell the transcript format; tried harpe, claude-code, codex, openai, anthropic, gemini, gemini-cli, copilot-cli, opencode, sharegpt, swe-agent, openhands, long-memory`},
		{"invalid utf-8 in a document", "", "[\n{\"role\":\"user\",\"content\":\"\xfe\"}]", `x:2:27: invalid UTF-8 at byte offset 28 (0xfe)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "x", Format(tt.format))
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n got %q\nwant prefix %q", err.Error(), tt.want)
			}
		})
	}
}

// TestDetectPastUnknownRecords: a Claude Code session that opens with a
// record of a type no sniff claims, as Claude Code 2.1.177 writes them
// (last-prompt, mode, permission-mode first) or of the other types it
// writes between messages, is detected from the first record that
// carries Claude Code's marks; the records read past are counted by type
// and the messages read.
func TestDetectPastUnknownRecords(t *testing.T) {
	const msg = `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","parentUuid":null,"sessionId":"s1","timestamp":"2026-01-01T00:00:00Z"}`
	firsts := []struct{ typ, line string }{
		{"last-prompt", `{"type":"last-prompt","leafUuid":"a1","sessionId":"s1"}`},
		{"mode", `{"type":"mode","mode":"normal","sessionId":"s1"}`},
		{"permission-mode", `{"type":"permission-mode","permissionMode":"default","sessionId":"s1"}`},
		{"ai-title", `{"type":"ai-title","aiTitle":"Fix the build","sessionId":"s1"}`},
		{"custom-title", `{"type":"custom-title","customTitle":"build","sessionId":"s1"}`},
		{"attachment", `{"type":"attachment","attachment":{"type":"file","filename":"a.go"},"timestamp":"2026-01-01T00:00:00Z","sessionId":"s1"}`},
		{"agent-name", `{"type":"agent-name","agentName":"reviewer","sessionId":"s1"}`},
		{"queue-operation", `{"type":"queue-operation","operation":"enqueue","timestamp":"2026-01-01T00:00:00Z","sessionId":"s1","content":"x"}`},
		{"file-history-snapshot", `{"type":"file-history-snapshot","messageId":"m1","snapshot":{"trackedFileBackups":{}},"isSnapshotUpdate":false}`},
		{"progress", `{"type":"progress","data":{"type":"hook_progress"},"toolUseID":"t1","timestamp":"2026-01-01T00:00:00Z"}`},
	}
	for _, tt := range firsts {
		for _, stdin := range []bool{false, true} {
			name := tt.typ + map[bool]string{false: " file", true: " pipe"}[stdin]
			t.Run(name, func(t *testing.T) {
				// The three 2.1.177 opening records before this one.
				in := tt.line + "\n" + `{"type":"mode","mode":"normal","sessionId":"s1"}` + "\n" + msg + "\n"
				if got, err := Detect([]byte(in)); err != nil || got != FormatClaudeCode {
					t.Fatalf("Detect = %q, %v; want claude-code", got, err)
				}
				var r io.Reader = strings.NewReader(in) // seeks, like a file
				if stdin {
					r = io.MultiReader(strings.NewReader(in)) // cannot seek
				}
				ts, err := Read(r, "in", "")
				if err != nil {
					t.Fatalf("Read: %v", err)
				}
				got := ts[0]
				if got.Format != FormatClaudeCode || len(got.Messages) != 1 || got.Messages[0].Text != "hi" {
					t.Fatalf("read %s with %d messages; want claude-code with the one message", got.Format, len(got.Messages))
				}
				want := map[string]int{tt.typ: 1, "mode": 1}
				if tt.typ == "mode" {
					want = map[string]int{"mode": 2}
				}
				if !maps.Equal(got.Skipped, want) {
					t.Errorf("Skipped = %v, want %v", got.Skipped, want)
				}
			})
		}
	}
}

// TestDetectHeadBound: past headLines records that no format claims, the
// input is no transcript (the bound keeps detection from reading a large
// file that is not one).
func TestDetectHeadBound(t *testing.T) {
	const msg = `{"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","parentUuid":null,"sessionId":"s1"}` + "\n"
	unknown := strings.Repeat(`{"type":"mode","mode":"normal","sessionId":"s1"}`+"\n", headLines-1)
	if got, err := Detect([]byte(unknown + msg)); err != nil || got != FormatClaudeCode {
		t.Errorf("record %d: Detect = %q, %v; want claude-code", headLines, got, err)
	}
	unknown += `{"type":"mode","mode":"normal","sessionId":"s1"}` + "\n"
	if got, err := Detect([]byte(unknown + msg)); err == nil {
		t.Errorf("record %d: Detect = %q; want no format", headLines+1, got)
	}
	if _, err := Read(strings.NewReader(unknown+msg), "in", ""); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("record %d: Read error %v; want ErrUnknownFormat", headLines+1, err)
	}
}
