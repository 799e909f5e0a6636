package cmd

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"

	"github.com/harpe-dev/harpe/internal/atomicout"
)

// TestExitCode: the status comes from the error's type alone, however it
// is wrapped.
func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"none", nil, ExitOK},
		{"usage", usageErrorf("--x: bad"), ExitUsage},
		{"bad input", inputError(errors.New("a.jsonl:1: bad")), ExitUsage},
		{"failed write, wrapped", fmt.Errorf("context: %w", outputError(&atomicout.WriteError{Path: "r.txt", Err: syscall.ENOSPC})), ExitWrite},
		{"strict", strictError("refused"), ExitStrict},
		{"negative", errNegative, ExitNegative},
		{"interrupted", fmt.Errorf("reading: %w", context.Canceled), ExitInterrupted},
		{"cobra's own", errors.New(`unknown command "x"`), ExitUsage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := exitCode(tc.err); got != tc.want {
				t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
			}
		})
	}
}
