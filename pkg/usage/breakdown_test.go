package usage

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestBreakdown works a small harpe transcript by hand with the estimate
// (max(pieces, chars/4)); role names cost "system" 1, "user" 1,
// "assistant" 2 (9 chars / 4), "tool" 1, and every message 3 of framing.
func TestBreakdown(t *testing.T) {
	in := `{"type":"system","content":"Be terse."}
{"type":"user","content":"List files."}
{"type":"assistant","content":"","tool_calls":[{"id":"c1","name":"ls","arguments":"{}"}]}
{"type":"usage","input_tokens":60}
{"type":"tool_result","tool_call_id":"c1","content":"a b c"}
{"type":"assistant","content":"","tool_calls":[{"id":"c2","name":"ls","arguments":"{}"},{"id":"c3","name":"cat","arguments":"a"}]}
{"type":"usage","input_tokens":80}
{"type":"tool_result","tool_call_id":"c2","content":"x"}
{"type":"tool_result","tool_call_id":"c3","content":"one two three four"}
{"type":"assistant","content":"Done."}
{"type":"user","content":"Bye"}
{"type":"assistant","content":"Gone"}
{"type":"abort"}
`
	ts, err := transcript.Read(strings.NewReader(in), "s.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSessionBreakdown("s.jsonl", tokenize.Estimate)
	for i := range ts[0].Messages {
		s.Add(ts[0], &ts[0].Messages[i])
	}
	s.Finish(ts[0])
	// system "Be terse." 3 + 1 + 3 (Be terse .)          = 7
	// user "List files." 3 + 1 + 3                       = 7
	// assistant, no text: 3 + 2 = 5, call ls {} 3+1+2 = 6
	// result "a b c" 3 + 1 + 3                           = 7 (ls)
	// assistant: 5; calls ls {} 6, cat "a" 3+1+1 = 5
	// result "x" 3+1+1 = 5 (ls); "one two three four" 3+1+4 = 8 (cat)
	// assistant "Done." 3 + 2 + 2                        = 7
	// the aborted turn (Bye, Gone) is left out.
	want := CategoryTokens{System: 7, User: 7, Assistant: 5 + 5 + 7, ToolCalls: 6 + 6 + 5, ToolResults: 7 + 5 + 8}
	over := 80 - (7 + 7 + 11 + 7) - transcript.ReplyPriming // the last usage, before message 5
	want.Overhead = &over
	if s.Tokens.Overhead == nil || *s.Tokens.Overhead != over {
		t.Errorf("overhead %v, want %d", s.Tokens.Overhead, over)
	}
	got := s.Tokens
	got.Overhead, want.Overhead = nil, nil
	if got != want {
		t.Errorf("tokens\n got %+v\nwant %+v", got, want)
	}
	if s.VisibleTokens != 7+7+17+17+20 {
		t.Errorf("visible %d, want 68", s.VisibleTokens)
	}
	// 4 assistant messages (the aborted one included: it was a call).
	if s.Calls != 4 {
		t.Errorf("calls %d, want 4", s.Calls)
	}
	wantTools := []ToolTokens{
		{Name: "ls", Calls: 2, InputTokens: 12, ResultTokens: 12, MaxResultTokens: 7},
		{Name: "cat", Calls: 1, InputTokens: 5, ResultTokens: 8, MaxResultTokens: 8},
	}
	if len(s.Tools) != 2 || s.Tools[0] != wantTools[0] || s.Tools[1] != wantTools[1] {
		t.Errorf("tools\n got %+v\nwant %+v", s.Tools, wantTools)
	}
	b, err := NewBreakdown([]*SessionBreakdown{s, s})
	if err != nil {
		t.Fatal(err)
	}
	if b.Totals.Sessions != 2 || b.Totals.VisibleTokens != 136 || *b.Totals.Tokens.Overhead != 2*over || b.Totals.Tools[0].Calls != 4 {
		t.Errorf("totals %+v", b.Totals)
	}
}

// TestBreakdownSegments: a session is broken down per compaction segment,
// each segment's last recorded prompt set against its own visible tokens;
// the session's overhead is the last segment's that records a prompt.
// Figures by hand with the estimate (see TestBreakdown and
// testdata/script/transcript_breakdown_segments.txtar).
func TestBreakdownSegments(t *testing.T) {
	cc := func(recs ...string) string {
		out := ""
		for i, r := range recs {
			out += fmt.Sprintf(`{"sessionId":"s","uuid":"u%d","timestamp":"2026-02-10T09:00:0%dZ",%s}`+"\n", i, i, r)
		}
		return out
	}
	user := func(text string) string {
		return `"type":"user","message":{"role":"user","content":"` + text + `"}`
	}
	reply := func(id, text string, in int) string {
		return `"type":"assistant","message":{"id":"` + id + `","model":"claude-sonnet-4-5","role":"assistant","content":[{"type":"text","text":"` + text +
			`"}],"usage":{"input_tokens":` + strconv.Itoa(in) + `,"output_tokens":1}}`
	}
	boundary := `"type":"system","subtype":"compact_boundary"`
	summary := `"type":"user","isCompactSummary":true,"message":{"role":"user","content":"Summary."}`
	seg := func(first, calls, visible int, prompt, sent, over *int) SegmentBreakdown {
		return SegmentBreakdown{FirstMessage: first, Calls: calls, VisibleTokens: visible, LastPrompt: prompt, SentVisible: sent,
			Tokens: CategoryTokens{Overhead: over}}
	}
	n := func(v int) *int { return &v }
	// "Hi." user 3+1+2 = 6; "Yes." assistant 3+2+2 = 7; "Summary." 3+1+2 = 6.
	for _, c := range []struct {
		name, in string
		want     []SegmentBreakdown
		over     *int
	}{
		{"no compaction", cc(user("Hi."), reply("m1", "Yes.", 100), user("Hi."), reply("m2", "Yes.", 200)),
			[]SegmentBreakdown{seg(0, 2, 26, n(200), n(19), n(200-19-3))}, n(178)},
		{"two segments", cc(user("Hi."), reply("m1", "Yes.", 100), boundary, summary, user("Hi."), reply("m2", "Yes.", 90)),
			[]SegmentBreakdown{seg(0, 1, 13, n(100), n(6), n(91)), seg(2, 1, 19, n(90), n(12), n(75))}, n(75)},
		{"last segment without a prompt", cc(user("Hi."), reply("m1", "Yes.", 100), boundary, summary, user("Hi.")),
			[]SegmentBreakdown{seg(0, 1, 13, n(100), n(6), n(91)), seg(2, 0, 12, nil, nil, nil)}, n(91)},
		{"a summary first opens no empty segment", cc(boundary, summary, user("Hi."), reply("m1", "Yes.", 50)),
			[]SegmentBreakdown{seg(0, 1, 19, n(50), n(12), n(35))}, n(35)},
	} {
		t.Run(c.name, func(t *testing.T) {
			ts, err := transcript.Read(strings.NewReader(c.in), "s.jsonl", transcript.FormatClaudeCode)
			if err != nil {
				t.Fatal(err)
			}
			s := NewSessionBreakdown("s.jsonl", tokenize.Estimate)
			for i := range ts[0].Messages {
				if err := s.Add(ts[0], &ts[0].Messages[i]); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.Finish(ts[0]); err != nil {
				t.Fatal(err)
			}
			str := func(p *int) string {
				if p == nil {
					return "null"
				}
				return strconv.Itoa(*p)
			}
			if len(s.Segments) != len(c.want) {
				t.Fatalf("%d segments, want %d: %+v", len(s.Segments), len(c.want), s.Segments)
			}
			visible := 0
			for i, g := range s.Segments {
				w := c.want[i]
				if g.FirstMessage != w.FirstMessage || g.Calls != w.Calls || g.VisibleTokens != w.VisibleTokens ||
					str(g.LastPrompt) != str(w.LastPrompt) || str(g.SentVisible) != str(w.SentVisible) ||
					str(g.Tokens.Overhead) != str(w.Tokens.Overhead) {
					t.Errorf("segment %d: first %d calls %d visible %d prompt %s sent %s overhead %s, want %d %d %d %s %s %s", i+1,
						g.FirstMessage, g.Calls, g.VisibleTokens, str(g.LastPrompt), str(g.SentVisible), str(g.Tokens.Overhead),
						w.FirstMessage, w.Calls, w.VisibleTokens, str(w.LastPrompt), str(w.SentVisible), str(w.Tokens.Overhead))
				}
				visible += g.VisibleTokens
			}
			if visible != s.VisibleTokens {
				t.Errorf("segments' visible tokens add up to %d, the session's %d", visible, s.VisibleTokens)
			}
			if str(s.Tokens.Overhead) != str(c.over) {
				t.Errorf("session overhead %s, want %s", str(s.Tokens.Overhead), str(c.over))
			}
		})
	}
}
