package transcript

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sample is what a sample file in testdata/transcripts holds, worked out
// by reading the file by hand (or with jq), not from the reader.
type sample struct {
	file   string
	format Format
	// roles has one letter a message: s system, u user, a assistant, t tool.
	roles string
	// turns has each message's turn, space separated.
	turns    string
	nturns   int
	input    map[int]int // message index → input tokens
	unpaired string      // "c<i>:<id>" calls, "r<i>:<id>" results, space separated
	skipped  map[string]int
	aborted  []int
	meta     []int
	compact  []int
	calls    int    // distinct Call groups, 0 when the format does not group
	conv     string // the conversation to check, when the file has several
	n        int    // transcripts in the file when more than 1
}

var samples = []sample{
	{file: "harpe/basic.jsonl", format: "harpe",
		roles: "suatatauatta", turns: "0 1 1 1 1 1 1 2 2 2 2 2", nturns: 2,
		input: map[int]int{2: 1210, 4: 1388, 6: 1502, 8: 1590, 11: 1655}},
	{file: "harpe/aborted.jsonl", format: "harpe",
		roles: "suatua", turns: "0 1 1 1 2 2", nturns: 2,
		input: map[int]int{2: 300, 5: 420}, aborted: []int{1, 2, 3}},
	{file: "harpe/orphan.jsonl", format: "harpe",
		roles: "uta", turns: "1 1 1", nturns: 1,
		input: map[int]int{2: 95}, unpaired: "r1:call_9 c2:call_1"},
	{file: "harpe/system-only.jsonl", format: "harpe", roles: "ss", turns: "0 0"},
	{file: "harpe/empty.jsonl", format: "harpe"},

	{file: "openai/chat.json", format: "openai",
		roles: "suattaua", turns: "0 1 1 1 1 1 2 2", nturns: 2},
	{file: "openai/messages.jsonl", format: "openai",
		roles: "suauata", turns: "0 1 1 2 2 2 2", nturns: 2,
		input: map[int]int{2: 41, 4: 77, 6: 120}},
	{file: "openai/orphan.json", format: "openai",
		roles: "uta", turns: "1 1 1", nturns: 1, unpaired: "r1:call_lost c2:call_new"},
	{file: "openai/legacy-function.json", format: "openai",
		roles: "suata", turns: "0 1 1 1 1", nturns: 1},
	{file: "openai/finetune.jsonl", format: "openai", n: 2,
		roles: "sua", turns: "0 1 1", nturns: 1},
	{file: "openai/empty.json", format: "openai"},

	{file: "anthropic/request.json", format: "anthropic",
		roles: "suatatua", turns: "0 1 1 1 1 1 1 1", nturns: 1,
		skipped: map[string]int{"thinking": 1, "redacted_thinking": 1}},
	{file: "anthropic/server-tools.json", format: "anthropic",
		roles: "uatua", turns: "1 1 1 2 2", nturns: 2,
		input: map[int]int{1: 3 + 1200 + 8800, 4: 10512}},
	{file: "anthropic/system-only.json", format: "anthropic", roles: "s", turns: "0"},

	{file: "claude-code/session.jsonl", format: "claude-code",
		roles: "uaataatauuuuatuua", turns: "1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 3 3", nturns: 3,
		input: map[int]int{1: 4 + 5200 + 11000, 4: 2 + 410 + 16200, 7: 2 + 300 + 16610, 12: 3 + 900 + 6100, 16: 3 + 120 + 7100},
		meta:  []int{8, 9, 10, 14}, compact: []int{10}, calls: 5,
		skipped: map[string]int{"summary": 1, "thinking": 1, "progress": 1, "file-history-snapshot": 1,
			"compact_boundary": 1, "sidechain": 2, "queue-operation": 1, "system": 1}},
	{file: "claude-code/agent-sidechain.jsonl", format: "claude-code",
		roles: "uata", turns: "1 1 1 1", nturns: 1, calls: 2,
		input: map[int]int{1: 12 + 2100, 3: 8 + 60 + 2100}},

	{file: "codex/rollout.jsonl", format: "codex",
		roles: "suuuatatauaauuua", turns: "0 0 0 1 1 1 1 1 1 2 2 2 2 2 3 3", nturns: 3,
		input:    map[int]int{4: 8100, 6: 8500, 8: 8800, 10: 9100, 15: 2400},
		unpaired: "c11:call_B1", meta: []int{1, 2, 12, 13}, compact: []int{12}, calls: 5,
		skipped: map[string]int{"turn_context": 1, "event_msg/token_count": 7, "event_msg/user_message": 3,
			"event_msg/agent_reasoning": 1, "event_msg/agent_message": 1, "event_msg/turn_aborted": 1, "reasoning": 1}},

	{file: "codex/responses-request.json", format: "codex",
		roles: "suuatau", turns: "0 0 1 1 1 1 2", nturns: 2, meta: []int{1}, calls: 2},

	{file: "gemini/contents.json", format: "gemini",
		roles: "suatataua", turns: "0 1 1 1 1 1 1 2 2", nturns: 2,
		input: map[int]int{8: 2310}, skipped: map[string]int{"thought": 1}},
	{file: "gemini-cli/session.json", format: "gemini-cli",
		roles: "uattaua", turns: "1 1 1 1 1 2 2", nturns: 2,
		input: map[int]int{1: 5210, 4: 5600}, unpaired: "c6:replace-1736949725000-c3",
		skipped: map[string]int{"info": 1, "error": 1, "thought": 1}},

	{file: "sharegpt/conversations.json", format: "sharegpt", n: 2, conv: "conv-git-1",
		roles: "suaua", turns: "0 1 1 2 2", nturns: 2},
	{file: "sharegpt/conversations.json", format: "sharegpt", n: 2, conv: "conv-tool-2",
		roles: "uata", turns: "1 1 1 1", nturns: 1},
	{file: "sharegpt/single.json", format: "sharegpt", conv: "42",
		roles: "ua", turns: "1 1", nturns: 1},

	{file: "swe-agent/fix-issue.traj", format: "swe-agent",
		roles: "suatatua", turns: "0 1 1 1 1 1 1 1", nturns: 1, unpaired: "c7:call_q3"},
	{file: "openhands/events.json", format: "openhands",
		roles: "suatataua", turns: "0 1 1 1 1 1 1 2 2", nturns: 2,
		input: map[int]int{2: 6120, 4: 6390, 8: 6702}, unpaired: "c8:toolu_bdg3", calls: 3,
		skipped: map[string]int{"action/recall": 1, "observation/agent_state_changed": 2}},
	{file: "long-memory/sessions.json", format: "long-memory", conv: "conv-07",
		roles: "uauauu", turns: "1 1 2 2 3 4", nturns: 4},
}

