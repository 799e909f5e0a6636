package window_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
)

// presetSpecs are the harness presets at windows small enough to fire
// on the samples, with the microcompact clearing at every call.
func presetSpecs(w int) []string {
	return []string{
		fmt.Sprintf("claude-code:window=%d:reserve=0:buffer=0", w),
		fmt.Sprintf("claude-code:window=%d:reserve=0:buffer=0+micro:gap=0:keep=1", w),
		fmt.Sprintf("codex:window=%d", w),
		fmt.Sprintf("codex:window=%d:user=0+micro:gap=0:keep=0", w),
	}
}

// checkPresets replays tr under the presets and checks every window.
func checkPresets(t *testing.T, name string, tr *transcript.Transcript) {
	t.Helper()
	rep := callStarts(tr)
	for _, w := range []int{50, 2000, 20000} {
		o := window.DefaultOptions()
		o.Summarizing.SummaryMaxChars = new(300)
		ss, err := window.ParseAll(presetSpecs(w), window.ReplayOptions{Options: o})
		if err != nil {
			t.Fatal(err)
		}
		res, err := window.Replay(context.Background(), tr, ss, window.ReplayOptions{Options: o, Indices: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range res {
			if len(r.Calls) != len(rep) {
				t.Fatalf("%s %s: %d calls, want %d", name, r.Strategy, len(r.Calls), len(rep))
			}
			for k, c := range r.Calls {
				if err := window.Check(tr, rep[k], c.Messages, r.Summarized(c.Call)); err != nil {
					t.Fatalf("%s %s call %d: %v", name, r.Strategy, c.Call, err)
				}
				chars, toks := 0, 0
				for _, p := range c.Parts {
					chars += p.Chars
					toks += p.Tokens
				}
				if chars != c.Chars || toks != c.Counted {
					t.Fatalf("%s %s call %d: parts add up to %d chars %d tokens, call %d %d", name, r.Strategy, c.Call, chars, toks, c.Chars, c.Counted)
				}
			}
			for _, e := range r.Events {
				if e.SummaryChars > 300 {
					t.Fatalf("%s %s: summary of %d chars", name, r.Strategy, e.SummaryChars)
				}
			}
		}
	}
}

// TestPresetsValidWindows: every window the harness presets send, on
// generated sessions (chats with aborted turns, agent loops) and on
// every transcript sample, passes Check.
func TestPresetsValidWindows(t *testing.T) {
	for seed := uint64(1); seed <= 6; seed++ {
		checkPresets(t, fmt.Sprintf("chat seed %d", seed), transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: 40, AbortEvery: 5, Usage: seed%2 == 0, Overhead: 300}))
		checkPresets(t, fmt.Sprintf("agent seed %d", seed), transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 80, AgentTurns: 1 + int(seed%3), Usage: seed%2 == 1, Overhead: 1000, MaxToolChars: 8000}))
	}
	n, bad := 0, 0
	for _, dir := range []string{"../../testdata/transcripts", "../../testdata/agent", "../../testdata/replay"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) == ".md" {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			ts, err := transcript.Read(f, path, "")
			if err != nil {
				// Samples of bad input (and files of no transcript
				// format) are read by the transcript tests.
				bad++
				return nil
			}
			for i, tr := range ts {
				checkPresets(t, fmt.Sprintf("%s #%d", path, i), tr)
				n++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if n < 20 {
		t.Fatalf("only %d sample transcripts read (%d unreadable)", n, bad)
	}
	t.Logf("%d sample transcripts, %d files skipped as unreadable", n, bad)
}

// callStarts lists the message index that starts each call: assistant
// messages sharing a non-empty Call are one reply.
func callStarts(tr *transcript.Transcript) []int {
	var out []int
	prev := ""
	for i, m := range tr.Messages {
		if m.Role == transcript.RoleAssistant && !m.Meta && (m.Call == "" || m.Call != prev) {
			out = append(out, i)
		}
		if m.Role == transcript.RoleAssistant {
			prev = m.Call
		}
	}
	return out
}
