package transcript

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// TestLiveSession: a half-written last line (no newline yet, a JSON object
// cut short) is skipped with a warning naming file and line; any other
// line that is not JSON is skipped too, counted and named with its column
// (as a broken line), and is an error naming the same place under
// WithStrictLines.
func TestLiveSession(t *testing.T) {
	const u1 = `{"type":"user","content":"one"}` + "\n"
	const u2 = `{"type":"user","content":"two"}` + "\n"
	tests := []struct {
		name, in string
		messages int
		broken   int
		warning  string
		strict   string // the error under WithStrictLines, "" for none
	}{
		{"half-written last line", u1 + u2 + `{"type":"assis`, 2, 0, "live.jsonl:3: skipped a half-written last line (a session still being written?)", ""},
		{"half-written after blank lines", u1 + "\n\n" + `{"type":"user","con`, 1, 0, "live.jsonl:4: skipped a half-written last line (a session still being written?)", ""},
		{"complete last line without newline", u1 + `{"type":"user","content":"two"}`, 2, 0, "", ""},
		// `{"type":"user",` is 15 bytes: the input ends at column 16.
		{"cut short but ended by a newline", u1 + `{"type":"user",` + "\n", 1, 1,
			"live.jsonl:2:16: broken line skipped (invalid JSON: unexpected end of JSON input)", "live.jsonl:2:16: invalid JSON: unexpected end of JSON input"},
		{"broken line in the middle", u1 + `{"type":"us` + "\n" + u2, 2, 1,
			"live.jsonl:2:12: broken line skipped (invalid JSON: unexpected end of JSON input)", "live.jsonl:2:12: invalid JSON"},
		// The 15th byte, "]", is wrong.
		{"last line is garbage, not cut short", u1 + `{"type":"user"]`, 1, 1,
			"live.jsonl:2:15: broken line skipped (invalid JSON: invalid character ']' after object key:value pair)", "live.jsonl:2:15: invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, strict := range []bool{false, true} {
				for _, scan := range []bool{false, true} {
					ctx := context.Background()
					if strict {
						ctx = WithStrictLines(ctx)
					}
					var ts []*Transcript
					var err error
					n := 0
					if scan {
						err = Scan(ctx, strings.NewReader(tt.in), "live.jsonl", "", func(*Transcript, *Message) error { n++; return nil }, func(t *Transcript) error { ts = append(ts, t); return nil })
					} else {
						ts, err = read(ctx, strings.NewReader(tt.in), "live.jsonl", "", nil, nil)
						if err == nil {
							n = len(ts[0].Messages)
						}
					}
					if strict && tt.strict != "" {
						if err == nil || !strings.HasPrefix(err.Error(), tt.strict) {
							t.Fatalf("strict, scan %v: error %v, want prefix %q", scan, err, tt.strict)
						}
						continue
					}
					if err != nil {
						t.Fatalf("strict %v, scan %v: %v", strict, scan, err)
					}
					if n != tt.messages {
						t.Errorf("scan %v: %d messages, want %d", scan, n, tt.messages)
					}
					var ws []string
					for _, w := range ts[0].Warnings {
						ws = append(ws, w.Error())
					}
					if got := strings.Join(ws, "; "); got != tt.warning {
						t.Errorf("scan %v: warnings %q, want %q", scan, got, tt.warning)
					}
					if ts[0].BrokenLines != tt.broken || ts[0].Skipped[SkippedBrokenLine] != tt.broken {
						t.Errorf("scan %v: %d broken lines (%d in Skipped), want %d", scan, ts[0].BrokenLines, ts[0].Skipped[SkippedBrokenLine], tt.broken)
					}
				}
			}
		})
	}
}

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
	ts, err := Read(strings.NewReader(in), "s.jsonl", "")
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
	over := 80 - (7 + 7 + 11 + 7) - ReplyPriming // the last usage, before message 5
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

