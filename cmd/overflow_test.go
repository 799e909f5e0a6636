package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageOverflowExit pins the exit status of recorded usage that does
// not fit an int (issue 16), which the overflow_*.txtar scripts can only
// check as non-zero: 2, an error naming the file and line, no stdout.
func TestUsageOverflowExit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// 2^63−1 input plus 1 cache read.
	cc := write("cc.jsonl", `{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"+
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":"hello","usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}}}`+"\n")
	// Two calls of 5·10^18: 10^19 > 2^63−1.
	calls := write("calls.jsonl", `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":5000000000000000000}
`)
	tests := []struct {
		name   string
		args   []string
		stderr string // prefix
	}{
		{"transcript", []string{"transcript", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"transcript --breakdown", []string{"transcript", "--breakdown", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"count --transcript", []string{"count", "--transcript", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"fit", []string{"fit", "--threshold", "10", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"transcript recorded total", []string{"transcript", calls}, "harpe: " + calls + ":6: the recorded input tokens add up"},
		{"breakdown recorded total", []string{"transcript", "--breakdown", "--format", "table", calls}, "harpe: " + calls + ":6: the recorded input tokens add up"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runHarpe(t, "", tt.args...)
			if code != ExitUsage || stdout != "" || !strings.HasPrefix(stderr, tt.stderr) {
				t.Errorf("status %d, stdout %q, stderr %q; want %d, nothing, %q…", code, stdout, stderr, ExitUsage, tt.stderr)
			}
		})
	}
}
