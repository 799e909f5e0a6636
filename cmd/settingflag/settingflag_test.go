package settingflag_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/cmd"
	"github.com/harpe-dev/harpe/pkg/window"
)

// tailSettings are the settings of "tail", a strategy registered here:
// the newest turns within Chars characters, no first turn kept (sliding
// with head=0). Chars carries a flag of its own, --tail-chars, and
// nothing else: no field of window.Options, no line in cmd.
type tailSettings struct {
	Chars int `setting:"chars" flag:"tail-chars" usage:"character budget of tail" doc:"character budget of the newest whole turns"`
}

// tail is the sliding strategy it builds, under its own name.
type tail struct{ window.Strategy }

func (tail) Name() string { return "tail" }

func init() {
	window.Register("tail", func(window.Options) tailSettings { return tailSettings{Chars: 5} },
		func(s tailSettings, o window.Options) (window.Strategy, error) {
			w, err := window.Parse("sliding:head=0:chars="+strconv.Itoa(s.Chars), o)
			return tail{w}, err
		})
}

// run runs harpe with args and the HARPE_* variables env, and returns
// stdout, stderr and the exit status.
func run(t *testing.T, env map[string]string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	code := cmd.Run(context.Background(), args, cmd.IO{In: strings.NewReader(""), Out: &out, Err: &errb}, lookup)
	return out.String(), errb.String(), code
}

// The session: a system part, then four turns of a 10-character prompt
// and a 20-character reply (testdata/replay/worked.jsonl). Under
// sliding:head=0:chars=40 (the newest whole turns within 40 characters)
// tail with --tail-chars 40 must send what sliding sends; under its
// default of 5 characters only the active turn.
const session = `{"type":"system","content":"SYS"}
{"type":"user","content":"xxxxxxxxxx"}
{"type":"assistant","content":"xxxxxxxxxxxxxxxxxxxx"}
{"type":"user","content":"xxxxxxxxxx"}
{"type":"assistant","content":"xxxxxxxxxxxxxxxxxxxx"}
{"type":"user","content":"xxxxxxxxxx"}
{"type":"assistant","content":"xxxxxxxxxxxxxxxxxxxx"}
{"type":"user","content":"xxxxxxxxxx"}
{"type":"assistant","content":"xxxxxxxxxxxxxxxxxxxx"}
`

func TestFlaggedSettingOfARegisteredStrategy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(file, []byte(session), 0o600); err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(dir, "harpe.yaml")
	if err := os.WriteFile(yaml, []byte("replay:\n  tail-chars: 40\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// The flag is listed with its usage and the registry's default.
	help, _, code := run(t, nil, "replay", "--help")
	if code != 0 || !regexp.MustCompile(`\n +--tail-chars int +character budget of tail \(default 5\)\n`).MatchString(help) {
		t.Errorf("replay --help (exit %d) has no --tail-chars line:\n%s", code, help)
	}

	sliding, errs, code := run(t, nil, "replay", "-f", "json", "--strategy", "sliding:head=0", "--window-chars", "40", file)
	if code != 0 {
		t.Fatalf("sliding: exit %d: %s", code, errs)
	}
	want := strings.ReplaceAll(sliding, `"sliding:head=0"`, `"tail"`)
	if !strings.Contains(want, `"messages": [`) {
		t.Fatalf("sliding's report has no calls:\n%s", sliding)
	}
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flag", nil, []string{"--tail-chars", "40"}},
		{"environment", map[string]string{"HARPE_REPLAY_TAIL_CHARS": "40"}, nil},
		{"harpe.yaml", nil, []string{"--config", yaml}},
	} {
		args := append([]string{"replay", "-f", "json", "--strategy", "tail"}, tt.args...)
		got, errs, code := run(t, tt.env, append(args, file)...)
		if code != 0 || got != want {
			t.Errorf("%s: exit %d, stderr %q, report\n%s\nwant sliding's\n%s", tt.name, code, errs, got, want)
		}
	}
	// Its default (5 characters) keeps less than 40 do.
	if got, _, _ := run(t, nil, "replay", "-f", "json", "--strategy", "tail", file); got == want {
		t.Errorf("tail at its default sends what --tail-chars 40 sends")
	}

	// Out of range: a usage error naming the flag.
	_, errs, code = run(t, nil, "replay", "--strategy", "tail", "--tail-chars", "-1", file)
	if code != 2 || errs != "harpe: --tail-chars: must be a whole number ≥ 0, got -1\n" {
		t.Errorf("--tail-chars -1: exit %d, stderr %q", code, errs)
	}
	// Given, but no chosen strategy reads it: a note.
	_, errs, code = run(t, nil, "replay", "-f", "json", "--strategy", "full", "--tail-chars", "9", file)
	if code != 0 || errs != "harpe: note: --tail-chars is ignored: only the tail strategy reads it, and --strategy is full\n" {
		t.Errorf("--tail-chars with full: exit %d, stderr %q", code, errs)
	}
	// A spec's value wins over the flag.
	if got, _, _ := run(t, nil, "replay", "-f", "json", "--strategy", "tail:chars=40", "--tail-chars", "0", file); got != strings.ReplaceAll(want, `"tail"`, `"tail:chars=40"`) {
		t.Errorf("tail:chars=40 --tail-chars 0 is not tail under 40 characters:\n%s", got)
	}
}
