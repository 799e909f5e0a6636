package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/spf13/cobra"
)

// Bounds on a --distill-cmd run (chosen for harpe, 2026-12-01; see
// docs/security.md): a summary is at most --summary-max-chars characters,
// so 1 MiB of stdout is far more than a well-behaved summarizer writes.
const (
	// defaultDistillTimeout is --distill-timeout's default.
	defaultDistillTimeout = 120 * time.Second
	// distillMaxStdout is the most harpe reads from the command's stdout;
	// past it the run is ended and reported.
	distillMaxStdout = 1 << 20
	// distillMaxStderr is how much of its stderr is kept for the error
	// message (the rest is read and dropped).
	distillMaxStderr = 64 << 10
	// distillWaitDelay is how long harpe waits, after the command ended or
	// was killed, for processes it left holding its pipes.
	distillWaitDelay = time.Second
)

// addDistillFlags adds --distill-timeout to the replay command c, beside
// the --distill-cmd it bounds.
func addDistillFlags(a *app, c *cobra.Command) {
	c.Flags().DurationVar(&a.distillTimeout, "distill-timeout", defaultDistillTimeout,
		"end a --distill-cmd run that takes longer than `DURATION` (0: no limit)")
	prev := c.PreRunE
	c.PreRunE = func(c *cobra.Command, args []string) error {
		if a.distillTimeout < 0 {
			return usageErrorf("--distill-timeout: must be ≥ 0, got %v", a.distillTimeout)
		}
		if prev != nil {
			return prev(c, args)
		}
		return nil
	}
}

// distiller runs the --distill-cmd shell command for each compaction: the
// request as JSON on stdin, the summary from stdout (one trailing newline
// removed). The command runs as `sh -c CMD` in harpe's working directory
// with harpe's environment, in a process group of its own; the whole group
// is killed when the run is interrupted, when it passes --distill-timeout,
// when it writes more than distillMaxStdout bytes, and when the shell has
// exited (so nothing it started is left behind).
func (a *app) distiller(command string) window.Distiller {
	return func(req window.DistillRequest) (string, error) {
		return a.runDistill(command, req)
	}
}

func (a *app) runDistill(command string, req window.DistillRequest) (string, error) {
	in, err := json.Marshal(distillStdinOf(req))
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	if a.distillTimeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, a.distillTimeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(append(in, '\n'))
	stdout := &boundedBuffer{max: distillMaxStdout, onOverflow: cancel}
	stderr := &boundedBuffer{max: distillMaxStderr}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = distillWaitDelay
	ownProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		if a.ctx.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			// The timeout passed before the command could even start.
			return "", timeoutError(command, a.distillTimeout)
		}
		return "", fmt.Errorf("%q: %v", command, err)
	}
	remove := a.aborts.add(func() { killProcessGroup(cmd) })
	err = cmd.Wait()
	killProcessGroup(cmd)
	remove()
	switch {
	case a.ctx.Err() != nil:
		return "", a.ctx.Err()
	case stdout.overflowed():
		return "", fmt.Errorf("%q wrote more than %d bytes (1 MiB) on stdout; ended", command, distillMaxStdout)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", timeoutError(command, a.distillTimeout)
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return "", fmt.Errorf("%q failed: %v: %s", command, err, msg)
		}
		return "", fmt.Errorf("%q failed: %v", command, err)
	}
	s := strings.TrimSuffix(stdout.String(), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// timeoutError says that command passed --distill-timeout d.
func timeoutError(command string, d time.Duration) error {
	return fmt.Errorf("%q did not finish within %v (--distill-timeout); ended", command, d)
}

// boundedBuffer keeps the first max bytes written to it and drops the
// rest, calling onOverflow (once) when something was dropped. It never
// fails a write, so the pipe behind it keeps draining until the writer is
// ended.
type boundedBuffer struct {
	mu         sync.Mutex
	buf        bytes.Buffer
	max        int
	over       bool
	onOverflow func()
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	room := b.max - b.buf.Len()
	if len(p) > room {
		b.buf.Write(p[:max(room, 0)])
		if !b.over && b.onOverflow != nil {
			b.onOverflow()
		}
		b.over = true
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

func (b *boundedBuffer) overflowed() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

func (b *boundedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// distillStdin is what --distill-cmd reads on stdin (docs/replay.md).
type distillStdin struct {
	Summary  string                `json:"summary"`
	MaxChars int                   `json:"max_chars"`
	Messages []distillStdinMessage `json:"messages"`
}

type distillStdinMessage struct {
	Index      int                `json:"index"`
	Turn       int                `json:"turn"`
	Role       string             `json:"role"`
	Content    string             `json:"content"`
	ToolCalls  []distillStdinCall `json:"tool_calls,omitempty"`
	ToolCallID string             `json:"tool_call_id,omitempty"`
}

type distillStdinCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func distillStdinOf(req window.DistillRequest) distillStdin {
	in := distillStdin{Summary: req.Summary, MaxChars: req.MaxChars, Messages: make([]distillStdinMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		dm := distillStdinMessage{Index: m.Index, Turn: m.Turn, Role: string(m.Role), Content: m.Text, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			dm.ToolCalls = append(dm.ToolCalls, distillStdinCall{tc.ID, tc.Name, tc.Arguments})
		}
		in.Messages = append(in.Messages, dm)
	}
	return in
}
