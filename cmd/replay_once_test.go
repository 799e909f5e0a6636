package cmd

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayTotalsJSONOnce: --totals with JSON of one session writes its
// calls, and replays it once. Before, the session was replayed for its
// totals, then again for its calls (two "full ... done" progress lines
// on a terminal's stderr). A file of two conversations still gets the
// sessions' totals, replayed once each.
func TestReplayTotalsJSONOnce(t *testing.T) {
	dir := t.TempDir()
	one := filepath.Join(dir, "one.jsonl")
	writeTestFile(t, one, `{"type":"user","content":"hello"}
{"type":"assistant","content":"hi"}
{"type":"user","content":"and?"}
{"type":"assistant","content":"ok"}
`, 0o644)
	two := filepath.Join(dir, "two.json")
	writeTestFile(t, two, `[{"id":"a","conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"hello"}]},`+
		`{"id":"b","conversations":[{"from":"human","value":"yo"},{"from":"gpt","value":"hey"}]}]`+"\n", 0o644)
	tests := []struct {
		name, file string
		wantDone   int    // replays of full
		wantOut    string // a field of the report written
	}{
		// One session's totals in JSON are its totals, not its report
		// with every call (issue 35 item 3).
		{"one session", one, 1, `"sessions"`},
		{"two sessions", two, 2, `"sessions"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := Run(context.Background(), []string{"replay", "--totals", "-f", "json", "--strategy", "full,windowed", tt.file},
				IO{In: strings.NewReader(""), Out: &out, Err: &errs, ErrIsTerminal: true},
				func(string) (string, bool) { return "", false })
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs.String())
			}
			// Each replay of a strategy reports its start ("0 of").
			if n := strings.Count(errs.String(), "replay: full: 0 of"); n != tt.wantDone {
				t.Errorf("full replayed %d times, want %d:\n%q", n, tt.wantDone, errs.String())
			}
			if !strings.Contains(out.String(), tt.wantOut) {
				t.Errorf("report has no %s:\n%s", tt.wantOut, out.String())
			}
			if strings.Contains(out.String(), `"calls": [`) {
				t.Errorf("--totals wrote calls:\n%s", out.String())
			}
		})
	}
}
