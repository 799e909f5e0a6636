package transcript

import (
	"strings"
	"testing"
)

// TestUsageParts reads one call's usage in every format that records it
// and checks its parts, worked out by hand from the record: the prompt
// total providers report with the cached part inside it is split as
// input = total − cached. Claude Code's call is the last record's usage
// (output 99), with the 1-hour split of the first record, which the last
// one does not repeat.
func TestUsageParts(t *testing.T) {
	tests := []struct {
		name, format, in string
		want             Usage
		model            string
	}{
		{"claude-code", "claude-code",
			`{"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"thinking","thinking":"hm","signature":"x"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":120,"cache_read_input_tokens":2000,"cache_creation":{"ephemeral_5m_input_tokens":100,"ephemeral_1h_input_tokens":20},"output_tokens":45}}}
{"type":"assistant","uuid":"a2","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":120,"cache_read_input_tokens":2000,"output_tokens":99}}}
`, Usage{Input: 3, CacheRead: 2000, CacheWrite: 120, CacheWrite1h: 20, Output: 99}, "claude-sonnet-4-5-20250929"},
		{"anthropic", "anthropic",
			`[{"role":"user","content":"go"},{"role":"assistant","model":"claude-haiku-4-5","content":"ok","usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":4000,"output_tokens":7}}]`,
			Usage{Input: 10, CacheRead: 4000, Output: 7}, "claude-haiku-4-5"},
		{"openai chat", "openai",
			`[{"role":"user","content":"go"},{"role":"assistant","model":"gpt-5","content":"ok","usage":{"prompt_tokens":3000,"prompt_tokens_details":{"cached_tokens":2048},"completion_tokens":12}}]`,
			Usage{Input: 952, CacheRead: 2048, Output: 12}, "gpt-5"},
		{"codex", "codex",
			`{"timestamp":"2026-01-01T00:00:00.000Z","type":"turn_context","payload":{"model":"gpt-5.1-codex"}}
{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}}
{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"user_message","message":"go"}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5000},"last_token_usage":{"input_tokens":5000,"cached_input_tokens":4096,"output_tokens":80,"reasoning_output_tokens":30}}}}
{"timestamp":"2026-01-01T00:00:01.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":5000},"last_token_usage":{"input_tokens":5000,"cached_input_tokens":4096,"output_tokens":80,"reasoning_output_tokens":30}}}}
`, Usage{Input: 904, CacheRead: 4096, Output: 80}, "gpt-5.1-codex"},
		{"gemini", "gemini",
			`{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"text":"ok"}],"modelVersion":"gemini-2.5-pro","usageMetadata":{"promptTokenCount":1500,"cachedContentTokenCount":1024,"candidatesTokenCount":20,"thoughtsTokenCount":100}}]}`,
			Usage{Input: 476, CacheRead: 1024, Output: 120}, "gemini-2.5-pro"},
		{"gemini-cli", "gemini-cli",
			`{"sessionId":"s","startTime":"2026-01-01T00:00:00.000Z","messages":[{"id":"1","timestamp":"2026-01-01T00:00:00.000Z","type":"user","content":"go"},{"id":"2","timestamp":"2026-01-01T00:00:01.000Z","type":"gemini","content":"ok","model":"gemini-2.5-flash","tokens":{"input":900,"output":30,"cached":512,"thoughts":10}}]}`,
			Usage{Input: 388, CacheRead: 512, Output: 40}, "gemini-2.5-flash"},
		{"harpe", "harpe",
			`{"type":"user","content":"go"}
{"type":"assistant","content":"ok"}
{"type":"usage","input_tokens":700,"cache_read_tokens":600,"cache_write_tokens":50,"output_tokens":9,"model":"claude-opus-4-5"}
`, Usage{Input: 50, CacheRead: 600, CacheWrite: 50, Output: 9}, "claude-opus-4-5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(tc.in), "in", Format(tc.format))
			if err != nil {
				t.Fatal(err)
			}
			var got []*Message
			for i := range ts[0].Messages {
				if m := &ts[0].Messages[i]; m.Usage != nil {
					got = append(got, m)
				}
			}
			if len(got) != 1 {
				t.Fatalf("%d messages with usage, want 1", len(got))
			}
			m := got[0]
			if *m.Usage != tc.want {
				t.Errorf("usage %+v, want %+v", *m.Usage, tc.want)
			}
			if m.InputTokens == nil || *m.InputTokens != tc.want.Prompt() {
				t.Errorf("input tokens %v, want %d", m.InputTokens, tc.want.Prompt())
			}
			if m.Model != tc.model {
				t.Errorf("model %q, want %q", m.Model, tc.model)
			}
		})
	}
}

func TestHarpeUsageErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"parts exceed the prompt", `{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":10,"cache_read_tokens":8,"cache_write_tokens":5}`, `in:2: "cache_read_tokens" + "cache_write_tokens" (13) exceed "input_tokens" (10), which is the whole prompt`},
		{"negative", `{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":10,"output_tokens":-1}`, `in:2: "cache_read_tokens", "cache_write_tokens" and "output_tokens" must be whole numbers ≥ 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.in), "in", "harpe")
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
}