// TestItemWriter: the system part pinned, a call and its results one
// group named by the tool, aborted turns left out.
func TestItemWriter(t *testing.T) {
	in := `{"type":"system","content":"Be terse.","timestamp":"2026-01-02T03:04:05+01:00"}
{"type":"user","content":"List files."}
{"type":"assistant","content":"Looking.","tool_calls":[{"id":"c1","name":"ls","arguments":"{}"},{"id":"c2","name":"cat","arguments":"a"}]}
{"type":"tool_result","tool_call_id":"c1","content":"a"}
{"type":"tool_result","tool_call_id":"c2","content":"A"}
{"type":"tool_result","tool_call_id":"zz","content":"stray"}
{"type":"user","content":"Bye"}
{"type":"abort"}
`
	ts, err := Read(strings.NewReader(in), "s.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	w := &ItemWriter{File: "s.jsonl"}
	var got []string
	for i := range ts[0].Messages {
		it, ok := w.Item(ts[0], &ts[0].Messages[i])
		if !ok {
			continue
		}
		got = append(got, strings.Join([]string{it.ID, it.Role, it.Dimension, it.Group, it.Timestamp, it.Content}, "|"))
		if it.Pinned != (it.Role == string(RoleSystem)) {
			t.Errorf("%s: pinned %v", it.ID, it.Pinned)
		}
	}
	want := []string{
		"m0|system|system||2026-01-02T02:04:05Z|Be terse.",
		"m1|user|user|||List files.",
		"m2|assistant|tool:ls|call2||Looking.\n[tool call ls: {}]\n[tool call cat: a]",
		"m3|tool|tool:ls|call2||a",
		"m4|tool|tool:cat|call2||A",
		"m5|tool|tool|||stray",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("items\n got %q\nwant %q", got, want)
	}
	if w.Aborted != 1 {
		t.Errorf("aborted %d, want 1", w.Aborted)
	}
}

// TestSWEAgentTextMode: the text-mode sample is one human task whose
// observations are tool results, each named by its action's command.
func TestSWEAgentTextMode(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", "swe-agent", "text-mode.traj"))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := Read(strings.NewReader(string(data)), "t.traj", "")
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	if tr.Turns != 1 {
		t.Errorf("turns %d, want 1", tr.Turns)
	}
	var got []string
	for _, m := range tr.Messages {
		s := string(m.Role)
		for _, c := range m.ToolCalls {
			s += " " + c.Name + "#" + c.ID
		}
		if m.ToolCallID != "" {
			s += " ←" + m.ToolCallID
		}
		if m.Meta {
			s += " meta"
		}
		got = append(got, s)
	}
	want := []string{"system", "user meta", "user", "assistant find_file#step-3", "tool ←step-3",
		"assistant open#step-5", "tool ←step-5", "assistant edit#step-7", "tool ←step-7", "assistant submit#step-9"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("messages\n got %q\nwant %q", got, want)
	}
	if len(tr.Unpaired) != 1 || tr.Unpaired[0].ToolCallID != "step-9" {
		t.Errorf("unpaired %+v, want the final submit", tr.Unpaired)
	}
}

// TestCutLine: a session log of each JSON Lines harness format whose
// third line was cut at half its bytes (scripts/gen-quirks, detect.go) is
// read with that line skipped, counted and named at the column just past
// its last byte; it records what the whole sample of the same seed does
// (the line cut records no usage), and under WithStrictLines it is an
// error naming the same place.
func TestCutLine(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	tests := []struct {
		format Format
		whole  string
	}{
		{FormatClaudeCode, "claude-code/quirks-thinking.jsonl"},
		{FormatCodex, "codex/quirks.jsonl"},
		{FormatGeminiCLI, "gemini-cli/session.jsonl"},
		{FormatCopilotCLI, "copilot-cli/events.jsonl"},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			path := filepath.Join(root, "cut-line", string(tt.format)+".jsonl")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			third := strings.Split(string(data), "\n")[2]
			place := fmt.Sprintf("%s:3:%d", path, len(third)+1)
			collect := func(ctx context.Context, p string) (*Collected, error) {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				return Collect(ctx, f, p, CollectOptions{})
			}
			got, err := collect(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if got.BrokenLines != 1 || len(got.BrokenAt) != 1 || got.BrokenAt[0] != place {
				t.Errorf("broken lines %d at %v, want 1 at %s", got.BrokenLines, got.BrokenAt, place)
			}
			whole, err := collect(context.Background(), filepath.Join(root, tt.whole))
			if err != nil {
				t.Fatal(err)
			}
			g, w := got.Summaries.At(0), whole.Summaries.At(0)
			if g.Format != string(tt.format) || g.Recorded != w.Recorded || g.Messages != w.Messages {
				t.Errorf("%s, %d messages, recorded %+v; the whole file: %s, %d, %+v", g.Format, g.Messages, g.Recorded, w.Format, w.Messages, w.Recorded)
			}
			_, err = collect(WithStrictLines(context.Background()), path)
			if err == nil || !strings.HasPrefix(err.Error(), place+": invalid JSON: unexpected end of JSON input") {
				t.Errorf("strict: %v, want an error at %s", err, place)
			}
		})
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
			ts, err := Read(strings.NewReader(c.in), "s.jsonl", FormatClaudeCode)
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
