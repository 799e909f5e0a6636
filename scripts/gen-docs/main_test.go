package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenerate writes the pages and completions and checks that every
// subcommand has a page naming its flags, and that a second run writes the
// same bytes (no date in the pages).
func TestGenerate(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir); err != nil {
		t.Fatal(err)
	}
	for page, flag := range map[string]string{
		"harpe.1":            "--config",
		"harpe-synthesize.1": "--budget",
		"harpe-fit.1":        "--threshold",
		"harpe-count.1":      "--tokenizer",
		"harpe-models.1":     "--format",
		"harpe-dates.1":      "--said-on",
		"harpe-conflicts.1":  "--min-score",
		"harpe-transcript.1": "--input-format",
		"harpe-replay.1":     "--strategy",
	} {
		b, err := os.ReadFile(filepath.Join(dir, "man", page))
		if err != nil {
			t.Fatal(err)
		}
		// roff escapes the dashes in the OPTIONS section, not in the text.
		if !strings.Contains(string(b), flag) && !strings.Contains(string(b), strings.ReplaceAll(flag, "-", `\-`)) {
			t.Errorf("%s does not mention %s", page, flag)
		}
	}
	for _, f := range []string{"harpe.bash", "harpe.zsh", "harpe.fish"} {
		if st, err := os.Stat(filepath.Join(dir, "completions", f)); err != nil || st.Size() == 0 {
			t.Errorf("completion %s missing or empty (%v)", f, err)
		}
	}
	first, _ := os.ReadFile(filepath.Join(dir, "man", "harpe-synthesize.1"))
	again := t.TempDir()
	if err := generate(again); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(filepath.Join(again, "man", "harpe-synthesize.1"))
	if string(first) != string(second) {
		t.Error("two runs wrote different man pages")
	}
}
