package cmd

import (
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/window"
)

func TestReplayProgress(t *testing.T) {
	args := []string{"replay", "-f", "table", "--strategy", "windowed", "--totals", "../testdata/replay/worked.jsonl"}
	tests := []struct {
		name     string
		terminal bool
		want     string
	}{
		{"quiet when stderr is not a terminal", false, ""},
		{"progress on a terminal, cleared at the end", true, "\r\x1b[Kreplay: full: 0 of 11 messages (0%), 0 messages/s\r\x1b[Kreplay: full: 11 of 11 messages (100%) done" +
			"\r\x1b[Kreplay: windowed: 0 of 11 messages (0%), 0 messages/s\r\x1b[Kreplay: windowed: 11 of 11 messages (100%) done\r\x1b[K"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, code := runHarpeIO(context.Background(), "", tt.terminal, args...)
			if code != 0 || !strings.Contains(out, "| windowed |") {
				t.Fatalf("exit %d, stdout %q", code, out)
			}
			if errs != tt.want {
				t.Errorf("stderr = %q, want %q", errs, tt.want)
			}
		})
	}
}

func TestReplayInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, errs, code := runHarpeIO(ctx, "", false, "replay", "../testdata/replay/worked.jsonl")
	if code != ExitInterrupted || out != "" || errs != "harpe: interrupted\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestReplaySettingFlags(t *testing.T) {
	tests := []struct {
		name  string
		specs []string
		set   func(o *window.ReplayOptions)
		err   string
	}{
		{"budget needs --budget", []string{"budget+mask"}, nil, "--budget: the budget strategy needs a budget of at least 1 token"},
		{"budget checks --policy", []string{"budget"}, func(o *window.ReplayOptions) { o.Budget.Total, o.Engine.Policy = 10, "newest" }, `--policy: unknown policy "newest"`},
		{"budget's unknown setting", []string{"budget:foo=1"}, nil, `--strategy: budget: unknown setting "foo"; valid: tokens`},
		{"unknown edit", []string{"full+squash"}, nil, `--strategy: full+squash: "squash" is not an edit`},
		{"limit names --tool-result-limit", []string{"limit"}, nil, "--strategy: limit: needs bytes=N with N ≥ 1 (or --tool-result-limit)"},
		{"empty list", nil, nil, "--strategy: no strategy given"},
		{"--head", []string{"full"}, func(o *window.ReplayOptions) { o.Sliding.Head = new(-1) }, "--head: must be a whole number ≥ 0, got -1"},
		{"--window-chars (windowed)", []string{"full"}, func(o *window.ReplayOptions) { o.Windowed.Chars = new(-5) }, "--window-chars: must be a whole number ≥ 0, got -5"},
		{"--window-chars (sliding)", []string{"full"}, func(o *window.ReplayOptions) { o.Sliding.Chars = new(-6) }, "--window-chars: must be a whole number ≥ 0, got -6"},
		{"--summary-max-chars", []string{"full"}, func(o *window.ReplayOptions) { o.Summarizing.SummaryMaxChars = new(-7) }, "--summary-max-chars: must be a whole number ≥ 0, got -7"},
		{"--context-window", []string{"full"}, func(o *window.ReplayOptions) { o.ContextWindow = -2 }, "--context-window: must be a whole number ≥ 0, got -2"},
		{"--clear-at-least", []string{"full"}, func(o *window.ReplayOptions) { o.Clear.ClearAtLeast = new(-3) }, "--clear-at-least: must be a whole number ≥ 0, got -3"},
		{"--mask-keep", []string{"full"}, func(o *window.ReplayOptions) { o.Mask.Keep = new(-4) }, "--mask-keep: must be a whole number ≥ 0, got -4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := window.ReplayOptions{Options: window.DefaultOptions()}
			o.Engine.Policy = "lowest_priority"
			if tt.set != nil {
				tt.set(&o)
			}
			_, err := window.ParseAll(tt.specs, o)
			if err == nil {
				t.Fatal("no error")
			}
			if got := replaySettingError(err).Error(); !strings.HasPrefix(got, tt.err) {
				t.Fatalf("err = %q, want %q", got, tt.err)
			}
		})
	}
}
