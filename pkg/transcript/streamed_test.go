package transcript

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// ccRec writes one Claude Code assistant record of call id: block is its
// one content block, usage its usage object, extra any further top-level
// fields (a requestId, isSidechain).
func ccRec(id, block, usage, extra string) string {
	return `{"type":"assistant","uuid":"u-` + id + `","timestamp":"2026-01-01T00:00:01.000Z"` + extra +
		`,"message":{"id":"` + id + `","role":"assistant","model":"claude-sonnet-4-5","content":[` + block + `],"usage":` + usage + `}}` + "\n"
}

const (
	ccPrompt   = `{"type":"user","uuid":"p","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}` + "\n"
	ccThinking = `{"type":"thinking","thinking":"hm","signature":"s"}`
	ccText     = `{"type":"text","text":"Reading the file."}`
	ccTool     = `{"type":"tool_use","id":"toolu_1","name":"Read","input":{"file_path":"/a.go"}}`
	ccResult   = `{"type":"user","uuid":"r","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"package a"}]}}` + "\n"
)

// usage of one streamed response as its records stand: the prompt parts
// are final from the first record, output_tokens grows.
func ccUsage(output string) string {
	return `{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":12000,"cache_creation":{"ephemeral_5m_input_tokens":400,"ephemeral_1h_input_tokens":100},"output_tokens":` + output + `}`
}

// TestStreamedUsage checks that a response written as several records
// (one per content block, as Claude Code streams it) bills its LAST
// record's usage, on the call's first message, whatever the records say
// before it. Expected figures are the records' own: input 3, cache write
// 500 (100 of it 1-hour), cache read 12,000, output of the last record.
func TestStreamedUsage(t *testing.T) {
	req := `,"requestId":"req_1"`
	side := `,"isSidechain":true`
	tests := []struct {
		name    string
		in      string
		output  int // the call's output; -1: no usage on the conversation
		unsent  []int
		skipped string
	}{
		{"first middle last", ccPrompt + ccRec("msg_1", ccThinking, ccUsage("2"), req) + ccRec("msg_1", ccText, ccUsage("9"), req) + ccRec("msg_1", ccTool, ccUsage("187"), req) + ccResult, 187, nil, ""},
		{"one record", ccPrompt + ccRec("msg_1", ccTool, ccUsage("61"), req) + ccResult, 61, nil, ""},
		// Bedrock writes no requestId: message.id alone groups the records.
		{"no requestId", ccPrompt + ccRec("msg_bdrk_01A", ccThinking, ccUsage("4"), "") + ccRec("msg_bdrk_01A", ccText, ccUsage("40"), "") + ccRec("msg_bdrk_01A", ccTool, ccUsage("95"), "") + ccResult, 95, nil, ""},
		// A thinking-only first record makes no message: the usage lands
		// on the text record's message, still the last record's.
		{"last without usage keeps the latest", ccPrompt + ccRec("msg_1", ccText, ccUsage("7"), req) + ccRec("msg_1", ccTool, ccUsage("120"), req) + ccRec("msg_1", `{"type":"text","text":"and more"}`, "null", req) + ccResult, 120, nil, ""},
		// A subagent's run inline in the main file: the conversation has
		// no usage of it; Unsent holds its last record's (31, then 58).
		{"sidechain in main file", ccPrompt + ccRec("msg_1", ccTool, ccUsage("70"), req) +
			ccRec("msg_s1", ccText, ccUsage("3"), side) + ccRec("msg_s1", ccTool, ccUsage("31"), side) +
			ccRec("msg_s2", ccText, ccUsage("5"), side) + ccRec("msg_s2", `{"type":"text","text":"done"}`, ccUsage("58"), side) + ccResult,
			70, []int{31, 58}, ""},
		// A subagent's own file: the sidechain is the conversation.
		{"subagent file", strings.ReplaceAll(ccPrompt, `"type":"user",`, `"type":"user","isSidechain":true,`) +
			ccRec("msg_s1", ccText, ccUsage("3"), side) + ccRec("msg_s1", ccTool, ccUsage("44"), side), 44, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(tc.in), "in", "claude-code")
			if err != nil {
				t.Fatal(err)
			}
			tr := ts[0]
			var with []*Message
			for i := range tr.Messages {
				if tr.Messages[i].Usage != nil {
					with = append(with, &tr.Messages[i])
				}
			}
			if len(with) != 1 {
				t.Fatalf("%d messages with usage, want 1", len(with))
			}
			m := with[0]
			if m.Role != RoleAssistant || m.Index != firstAssistant(tr) {
				t.Errorf("usage on message %d (%s), want the call's first message %d", m.Index, m.Role, firstAssistant(tr))
			}
			want := Usage{Input: 3, CacheRead: 12000, CacheWrite: 500, CacheWrite1h: 100, Output: tc.output}
			if *m.Usage != want {
				t.Errorf("usage %+v, want %+v", *m.Usage, want)
			}
			if m.InputTokens == nil || *m.InputTokens != 12503 {
				t.Errorf("input tokens %v, want 3+500+12000 = 12503", m.InputTokens)
			}
			if len(tr.Unsent) != len(tc.unsent) {
				t.Fatalf("unsent %+v, want outputs %v", tr.Unsent, tc.unsent)
			}
			for k, o := range tc.unsent {
				if tr.Unsent[k].Usage.Output != o {
					t.Errorf("unsent %d output %d, want %d", k, tr.Unsent[k].Usage.Output, o)
				}
			}
			if len(tr.Warnings) != 0 {
				t.Errorf("warnings %v, want none", tr.Warnings)
			}
		})
	}
}

