package transcript

import (
	"strings"
	"testing"
)

// TestNegativeUsage: a negative token count would bill a negative cost
// (output_tokens −50,000,000 at $15 per million is −$750) or drop a call
// whose prompt total comes out ≤ 0. Every reader rejects it naming the
// input and the line (JSONL) or JSON path (documents); Claude Code
// session files, which a user cannot repair, leave the record's usage out
// with one warning naming the first line, and count it in Skipped.
func TestNegativeUsage(t *testing.T) {
	cc := `{"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_read_input_tokens":2000,"output_tokens":-50000000}}}
`
	tests := []struct{ name, format, in, want string }{
		{"anthropic output", "anthropic",
			`[{"role":"user","content":"go"},{"role":"assistant","content":"ok","usage":{"input_tokens":10,"output_tokens":-50000000}}]`,
			`in: [1]: usage: token counts must be whole numbers ≥ 0: "output_tokens" (-50000000)`},
		{"anthropic input under a cache read", "anthropic",
			`[{"role":"user","content":"go"},{"role":"assistant","content":"ok","usage":{"input_tokens":-5000000,"cache_read_input_tokens":5000100}}]`,
			`in: [1]: usage: token counts must be whole numbers ≥ 0: "input_tokens" (-5000000)`},
		{"anthropic 1h part", "anthropic",
			`[{"role":"user","content":"go"},{"role":"assistant","content":"ok","usage":{"input_tokens":1,"cache_creation_input_tokens":10,"cache_creation":{"ephemeral_1h_input_tokens":-4}}}]`,
			`in: [1]: usage: token counts must be whole numbers ≥ 0: "cache_creation.ephemeral_1h_input_tokens" (-4)`},
		{"openai completion", "openai",
			`[{"role":"user","content":"go"},{"role":"assistant","content":"ok","usage":{"prompt_tokens":30,"completion_tokens":-7}}]`,
			`in: [1]: usage: token counts must be whole numbers ≥ 0: "completion_tokens" (-7)`},
		{"openai cached", "openai",
			`[{"role":"user","content":"go"},{"role":"assistant","content":"ok","usage":{"prompt_tokens":30,"prompt_tokens_details":{"cached_tokens":-1}}}]`,
			`in: [1]: usage: token counts must be whole numbers ≥ 0: "prompt_tokens_details.cached_tokens" (-1)`},
		{"codex", "codex",
			`{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5000},"last_token_usage":{"input_tokens":5000,"cached_input_tokens":4096,"output_tokens":-80}}}}
`, `in:3: payload.info.last_token_usage: token counts must be whole numbers ≥ 0: "output_tokens" (-80)`},
		{"gemini", "gemini",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"text":"ok"}],"usageMetadata":{"promptTokenCount":-1500}}]}`,
			`in: contents[1].usageMetadata: token counts must be whole numbers ≥ 0: "promptTokenCount" (-1500)`},
		{"gemini-cli", "gemini-cli",
			`{"sessionId":"s","messages":[{"id":"1","type":"user","content":"go"},{"id":"2","type":"gemini","content":"ok","tokens":{"input":900,"output":30,"cached":-512}}]}`,
			`in: messages[1]: token counts must be whole numbers ≥ 0: "tokens.cached" (-512)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "in", Format(tc.format))
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v\nwant %s", err, tc.want)
			}
		})
	}
	t.Run("claude-code", func(t *testing.T) {
		ts, err := Read(strings.NewReader(cc), "in", "claude-code")
		if err != nil {
			t.Fatal(err)
		}
		tr := ts[0]
		for _, m := range tr.Messages {
			if m.Usage != nil {
				t.Errorf("message %d keeps usage %+v", m.Index, *m.Usage)
			}
		}
		if tr.Skipped["negative_usage"] != 1 {
			t.Errorf("skipped %v, want negative_usage 1", tr.Skipped)
		}
		want := `in:2: 1 records have a negative token count, their usage left out (first: token counts must be whole numbers ≥ 0: "output_tokens" (-50000000))`
		if len(tr.Warnings) != 1 || tr.Warnings[0].Error() != want {
			t.Errorf("warnings %v\nwant %s", tr.Warnings, want)
		}
	})
}

// TestNegativeUsageRecording: a recorded response whose usage is negative
// is an error naming the entry.
func TestNegativeUsageRecording(t *testing.T) {
	req := `{\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}`
	resp := `{\"content\":[{\"type\":\"text\",\"text\":\"Hello\"}],\"usage\":{\"input_tokens\":-5000000,\"cache_read_input_tokens\":5000100,\"output_tokens\":1}}`
	har := `{"log":{"entries":[{"request":{"method":"POST","url":"https://api.anthropic.com/v1/messages","postData":{"mimeType":"application/json","text":"` + req + `"}},` +
		`"response":{"status":200,"content":{"mimeType":"application/json","text":"` + resp + `"}}}]}}`
	_, err := Read(strings.NewReader(har), "h.har", "")
	want := `h.har: log.entries[0]: response body: usage: token counts must be whole numbers ≥ 0: "input_tokens" (-5000000)`
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant %s", err, want)
	}
}
