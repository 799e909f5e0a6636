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

// The strategies' flags take their defaults from the registry: the
// documented defaults (docs/replay.md, "Settings, for library users").
func TestSettingDefault(t *testing.T) {
	tests := []struct {
		strategy, key string
		want          int
	}{
		{"windowed", "chars", 160000}, {"sliding", "head", 1}, {"sliding", "chars", 160000},
		{"summarizing", "high", 120000}, {"summarizing", "low", 160000}, {"summarizing", "max", 8000},
		{"codex", "percent", 90}, {"claude-code", "reserve", 20000},
	}
	for _, tt := range tests {
		if got := settingDefault(tt.strategy, tt.key); got != tt.want {
			t.Errorf("settingDefault(%q, %q) = %d, want %d", tt.strategy, tt.key, got, tt.want)
		}
	}
	for _, bad := range [][2]string{{"windowed", "nope"}, {"nope", "chars"}, {"budget", "tokens"}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("settingDefault(%q, %q): no panic", bad[0], bad[1])
				}
			}()
			settingDefault(bad[0], bad[1])
		}()
	}
}