var roleLetter = map[Role]byte{RoleSystem: 's', RoleUser: 'u', RoleAssistant: 'a', RoleTool: 't'}

// TestSamples reads every sample with format detection and checks the
// messages, turns, pairs and counts against the table above.
func TestSamples(t *testing.T) {
	for _, s := range samples {
		t.Run(s.file+"#"+s.conv, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", s.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ts, err := Read(f, s.file, "")
			if err != nil {
				t.Fatal(err)
			}
			if want := max(s.n, 1); len(ts) != want {
				t.Fatalf("%d transcripts, want %d", len(ts), want)
			}
			tr := ts[0]
			if s.conv != "" {
				if tr, err = Select(ts, s.conv); err != nil {
					t.Fatal(err)
				}
			}
			checkSample(t, tr, s)
		})
	}
}

func checkSample(t *testing.T, tr *Transcript, s sample) {
	t.Helper()
	if tr.Format != s.format {
		t.Errorf("format %q, want %q", tr.Format, s.format)
	}
	var roles []byte
	var turns []string
	input := map[int]int{}
	var aborted, meta []int
	calls := map[string]bool{}
	for i, m := range tr.Messages {
		if m.Index != i {
			t.Errorf("message %d has Index %d", i, m.Index)
		}
		roles = append(roles, roleLetter[m.Role])
		turns = append(turns, fmt.Sprint(m.Turn))
		if m.InputTokens != nil {
			input[i] = *m.InputTokens
		}
		if m.Aborted {
			aborted = append(aborted, i)
		}
		if m.Meta {
			meta = append(meta, i)
		}
		if m.Call != "" {
			calls[m.Call] = true
		}
	}
	if string(roles) != s.roles {
		t.Errorf("roles\n got %s\nwant %s", roles, s.roles)
	}
	if got := strings.Join(turns, " "); got != s.turns {
		t.Errorf("turns\n got %s\nwant %s", got, s.turns)
	}
	if tr.Turns != s.nturns {
		t.Errorf("Turns = %d, want %d", tr.Turns, s.nturns)
	}
	if s.input == nil {
		s.input = map[int]int{}
	}
	if !maps.Equal(input, s.input) {
		t.Errorf("input tokens\n got %v\nwant %v", input, s.input)
	}
	var un []string
	for _, u := range tr.Unpaired {
		un = append(un, fmt.Sprintf("%c%d:%s", u.Kind[0], u.Message, u.ToolCallID))
	}
	if got := strings.Join(un, " "); got != s.unpaired {
		t.Errorf("unpaired\n got %s\nwant %s", got, s.unpaired)
	}
	if s.skipped == nil {
		s.skipped = map[string]int{}
	}
	if !maps.Equal(tr.Skipped, s.skipped) {
		t.Errorf("skipped\n got %v\nwant %v", tr.Skipped, s.skipped)
	}
	if !slices.Equal(aborted, s.aborted) {
		t.Errorf("aborted %v, want %v", aborted, s.aborted)
	}
	if !slices.Equal(meta, s.meta) {
		t.Errorf("meta %v, want %v", meta, s.meta)
	}
	if !slices.Equal(tr.Compactions, s.compact) {
		t.Errorf("compactions %v, want %v", tr.Compactions, s.compact)
	}
	if len(calls) != s.calls {
		t.Errorf("%d call groups, want %d", len(calls), s.calls)
	}
}
