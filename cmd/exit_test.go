package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExitStatus pins the exit status of synthesize and fit, which the
// testscripts can only check as zero or not.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// "abc def" is 2 pieces, 7 chars / 4 = 1: 2 tokens; the pinned item 5.
	items := write("items.jsonl", `{"id":"a","content":"abc def"}`+"\n"+`{"id":"p","content":"x","pinned":true,"token_count":5}`+"\n")
	bad := write("bad.jsonl", `{"content":"a","priority":-3}`+"\n")
	tests := []struct {
		name   string
		args   []string
		status int
		stdout bool   // something on stdout
		stderr string // prefix of stderr
	}{
		{"synthesize ok", []string{"synthesize", "--budget", "100", items}, ExitOK, true, ""},
		{"synthesize bad input", []string{"synthesize", "--budget", "100", bad}, ExitUsage, false,
			"harpe: " + bad + `:1: "priority" must be a whole number ≥ 0, got -3`},
		{"synthesize bad flag", []string{"synthesize", "--budget", "100", "--policy", "x", items}, ExitUsage, false, "harpe: --policy: unknown policy"},
		{"synthesize unknown flag", []string{"synthesize", "--bogus", items}, ExitUsage, false, "harpe: unknown flag --bogus"},
		// 5 > 4 + 0: over budget by 1.
		{"synthesize strict", []string{"synthesize", "--budget", "4", "--strict", items}, ExitStrict, false, "harpe: --strict: over budget"},
		{"synthesize over budget without strict", []string{"synthesize", "--budget", "4", items}, ExitOK, true, ""},
		// 2 + 5 = 7 tokens.
		{"fit fits", []string{"fit", "--threshold", "7", items}, ExitOK, true, ""},
		{"fit does not fit", []string{"fit", "--threshold", "6", items}, ExitNegative, true, ""},
		{"fit quiet", []string{"fit", "-q", "--threshold", "6", items}, ExitNegative, false, ""},
		{"fit bad input", []string{"fit", "--threshold", "6", bad}, ExitUsage, false, "harpe: " + bad + ":1:"},
		{"fit no threshold", []string{"fit", items}, ExitUsage, false, "harpe: --threshold: required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := func(string) (string, bool) { return "", false }
			got := Run(context.Background(), tt.args, IO{In: strings.NewReader(""), Out: &out, Err: &errb}, env)
			if got != tt.status {
				t.Errorf("status %d, want %d (stderr %q)", got, tt.status, errb.String())
			}
			if (out.Len() > 0) != tt.stdout {
				t.Errorf("stdout %q, want output %v", out.String(), tt.stdout)
			}
			if !strings.HasPrefix(errb.String(), tt.stderr) || (tt.stderr == "" && errb.Len() > 0) {
				t.Errorf("stderr %q, want prefix %q", errb.String(), tt.stderr)
			}
		})
	}
}
