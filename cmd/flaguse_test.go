package cmd

import (
	"reflect"
	"strings"
	"testing"
)

// The strategies that read each replay flag come from the registry: the
// settings of each registered strategy name the option they read. The
// expected users are written from what each strategy reads (docs/replay.md):
// summarizing and the two harness presets summarize, so they read the
// summary's bound and --distill-cmd.
func TestReplayFlagUses(t *testing.T) {
	want := []flagUse{
		{[]string{"window-chars"}, []string{"windowed", "sliding"}, "strategy"},
		{[]string{"high-water-tokens"}, []string{"summarizing"}, "strategy"},
		{[]string{"low-water-chars"}, []string{"summarizing"}, "strategy"},
		{[]string{"summary-max-chars"}, []string{"summarizing", "claude-code", "codex"}, "strategy"},
		{[]string{"distill-cmd"}, []string{"summarizing", "claude-code", "codex"}, "strategy"},
		{[]string{"head"}, []string{"sliding"}, "strategy"},
		{[]string{"budget"}, []string{"budget"}, "strategy"},
		{[]string{"policy"}, []string{"budget"}, "strategy"},
	}
	if got := replayFlagUses(); !reflect.DeepEqual(got, want) {
		t.Errorf("replayFlagUses() =\n%v\nwant\n%v", got, want)
	}
}

// The flags of the registry's settings, with their defaults (the
// documented ones, docs/replay.md "Flags": 160000 characters, head 1,
// high water 120000 tokens, low water 160000 characters, summaries of
// 8000, clear at 100000 tokens keeping 3, mask keeping 10) and every
// setting each sets, in registry order.
func TestRegistrySettingFlags(t *testing.T) {
	want := []string{
		"window-chars int 160000 windowed:chars=Windowed.Chars sliding:chars=Sliding.Chars",
		"high-water-tokens int 120000 summarizing:high=Summarizing.HighWaterTokens",
		"low-water-chars int 160000 summarizing:low=Summarizing.LowWaterChars",
		"summary-max-chars int 8000 summarizing:max=Summarizing.SummaryMaxChars claude-code:max=Summarizing.SummaryMaxChars codex:max=Summarizing.SummaryMaxChars",
		"head int 1 sliding:head=Sliding.Head",
		"clear-trigger int 100000 clear:trigger=Clear.Trigger",
		"clear-keep int 3 clear:keep=Clear.Keep",
		"clear-at-least int 0 clear:at-least=Clear.ClearAtLeast",
		"clear-exclude list  clear:exclude=Clear.ExcludeTools",
		"clear-inputs bool false clear:inputs=Clear.ClearInputs",
		"mask-keep int 10 mask:keep=Mask.Keep",
	}
	var got []string
	for _, sf := range registrySettingFlags() {
		line := sf.name + " " + sf.kind + " " + sf.def
		for _, tg := range sf.targets {
			line += " " + tg.strategy + ":" + tg.setting.Key + "=" + tg.setting.Option
		}
		got = append(got, line)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("registrySettingFlags() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