func firstAssistant(t *Transcript) int {
	for i := range t.Messages {
		if t.Messages[i].Role == RoleAssistant {
			return i
		}
	}
	return -1
}

// TestStreamedUsageScan checks the same rule through Scan, which hands
// messages on once their turn is over: the call's records all come before
// the next prompt, so the message handed on has the last record's usage.
func TestStreamedUsageScan(t *testing.T) {
	in := ccPrompt + ccRec("msg_1", ccText, ccUsage("5"), "") + ccRec("msg_1", ccTool, ccUsage("150"), "") + ccResult +
		strings.ReplaceAll(ccPrompt, `"content":"go"`, `"content":"again"`) + ccRec("msg_2", ccText, ccUsage("2"), "") + ccRec("msg_2", `{"type":"text","text":"ok"}`, ccUsage("33"), "")
	var outputs []int
	err := Scan(context.Background(), strings.NewReader(in), "in", "claude-code", func(_ *Transcript, m *Message) error {
		if m.Usage != nil {
			outputs = append(outputs, m.Usage.Output)
		}
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(outputs) != 2 || outputs[0] != 150 || outputs[1] != 33 {
		t.Errorf("outputs %v, want [150 33]", outputs)
	}
}

// TestStreamedUsageAfterHandOver: a call whose records straddle a human
// prompt (not what Claude Code writes) cannot update a message already
// handed on by Scan; the reader counts that in Skipped.
func TestStreamedUsageAfterHandOver(t *testing.T) {
	in := ccPrompt + ccRec("msg_1", ccText, ccUsage("5"), "") +
		strings.ReplaceAll(ccPrompt, `"content":"go"`, `"content":"again"`) + ccRec("msg_1", ccTool, ccUsage("150"), "")
	var ts []*Transcript
	err := Scan(context.Background(), strings.NewReader(in), "in", "claude-code", func(*Transcript, *Message) error { return nil }, func(t *Transcript) error { ts = append(ts, t); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if n := ts[0].Skipped["usage_after_hand_over"]; n != 1 {
		t.Errorf("usage_after_hand_over %d, want 1 (skipped %v)", n, ts[0].Skipped)
	}
}

// TestShortOutputNote: a response whose recorded output is under a
// quarter of the estimate of what it visibly wrote (a file kept only its
// first record) gets one warning for the whole file, counting them. The
// tool call below writes 2,000 "x, " triples, which the estimate counts at
// well over 4 × 1 tokens; the 9-token text of msg_2 with output 9 is not
// short.
func TestShortOutputNote(t *testing.T) {
	big := `{"type":"tool_use","id":"toolu_1","name":"Write","input":{"content":"` + strings.Repeat("x, ", 2000) + `"}}`
	in := ccPrompt + ccRec("msg_1", big, ccUsage("1"), "") + ccRec("msg_1b", big, ccUsage("2"), "") + ccRec("msg_2", ccText, ccUsage("9"), "")
	ts, err := Read(strings.NewReader(in), "in", "claude-code")
	if err != nil {
		t.Fatal(err)
	}
	w := ts[0].Warnings
	if len(w) != 1 {
		t.Fatalf("warnings %v, want 1", w)
	}
	if got := w[0].Error(); !strings.HasPrefix(got, "in:2: 2 of 3 responses record under a quarter of the output tokens") || !strings.Contains(got, "first: 1 recorded") {
		t.Errorf("warning %q", got)
	}
}

// TestShortOutputWhy: the short-output warning says why. Claude Code
// 2.1.41 and 2.1.45 write "stop_reason": null and a partial output_tokens
// on every record of a response (seen in real files of
// docs/real-sessions.md): the warning names the version the records give
// and what it did not write. Where a response has a stop_reason, or a
// record names no version, the records may have been lost: the warning
// says so.
func TestShortOutputWhy(t *testing.T) {
	big := `{"type":"tool_use","id":"toolu_1","name":"Write","input":{"content":"` + strings.Repeat("x, ", 2000) + `"}}`
	v := func(version string) string { return `,"version":"` + version + `"` }
	stop := func(rec string) string {
		return strings.Replace(rec, `"usage":`, `"stop_reason":"end_turn","usage":`, 1)
	}
	const lost = "their last records are missing (a stream cut short, or a file rewritten keeping first records), so their output is undercounted"
	tests := []struct {
		name, in, want string
	}{
		{"2.1.41, no stop_reason", ccPrompt + ccRec("msg_1", big, ccUsage("1"), v("2.1.41")) + ccRec("msg_2", ccText, ccUsage("9"), v("2.1.41")),
			"Claude Code 2.1.41 wrote no stop_reason and a partial output_tokens on every record of a response: no record holds the final usage, so their output is undercounted"},
		{"two versions", ccPrompt + ccRec("msg_1", big, ccUsage("1"), v("2.1.45")) + ccRec("msg_2", big, ccUsage("2"), v("2.1.41")),
			"Claude Code 2.1.41, 2.1.45 wrote no stop_reason"},
		{"stop_reason null written out", ccPrompt + strings.Replace(ccRec("msg_1", big, ccUsage("1"), v("2.1.41")), `"usage":`, `"stop_reason":null,"usage":`, 1),
			"Claude Code 2.1.41 wrote no stop_reason"},
		{"a response has a stop_reason", ccPrompt + ccRec("msg_1", big, ccUsage("1"), v("2.1.77")) + stop(ccRec("msg_2", ccText, ccUsage("9"), v("2.1.77"))), lost},
		{"no version", ccPrompt + ccRec("msg_1", big, ccUsage("1"), ""), lost},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(tc.in), "in", "claude-code")
			if err != nil {
				t.Fatal(err)
			}
			if w := ts[0].Warnings; len(w) != 1 || !strings.Contains(w[0].Error(), tc.want) {
				t.Errorf("warnings %v, want one with %q", w, tc.want)
			}
		})
	}
}

// TestClaudeCodeResponse: the Claude Code reader names each call's
// response, on the message holding its usage and on the calls outside
// the conversation: message.id and requestId joined by a colon,
// message.id alone without a requestId; the hand decoder and
// encoding/json read the same.
func TestClaudeCodeResponse(t *testing.T) {
	req := func(r string) string { return `,"requestId":"` + r + `"` }
	side := `,"isSidechain":true`
	for _, tc := range []struct {
		name   string
		in     string
		want   []string // Response of the messages with usage, in order
		unsent []string
	}{
		{"streamed, with requestId", ccPrompt + ccRec("msg_1", ccText, ccUsage("2"), req("req_1")) + ccRec("msg_1", ccTool, ccUsage("9"), req("req_1")) + ccResult,
			[]string{"msg_1:req_1"}, nil},
		{"no requestId (Bedrock)", ccPrompt + ccRec("msg_bdrk_1", ccTool, ccUsage("9"), "") + ccResult,
			[]string{"msg_bdrk_1"}, nil},
		{"a sidechain call", ccPrompt + ccRec("msg_s", ccText, ccUsage("5"), side+req("req_s")) + ccRec("msg_1", ccTool, ccUsage("9"), req("req_1")) + ccResult,
			[]string{"msg_1:req_1"}, []string{"msg_s:req_s"}},
		{"a thinking-only call", ccPrompt + ccRec("msg_t", ccThinking, ccUsage("5"), req("req_t")) + ccRec("msg_1", ccTool, ccUsage("9"), req("req_1")) + ccResult,
			[]string{"msg_1:req_1"}, []string{"msg_t:req_t"}},
	} {
		for _, hand := range []bool{true, false} {
			t.Run(tc.name, func(t *testing.T) {
				defer func(h bool) { handDecode = h }(handDecode)
				handDecode = hand
				ts, err := Read(strings.NewReader(tc.in), "s.jsonl", FormatClaudeCode)
				if err != nil {
					t.Fatal(err)
				}
				var got, unsent []string
				for _, m := range ts[0].Messages {
					if m.Usage != nil {
						got = append(got, m.Response)
					}
				}
				for _, c := range ts[0].Unsent {
					unsent = append(unsent, c.Response)
				}
				if !slices.Equal(got, tc.want) || !slices.Equal(unsent, tc.unsent) {
					t.Errorf("hand decoder %v: responses %q, unsent %q; want %q, %q", hand, got, unsent, tc.want, tc.unsent)
				}
			})
		}
	}
}
