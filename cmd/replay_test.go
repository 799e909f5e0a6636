package cmd

import (
	"context"
	"strings"
	"testing"
)

func TestReplayProgress(t *testing.T) {
	args := []string{"replay", "--strategy", "windowed", "--totals", "../testdata/replay/worked.jsonl"}
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
