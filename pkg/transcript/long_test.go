package transcript

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
)

// longSample holds totals of a generated long session (scripts/gen-transcripts),
// each worked out with jq on the file, not with this package. The queries:
//
//	harpe:       jq -s 'map(select(.type|IN("system","user","assistant","tool_result")))|length'  (messages)
//	             jq -s '[.[].tool_calls[]?]|length', 'map(select(.type=="usage").input_tokens)|add'
//	             aborted: messages from the last user event before the abort to the abort
//	openai:      jq -s 'length', 'map(select(.role=="user"))|length', 'map(.usage.prompt_tokens // 0)|add'
//	anthropic:   1 system + per message: 1, or for a user message with blocks its tool_result count
//	claude-code: assistant records + tool_result blocks + user records with string content;
//	             input: unique_by(.message.id) | usage input + cache_creation + cache_read
//	codex:       session_meta + message items + call items + output items + replacement history;
//	             one call per distinct total_token_usage
//	gemini-cli:  user + gemini records + functionResponse parts; sum of .tokens.input
type longSample struct {
	file                       string
	messages, turns            int
	calls, results             int
	inputN, inputSum           int
	aborted, meta, compactions int
	callGroups                 int
	skipped                    map[string]int
}

var longSamples = []longSample{
	{file: "harpe/long.jsonl", messages: 566, turns: 60, calls: 263, results: 263, inputN: 242, inputSum: 2387418, aborted: 4},
	{file: "openai/long.jsonl", messages: 574, turns: 60, calls: 267, results: 267, inputN: 246, inputSum: 2430296},
	{file: "anthropic/long.json", messages: 574, turns: 60, calls: 267, results: 267},
	// The first two calls of the Claude Code sample record
	// cache_read_input_tokens -3 (3 records: a generator slip), so their
	// usage is left out: 2 calls fewer with usage, and their prompts,
	// 3+917−3 = 917 and 3+969−3 = 969, out of the sum: 2,430,296 − 1,886.
	{file: "claude-code/long.jsonl", messages: 718, turns: 60, calls: 267, results: 267, inputN: 246, inputSum: 2430296,
		meta: 2, compactions: 1, callGroups: 246,
		skipped: map[string]int{"progress": 267, "file-history-snapshot": 60, "compact_boundary": 1}},
	{file: "codex/long.jsonl", messages: 719, turns: 60, calls: 267, results: 267, inputN: 246, inputSum: 2430296,
		meta: 2, compactions: 1, callGroups: 246,
		skipped: map[string]int{"reasoning": 246, "turn_context": 60, "event_msg/agent_message": 122,
			"event_msg/token_count": 492, "event_msg/user_message": 60}},
	{file: "gemini-cli/long.json", messages: 573, turns: 60, calls: 267, results: 267, inputN: 246, inputSum: 2430296},
}

func TestLongSamples(t *testing.T) {
	for _, s := range longSamples {
		t.Run(s.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", s.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ts, err := Read(f, s.file, "")
			if err != nil {
				t.Fatal(err)
			}
			tr := ts[0]
			got := longSample{file: s.file, messages: len(tr.Messages), turns: tr.Turns,
				compactions: len(tr.Compactions), skipped: tr.Skipped}
			groups := map[string]bool{}
			for _, m := range tr.Messages {
				got.calls += len(m.ToolCalls)
				if m.ToolCallID != "" {
					got.results++
				}
				if m.InputTokens != nil {
					got.inputN++
					got.inputSum += *m.InputTokens
				}
				if m.Aborted {
					got.aborted++
				}
				if m.Meta {
					got.meta++
				}
				if m.Call != "" {
					groups[m.Call] = true
				}
			}
			got.callGroups = len(groups)
			if s.skipped == nil {
				s.skipped = map[string]int{}
			}
			if !maps.Equal(got.skipped, s.skipped) {
				t.Errorf("skipped\n got %v\nwant %v", got.skipped, s.skipped)
			}
			got.skipped, s.skipped = nil, nil
			if got.messages != s.messages || got.turns != s.turns || got.calls != s.calls || got.results != s.results ||
				got.inputN != s.inputN || got.inputSum != s.inputSum || got.aborted != s.aborted || got.meta != s.meta ||
				got.compactions != s.compactions || got.callGroups != s.callGroups {
				t.Errorf("\n got %+v\nwant %+v", got, s)
			}
			if len(tr.Unpaired) != 0 {
				t.Errorf("unpaired %v", tr.Unpaired)
			}
		})
	}
}
