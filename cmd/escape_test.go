package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileNamesEscaped: a file name holding an escape sequence reaches
// stdout and stderr escaped, as tables already show it (\x1b, \x07), in
// every message that names a path. Before, each of these wrote the raw
// bytes, so a name could set the terminal's title or colours.
func TestFileNamesEscaped(t *testing.T) {
	src, err := filepath.Abs("../testdata/transcripts/claude-code/agent-sidechain.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	const evil = "e\x1b]0;pwned\x07.txt" // sets the window title
	const shown = `e\x1b]0;pwned\x07.txt`
	if err := os.WriteFile(evil, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	session, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	// A session with a half-written last line, and a notes file that the
	// walk skips by name, both under names with an escape.
	if err := os.MkdirAll("tree", 0o755); err != nil {
		t.Fatal(err)
	}
	half := append(append([]byte{}, session...), `{"type":"user","mess`...)
	if err := os.WriteFile(filepath.Join("tree", "s\x1b[31m.jsonl"), half, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("tree", "n\x1b[2J.md"), []byte("notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		args         []string
		stdout, errs string // substrings each must hold
	}{
		{"count output", []string{"count", evil, evil}, "3 " + shown + "\n", ""},
		{"no such file", []string{"count", "gone\x1b[31m.txt"}, "", `harpe: gone\x1b[31m.txt: no such file or directory`},
		{"skip summary and warning", []string{"count", "--transcript", "tree"}, `tree/s\x1b[31m.jsonl`,
			`1 not a transcript file name (tree/n\x1b[2J.md)`},
		{"half-written line", []string{"transcript", "--format", "table", "tree"}, "", `tree/s\x1b[31m.jsonl`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stdout, stderr := runHarpe(t, "", append([]string{"--config", os.DevNull}, tt.args...)...)
			for _, out := range []string{stdout, stderr} {
				if strings.ContainsRune(out, '\x1b') || strings.ContainsRune(out, '\x07') {
					t.Errorf("raw escape written: stdout %q, stderr %q", stdout, stderr)
				}
			}
			if !strings.Contains(stdout, tt.stdout) || !strings.Contains(stderr, tt.errs) {
				t.Errorf("stdout %q, stderr %q; want them to hold %q and %q", stdout, stderr, tt.stdout, tt.errs)
			}
		})
	}
}
