package cmd

import (
	"reflect"
	"testing"
)

// The strategies that read each replay flag come from the registry: the
// settings of each registered strategy name the option they read. The
// expected users are written from what each strategy reads (docs/replay.md):
// summarizing and the two harness presets summarize, so they read the
// summary's bound and --distill-cmd.
func TestReplayFlagUses(t *testing.T) {
	want := []flagUse{
		{[]string{"high-water-tokens"}, []string{"summarizing"}, "strategy"},
		{[]string{"low-water-chars"}, []string{"summarizing"}, "strategy"},
		{[]string{"distill-cmd"}, []string{"summarizing", "claude-code", "codex"}, "strategy"},
		{[]string{"summary-max-chars"}, []string{"summarizing", "claude-code", "codex"}, "strategy"},
		{[]string{"window-chars"}, []string{"windowed", "sliding"}, "strategy"},
		{[]string{"head"}, []string{"sliding"}, "strategy"},
		{[]string{"budget"}, []string{"budget"}, "strategy"},
		{[]string{"policy"}, []string{"budget"}, "strategy"},
	}
	if got := replayFlagUses(); !reflect.DeepEqual(got, want) {
		t.Errorf("replayFlagUses() =\n%v\nwant\n%v", got, want)
	}
}
