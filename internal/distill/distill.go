// Package distill runs a summarizing shell command for harpe replay's
// summarizing strategy: the request as JSON on its stdin, the summary
// read from its stdout.
//
// The command runs as `sh -c COMMAND` in the working directory with the
// environment of the process, in a process group of its own; the whole
// group is killed when the context is done, when the run passes its time
// limit, when it writes more than [MaxStdout] bytes, and when the shell
// has exited (so nothing it started is left behind).
package distill

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Bounds on a run (chosen for harpe, 2026-12-01; see docs/security.md): a
// summary is at most a few thousand characters, so 1 MiB of stdout is far
// more than a well-behaved summarizer writes.
const (
	// MaxStdout is the most read from the command's stdout; past it the
	// run is ended and reported.
	MaxStdout = 1 << 20
	// maxStderr is how much of its stderr is kept for the error message
	// (the rest is read and dropped).
	maxStderr = 64 << 10
	// waitDelay is how long Run waits, after the command ended or was
	// killed, for processes it left holding its pipes.
	waitDelay = time.Second
)

// TimeoutError is a run that passed its time limit and was ended.
type TimeoutError struct {
	Command string
	Limit   time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%q did not finish within %v; ended", e.Command, e.Limit)
}

// Options bound and watch one run.
type Options struct {
	// Timeout ends a run that takes longer; 0 is no limit.
	Timeout time.Duration
	// OnStart, when set, is called once the command has started with a
	// function that kills its process group (for a caller that must end
	// it from elsewhere, on a signal); the function it returns is called
	// when the run is over.
	OnStart func(kill func()) (done func())
}

// Run runs command with stdin and returns what it wrote on stdout, one
// trailing newline (and a carriage return before it) removed. Its errors
// name the command; the first line of its stderr is quoted when it fails.
// When ctx is done, Run returns ctx.Err().
func Run(ctx context.Context, command string, stdin []byte, opts Options) (string, error) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if opts.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(runCtx, opts.Timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(runCtx, "sh", "-c", command)
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &boundedBuffer{max: MaxStdout, onOverflow: cancel}
	stderr := &boundedBuffer{max: maxStderr}
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	cmd.WaitDelay = waitDelay
	ownProcessGroup(cmd)
	timedOut := func() bool { return ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) }
	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if timedOut() {
			// The time limit passed before the command could even start.
			return "", &TimeoutError{command, opts.Timeout}
		}
		return "", fmt.Errorf("%q: %v", command, err)
	}
	done := func() {}
	if opts.OnStart != nil {
		done = opts.OnStart(func() { killProcessGroup(cmd) })
	}
	err := cmd.Wait()
	killProcessGroup(cmd)
	done()
	switch {
	case ctx.Err() != nil:
		return "", ctx.Err()
	case stdout.overflowed():
		return "", fmt.Errorf("%q wrote more than %d bytes (1 MiB) on stdout; ended", command, MaxStdout)
	case timedOut():
		return "", &TimeoutError{command, opts.Timeout}
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
