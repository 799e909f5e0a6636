package transcript

import (
	"context"
	"strings"
	"testing"
)

// TestReadHarpeErrors checks that bad event lines are refused with the
// file, line and (for JSON) column, and a message that says what is wrong.
func TestReadHarpeErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"invalid JSON", "{\"type\":\"user\",\"content\":\"hi\"}\n{\"type\":\"user\",\n", "x.jsonl:2:16: invalid JSON"},
		{"not an object", "{\"type\":\"user\",\"content\":\"hi\"}\n[1,2]\n", "x.jsonl:2: not a JSON object (found array)"},
		{"content not a string", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"user\",\"content\":42}\n", "x.jsonl:2:27: \"content\" must be a string, got number"},
		{"unknown type", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"human\"}\n", "x.jsonl:2: unknown event type \"human\"; valid: system, user, assistant, tool_result, usage, abort"},
		{"missing type", "{\"type\":\"user\",\"content\":\"a\"}\n{\"content\":\"b\"}\n", "x.jsonl:2: missing \"type\""},
		{"invalid UTF-8", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"user\",\"content\":\"\xff\"}\n", "x.jsonl:2: invalid UTF-8 at byte offset 26 (0xff)"},
		{"result without id", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"tool_result\",\"content\":\"b\"}\n", "x.jsonl:2: a tool_result needs \"tool_call_id\""},
		{"negative usage", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"usage\",\"input_tokens\":-1}\n", "x.jsonl:2: \"input_tokens\" must be a whole number ≥ 0, got -1"},
		{"fractional usage", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"usage\",\"input_tokens\":1.5}\n", "x.jsonl:2:34: \"input_tokens\" must be a whole number, got number 1.5"},
		{"bad timestamp", "{\"type\":\"user\",\"content\":\"a\",\"timestamp\":\"yesterday\"}\n", "x.jsonl:1: \"timestamp\": timestamp \"yesterday\" is not RFC 3339"},
		{"call without id", "{\"type\":\"user\",\"content\":\"a\"}\n{\"type\":\"assistant\",\"tool_calls\":[{\"name\":\"ls\"}]}\n", "x.jsonl:2: tool_calls[0]: \"id\" is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// Strict: a broken line is otherwise skipped (TestLiveSession).
			_, err := read(WithStrictLines(context.Background()), strings.NewReader(tt.in), "x.jsonl", FormatHarpe, nil, nil)
			if err == nil {
				t.Fatalf("no error; want %q", tt.want)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n got %q\nwant prefix %q", err.Error(), tt.want)
			}
		})
	}
}

// TestReadHarpeDetails checks what a table over sample files cannot:
// usage placement, timestamps, argument text and a huge line.
func TestReadHarpeDetails(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	in := `{"type":"usage","input_tokens":5}
{"type":"user","content":"` + big + `","timestamp":1700000000}
{"type":"assistant","content":"a","tool_calls":[{"id":"c","name":"f","arguments":{"k": [1, 2]}}]}
{"type":"usage","input_tokens":7}
{"type":"tool_result","tool_call_id":"c","content":"r"}
{"type":"usage","input_tokens":9}
`
	ts, err := Read(strings.NewReader(in), "x", "")
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	if tr.Format != "harpe" || len(tr.Messages) != 3 || tr.Turns != 1 {
		t.Fatalf("format %q, %d messages, %d turns; want harpe, 3, 1", tr.Format, len(tr.Messages), tr.Turns)
	}
	if got := tr.Skipped["usage_without_reply"]; got != 1 {
		t.Errorf("usage_without_reply = %d, want 1", got)
	}
	if len(tr.Messages[0].Text) != 3<<20 {
		t.Errorf("big line: text length %d", len(tr.Messages[0].Text))
	}
	if got := tr.Messages[0].Timestamp.Format("2006-01-02T15:04:05Z07:00"); got != "2023-11-14T22:13:20Z" {
		t.Errorf("timestamp %s, want 2023-11-14T22:13:20Z", got)
	}
	// The later usage (after the tool result) replaces the earlier one on
	// the same reply.
	if p := tr.Messages[1].InputTokens; p == nil || *p != 9 {
		t.Errorf("input tokens %v, want 9", p)
	}
	if got := tr.Messages[1].ToolCalls[0].Arguments; got != `{"k":[1,2]}` {
		t.Errorf("arguments %q", got)
	}
}
