package transcript

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
