package distill

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name, command, stdin string
		want, wantErr        string
	}{
		{"stdin to stdout, one line end removed", "cat", "a summary\r\n", "a summary", ""},
		{"only one newline removed", "printf 'x\\n\\n'", "", "x\n", ""},
		{"failure quotes the first line of stderr", "echo first >&2; echo second >&2; exit 3", "", "", `"echo first >&2; echo second >&2; exit 3" failed: exit status 3: first`},
		{"too much on stdout", "head -c 1048577 /dev/zero", "", "", `"head -c 1048577 /dev/zero" wrote more than 1048576 bytes (1 MiB) on stdout; ended`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Run(context.Background(), tt.command, []byte(tt.stdin), Options{})
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if got != tt.want || gotErr != tt.wantErr {
				t.Errorf("Run = %q, %q; want %q, %q", got, gotErr, tt.want, tt.wantErr)
			}
		})
	}
}

// A run past its time limit is ended, its group with it, and the hook
// that could kill it is removed.
func TestRunTimeout(t *testing.T) {
	started, finished := 0, 0
	opts := Options{Timeout: 100 * time.Millisecond, OnStart: func(kill func()) func() {
		started++
		return func() { finished++ }
	}}
	begin := time.Now()
	_, err := Run(context.Background(), "sleep 5 & wait", nil, opts)
	var te *TimeoutError
	if !errors.As(err, &te) || te.Limit != 100*time.Millisecond || !strings.HasPrefix(err.Error(), `"sleep 5 & wait" did not finish within 100ms`) {
		t.Fatalf("err %v, want a timeout", err)
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("took %v: the group was not killed", d)
	}
	if started != 1 || finished != 1 {
		t.Errorf("OnStart called %d times, its done %d", started, finished)
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, "true", nil, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}
