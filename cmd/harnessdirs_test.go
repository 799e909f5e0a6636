package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarnessPaths: transcript and replay given no path, standard input a
// terminal, read every harness directory that exists ($CLAUDE_CONFIG_DIR
// and ~/.claude/projects, $CODEX_HOME and ~/.codex/sessions, …) and name
// them on stderr; none present is an error naming where they looked.
func TestHarnessPaths(t *testing.T) {
	session, err := os.ReadFile("../testdata/transcripts/detect/claude-code-2.1.177.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	projects := filepath.Join(home, ".claude", "projects", "-src-app")
	if err := os.MkdirAll(projects, 0o755); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(projects, "7742b028-e5aa-4ba5-8391-00bb73a46eb5.jsonl"), string(session), 0o644)
	empty := t.TempDir()
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		code     int
		out, err string
	}{
		{"transcript", map[string]string{"HOME": home}, []string{"transcript", "-f", "json"}, 0,
			`"calls": 2,`, "harpe: reading " + filepath.Join(home, ".claude", "projects") + "\n"},
		{"replay", map[string]string{"HOME": home, "CODEX_HOME": filepath.Join(home, "nowhere")}, []string{"replay", "--totals", "-f", "json"}, 0,
			`"strategy": "full"`, "harpe: reading " + filepath.Join(home, ".claude", "projects") + "\n"},
		{"none", map[string]string{"HOME": empty}, []string{"transcript"}, 2,
			"", "harpe: no path given, standard input is a terminal, and no harness directory is here (looked in " +
				strings.Join([]string{filepath.Join(empty, ".claude/projects"), filepath.Join(empty, ".codex/sessions"),
					filepath.Join(empty, ".gemini/tmp"), filepath.Join(empty, ".copilot/session-state")}, ", ") +
				"); name files or directories, or pipe a transcript in\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := Run(context.Background(), tt.args, IO{In: strings.NewReader(""), Out: &out, Err: &errb, InIsTerminal: true},
				func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if code != tt.code || !strings.Contains(out.String(), tt.out) || errb.String() != tt.err {
				t.Errorf("exit %d, stdout %.300q, stderr %q; want %d, stdout with %q, stderr %q", code, out.String(), errb.String(), tt.code, tt.out, tt.err)
			}
		})
	}
}
