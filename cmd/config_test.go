package cmd

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/config"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestSensitiveFlags: every flag that runs a program or names a file to
// write carries the annotation, on every command, so that a configuration
// file in the working directory cannot set it.
func TestSensitiveFlags(t *testing.T) {
	root := Command()
	want := map[string]bool{"distill-cmd": true, "output": true, "report": true, "plot": true}
	seen := map[string]bool{}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			placeholder, _ := pflag.UnquoteUsage(f)
			mustBe := want[f.Name] || placeholder == "FILE" || placeholder == "CMD"
			if f.Name == "config" {
				mustBe = false
			}
			if got := sensitiveReason(f) != ""; mustBe && !got {
				t.Errorf("%s --%s: not marked sensitive", c.CommandPath(), f.Name)
			}
			if want[f.Name] {
				seen[f.Name] = true
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
	for name := range want {
		if !seen[name] {
			t.Errorf("no command has --%s any more; update the test", name)
		}
	}
	// And a harmless flag is not.
	sub, _, err := root.Find([]string{"synthesize"})
	if err != nil {
		t.Fatal(err)
	}
	if r := sensitiveReason(sub.Flags().Lookup("budget")); r != "" {
		t.Errorf("--budget marked sensitive: %q", r)
	}
}

// TestConfigSize: a configuration file over 1 MiB is refused before it is
// parsed, one at the bound is read.
func TestConfigSize(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	writeTestFile(t, items, outputTestItems, 0o644)
	// "# " and a newline per 64-byte comment line.
	comment := "# " + strings.Repeat("x", 61) + "\n"
	atBound := filepath.Join(dir, "at.yaml")
	writeTestFile(t, atBound, strings.Repeat(comment, config.MaxSize/64), 0o644)
	over := filepath.Join(dir, "over.yaml")
	writeTestFile(t, over, strings.Repeat(comment, config.MaxSize/64)+"\n", 0o644)

	code, stdout, stderr := runHarpe(t, "", "count", "--config", atBound, items)
	if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "18 ") {
		t.Errorf("1 MiB config: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runHarpe(t, "", "count", "--config", over, items)
	want := "harpe: " + over + ": 1048577 bytes, more than the 1048576 (1 MiB) a configuration file may have\n"
	if code != ExitUsage || stdout != "" || stderr != want {
		t.Errorf("1 MiB + 1 config: exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
	}
}

// TestConfigNotOwned: a harpe.yaml in the user config directory that
// another user owns is not trusted with sensitive keys.
func TestConfigNotOwned(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file away")
	}
	xdg := t.TempDir()
	cfg := filepath.Join(xdg, "harpe", "harpe.yaml")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	writeTestFile(t, cfg, "output: "+filepath.Join(xdg, "out.txt")+"\n", 0o644)
	if err := os.Chown(cfg, 65534, 65534); err != nil {
		t.Skip(err)
	}
	t.Setenv("XDG_CONFIG_HOME", xdg)
	t.Chdir(t.TempDir())
	items := filepath.Join(xdg, "items.jsonl")
	writeTestFile(t, items, outputTestItems, 0o644)
	code, stdout, stderr := runHarpe(t, "", "count", items)
	if code != 0 || !strings.HasPrefix(stdout, "18 ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	want := "harpe: " + cfg + ":1: ignoring output: --output names a file to write, and the user does not own " + cfg
	if !strings.HasPrefix(stderr, want) {
		t.Errorf("stderr %q, want prefix %q", stderr, want)
	}
	if _, err := os.Stat(filepath.Join(xdg, "out.txt")); err == nil {
		t.Errorf("out.txt written")
	}
}

// FuzzConfigFile: whatever a harpe.yaml holds, reading it and checking its
// keys gives a usage error or a report, never a panic, and every line
// reported names the file.
func FuzzConfigFile(f *testing.F) {
	for _, seed := range []string{
		"polcy: knapsack\nsynthesize:\n  budgte: 10\n",
		"budget: 8192\nsynthesize:\n  cap:\n    tool: 30%\nmodels:\n  m: {context_window: 10}\n",
		"replay:\n  distill-cmd: \"id\"\noutput: x\n",
		"- a\n- b\n", "a: [1, 2\n", "", "synthesize: 3\n", ": :\n", "a:\n  b:\n    c: d\n",
	} {
		f.Add([]byte(seed))
	}
	root := Command()
	sub, _, err := root.Find([]string{"synthesize"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := config.ParseFile("harpe.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "harpe.yaml:") {
				t.Fatalf("parse error %v, want one naming the file", err)
			}
			return
		}
		cf := newConfigFile()
		cf.layers = []*configLayer{{File: file, why: "fuzzing", local: true}}
		var notes strings.Builder
		a := newApp(context.Background(), IO{In: strings.NewReader(""), Out: io.Discard, Err: &notes},
			func(string) (string, bool) { return "", false })
		a.config = cf
		a.reportUnknownKeys(&notes, sub.Root(), cf)
		for _, line := range strings.Split(strings.TrimSuffix(notes.String(), "\n"), "\n") {
			if line != "" && !strings.HasPrefix(line, "harpe: harpe.yaml") {
				t.Fatalf("note %q does not name the file", line)
			}
		}
	})
}
