//go:build unix

package cmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets the test binary stand in for harpe (HARPE_TEST_MAIN=1), so
// the signal tests below send real signals to a real process.
func TestMain(m *testing.M) {
	if os.Getenv("HARPE_TEST_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// stopBound is how long a signalled harpe may take to exit. The goal is a
// fraction of a second (stopGrace is 250 ms); the bound is generous so a
// loaded machine does not make the test flaky.
const stopBound = 3 * time.Second

// harpeProcess is a harpe run in a child process.
type harpeProcess struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr bytes.Buffer
}

func startHarpe(t *testing.T, dir string, args ...string) *harpeProcess {
	t.Helper()
	p := &harpeProcess{cmd: exec.Command(os.Args[0], append([]string{"--config", os.DevNull}, args...)...)}
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), "HARPE_TEST_MAIN=1")
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	var err error
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// feed writes items to the child's stdin until it has taken more than a
// pipe buffer (so harpe is running and reading, its signal handler set),
// then keeps writing in the background while keepOn.
func (p *harpeProcess) feed(t *testing.T, keepOn bool) {
	t.Helper()
	line := []byte(`{"content":"the server is not running"}` + "\n") // no id: each line gets its own
	chunk := bytes.Repeat(line, 4096)                                // ~160 KiB, more than a 64 KiB pipe
	if _, err := p.stdin.Write(chunk); err != nil {
		p.cmd.Wait()
		t.Fatalf("%v; stderr %q", err, p.stderr.String())
	}
	if keepOn {
		go func() {
			for {
				if _, err := p.stdin.Write(chunk); err != nil {
					return
				}
			}
		}()
	}
}

// signalAndWait sends sig and returns the exit status and how long the
// exit took.
func (p *harpeProcess) signalAndWait(t *testing.T, sig os.Signal) (int, time.Duration) {
	t.Helper()
	start := time.Now()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(start)
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return p.cmd.ProcessState.ExitCode(), took
	case <-time.After(stopBound + 10*time.Second):
		t.Fatalf("harpe did not exit %v after %v", stopBound+10*time.Second, sig)
		return 0, 0
	}
}

func TestSignals(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	tests := []struct {
		name string
		sig  os.Signal
		args []string
		// keepOn keeps stdin flowing (the context is seen at the next
		// read); without it harpe is stuck in a read and the watchdog
		// ends it.
		keepOn bool
	}{
		{"synthesize reading, SIGINT", os.Interrupt, []string{"synthesize", "--budget", "100"}, true},
		{"synthesize stuck in a read, SIGINT", os.Interrupt, []string{"synthesize", "--budget", "100"}, false},
		{"count --jsonl, SIGTERM", syscall.SIGTERM, []string{"count", "--jsonl"}, true},
		{"conflicts, SIGINT", os.Interrupt, []string{"conflicts"}, true},
		{"dates stuck in a read, SIGTERM", syscall.SIGTERM, []string{"dates", "--anchor", "2024-01-01"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startHarpe(t, t.TempDir(), tt.args...)
			p.feed(t, tt.keepOn)
			code, took := p.signalAndWait(t, tt.sig)
			t.Logf("exited %v after the signal", took)
			if code != ExitInterrupted {
				t.Errorf("exit status %d, want %d (stderr %q)", code, ExitInterrupted, p.stderr.String())
			}
			if took > stopBound {
				t.Errorf("took %v to stop, want under %v", took, stopBound)
			}
			if p.stdout.Len() != 0 {
				t.Errorf("wrote %d bytes to stdout after the interrupt: %.80q", p.stdout.Len(), p.stdout.String())
			}
			if got := p.stderr.String(); got != "harpe: interrupted\n" {
				t.Errorf("stderr %q, want %q", got, "harpe: interrupted\n")
			}
		})
	}
}

// TestSignalKeepsOldOutput: an interrupted -o leaves the old file as it
// was and no temporary file.
func TestSignalKeepsOldOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.jsonl")
	writeTestFile(t, out, "old\n", 0o600)
	for _, keepOn := range []bool{true, false} {
		p := startHarpe(t, dir, "count", "--jsonl", "-o", out)
		p.feed(t, keepOn)
		code, took := p.signalAndWait(t, syscall.SIGTERM)
		t.Logf("keepOn %v: exited %v after the signal", keepOn, took)
		if code != ExitInterrupted || took > stopBound {
			t.Errorf("keepOn %v: exit %d after %v, want %d within %v", keepOn, code, took, ExitInterrupted, stopBound)
		}
		wantFileContent(t, out, "old\n")
		wantDirEntries(t, dir, "out.jsonl")
	}
}

// TestSignalEndsDistillGroup: SIGINT during a --distill-cmd that pipes
// through a grandchild ends harpe quickly and leaves no process of the
// command's group behind.
func TestSignalEndsDistillGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	transcript, err := filepath.Abs("../testdata/replay/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	p := startHarpe(t, dir, "replay", "--strategy", "summarizing", "--high-water-tokens", "15", "--low-water-chars", "50",
		"--distill-cmd", "echo $$ > "+pidFile+".tmp && mv "+pidFile+".tmp "+pidFile+"; sleep 1000 | cat", transcript)
	p.stdin.Close()
	var pgid int
	for deadline := time.Now().Add(10 * time.Second); ; {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pgid, err = strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the distill command did not start; stderr %q", p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	code, took := p.signalAndWait(t, os.Interrupt)
	t.Logf("exited %v after the signal", took)
	if code != ExitInterrupted || took > stopBound {
		t.Errorf("exit %d after %v, want %d within %v (stderr %q)", code, took, ExitInterrupted, stopBound, p.stderr.String())
	}
	if p.stdout.Len() != 0 {
		t.Errorf("stdout %q, want nothing", p.stdout.String())
	}
	// The group (the shell, sleep and cat) is gone.
	for deadline := time.Now().Add(stopBound); ; {
		err := syscall.Kill(-pgid, 0)
		if errors.Is(err, syscall.ESRCH) {
			break
		}
		if time.Now().After(deadline) {
			syscall.Kill(-pgid, syscall.SIGKILL)
			t.Fatalf("process group %d still there after harpe exited (kill: %v)", pgid, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
