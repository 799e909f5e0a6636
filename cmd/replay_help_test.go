package cmd

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestReplayHelpSaysDefaults: replay --help names the strategies replay
// runs without --strategy (full, clear, mask and cheapest on an agent
// loop; it once said "full, clear and mask"), in the long help and in the
// flag's default, and an agent session replayed without --strategy runs
// exactly those.
func TestReplayHelpSaysDefaults(t *testing.T) {
	code, out, errs := runHarpe(t, "", "replay", "--help")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	long, _, _ := strings.Cut(out, "\nUsage:")
	for _, l := range strings.Split(long, "\n") {
		if len([]rune(l)) > 80 {
			t.Errorf("a line of the long help wider than 80 columns: %q", l)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Without --strategy, replay compares full, clear, mask and cheapest on agent loops (a turn holds tool calls: most of their input is re-sent tool results) and full, windowed, summarizing and turn on chats; the table says which.",
		"(default: full,clear,mask,cheapest for agent sessions, full,windowed,summarizing,turn for chats)",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("replay --help does not say %q", want)
		}
	}

	code, out, errs = runHarpe(t, "", "replay", "--totals", "-f", "jsonl", "../testdata/agent/claude/projects/-src-shop/7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var ran []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var r struct {
			Strategy string `json:"strategy"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Strategy != "" && !slices.Contains(ran, r.Strategy) {
			ran = append(ran, r.Strategy)
		}
	}
	if want := []string{"full", "clear", "mask", "cheapest"}; !slices.Equal(ran, want) {
		t.Errorf("replay without --strategy ran %q, want %q", ran, want)
	}
}
