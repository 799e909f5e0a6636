package cmd

import (
	"context"
	"slices"
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

func TestRanges(t *testing.T) {
	tests := []struct {
		name string
		in   []int
		want string
	}{
		{"empty", nil, ""},
		{"one", []int{4}, "4"},
		{"run", []int{1, 2, 3}, "1-3"},
		{"mixed", []int{1, 2, 3, 5, 7, 8}, "1-3, 5, 7-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ranges(tt.in); got != tt.want {
				t.Errorf("ranges(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseStrategies(t *testing.T) {
	tests := []struct {
		name   string
		specs  []string
		budget int
		policy string
		want   []string // the strategies' names
		err    string
	}{
		{"built-ins", []string{"full", "windowed", "turn"}, 0, "lowest_priority", []string{"full", "windowed", "turn"}, ""},
		{"duplicates once", []string{"mask", " mask", "full+mask"}, 0, "lowest_priority", []string{"mask", "full+mask"}, ""},
		{"edits and settings", []string{"windowed:chars=10+clear:keep=1", "summarizing+mask"}, 0, "lowest_priority", []string{"windowed:chars=10+clear:keep=1", "summarizing+mask"}, ""},
		{"budget needs --budget", []string{"budget+mask"}, 0, "lowest_priority", nil, "--budget: the budget strategy needs a budget of at least 1 token"},
		{"budget with tokens=", []string{"budget:tokens=50"}, 0, "lowest_priority", []string{"budget:tokens=50"}, ""},
		{"budget checks --policy", []string{"budget"}, 10, "newest", nil, `--policy: unknown policy "newest"`},
		{"budget's unknown setting", []string{"budget:foo=1"}, 0, "lowest_priority", nil, `--strategy: budget: unknown setting "foo"; valid: tokens`},
		{"budget's tokens=0", []string{"budget:tokens=0"}, 0, "lowest_priority", nil, `--strategy: budget: tokens=0: want at least 1`},
		{"--policy unchecked without budget", []string{"full"}, 0, "newest", []string{"full"}, ""},
		{"unknown edit", []string{"full+squash"}, 0, "lowest_priority", nil, `--strategy: full+squash: "squash" is not an edit`},
		{"empty list", nil, 0, "lowest_priority", nil, "--strategy: no strategy given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := &replayOptions{strategies: tt.specs, budget: tt.budget, policy: tt.policy}
			wo := window.DefaultOptions()
			wo.Budget.Total, wo.Engine.Policy = tt.budget, tt.policy
			got, err := parseStrategies(o, wo)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name())
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("names = %q, want %q", names, tt.want)
			}
		})
	}
}
