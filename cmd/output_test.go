//go:build unix

package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/harpe-dev/harpe/internal/table"
)

func TestOutputFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("modes and symlinks are Unix behaviour")
	}
	// umask 022 for the whole test (process-wide: not parallel).
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)

	tests := []struct {
		name string
		// setup makes the directory's files and returns the -o argument.
		setup      func(t *testing.T, dir string) string
		wantCode   int
		wantStderr string // exact; "DIR" is replaced by the directory
		// check looks at the directory afterwards.
		check func(t *testing.T, dir string)
	}{
		{
			name:  "new file honours the umask",
			setup: func(t *testing.T, dir string) string { return filepath.Join(dir, "new.txt") },
			check: func(t *testing.T, dir string) {
				// 0666 &^ 0027 = 0640.
				wantFileMode(t, filepath.Join(dir, "new.txt"), 0o640)
				wantDirEntries(t, dir, "items.jsonl", "new.txt")
			},
		},
		{
			name: "existing file keeps its mode",
			setup: func(t *testing.T, dir string) string {
				p := filepath.Join(dir, "secret.txt")
				writeTestFile(t, p, "old\n", 0o600)
				os.Chmod(p, 0o600)
				return p
			},
			check: func(t *testing.T, dir string) {
				wantFileMode(t, filepath.Join(dir, "secret.txt"), 0o600)
				wantFileContent(t, filepath.Join(dir, "secret.txt"), "18 "+filepath.Join(dir, "items.jsonl")+"\n")
			},
		},
		{
			name: "symlink is followed, not replaced",
			setup: func(t *testing.T, dir string) string {
				writeTestFile(t, filepath.Join(dir, "real.txt"), "old\n", 0o644)
				if err := os.Symlink("real.txt", filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(dir, "link")
			},
			check: func(t *testing.T, dir string) {
				fi, err := os.Lstat(filepath.Join(dir, "link"))
				if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("link is no longer a symlink: %v %v", fi.Mode(), err)
				}
				wantFileContent(t, filepath.Join(dir, "real.txt"), "18 "+filepath.Join(dir, "items.jsonl")+"\n")
				wantDirEntries(t, dir, "items.jsonl", "link", "real.txt")
			},
		},
		{
			name: "dangling symlink creates its target",
			setup: func(t *testing.T, dir string) string {
				if err := os.Symlink("made.txt", filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
				return filepath.Join(dir, "link")
			},
			check: func(t *testing.T, dir string) {
				wantFileContent(t, filepath.Join(dir, "made.txt"), "18 "+filepath.Join(dir, "items.jsonl")+"\n")
			},
		},
		{
			name:       "missing directory",
			setup:      func(t *testing.T, dir string) string { return filepath.Join(dir, "nodir", "k.txt") },
			wantCode:   ExitUsage,
			wantStderr: "harpe: DIR/nodir/k.txt: no such file or directory\n",
			check:      func(t *testing.T, dir string) { wantDirEntries(t, dir, "items.jsonl") },
		},
		{
			name: "directory",
			setup: func(t *testing.T, dir string) string {
				os.Mkdir(filepath.Join(dir, "adir"), 0o755)
				return filepath.Join(dir, "adir")
			},
			wantCode:   ExitUsage,
			wantStderr: "harpe: DIR/adir: is a directory\n",
			check:      func(t *testing.T, dir string) { wantDirEntries(t, dir, "adir", "items.jsonl") },
		},
		{
			name: "read-only directory names the user's path, not the temporary file",
			setup: func(t *testing.T, dir string) string {
				if os.Geteuid() == 0 {
					t.Skip("root writes anywhere")
				}
				ro := filepath.Join(dir, "ro")
				os.Mkdir(ro, 0o555)
				t.Cleanup(func() { os.Chmod(ro, 0o755) })
				return filepath.Join(ro, "out.txt")
			},
			wantCode:   ExitWrite,
			wantStderr: "harpe: DIR/ro/out.txt: cannot create it: directory DIR/ro is not writable (permission denied)\n",
		},
		{
			name: "read-only directory, writable file: written in place",
			setup: func(t *testing.T, dir string) string {
				if os.Geteuid() == 0 {
					t.Skip("root writes anywhere")
				}
				ro := filepath.Join(dir, "ro")
				os.Mkdir(ro, 0o755)
				writeTestFile(t, filepath.Join(ro, "out.txt"), "old\n", 0o644)
				os.Chmod(ro, 0o555)
				t.Cleanup(func() { os.Chmod(ro, 0o755) })
				return filepath.Join(ro, "out.txt")
			},
			wantCode: ExitOK,
			check: func(t *testing.T, dir string) {
				wantFileContent(t, filepath.Join(dir, "ro", "out.txt"), "18 "+filepath.Join(dir, "items.jsonl")+"\n")
			},
		},
		{
			name: "device is written in place",
			setup: func(t *testing.T, dir string) string {
				if _, err := os.Stat("/dev/full"); err != nil {
					t.Skip("no /dev/full")
				}
				return "/dev/full"
			},
			wantCode:   ExitWrite,
			wantStderr: "harpe: /dev/full: no space left on device\n",
			check: func(t *testing.T, dir string) {
				fi, err := os.Stat("/dev/full")
				if err != nil || fi.Mode()&fs.ModeDevice == 0 {
					t.Errorf("/dev/full is no longer a device: %v %v", fi.Mode(), err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			items := filepath.Join(dir, "items.jsonl")
			writeTestFile(t, items, outputTestItems, 0o644)
			out := tt.setup(t, dir)
			code, stdout, stderr := runHarpe(t, "", "count", "--config", os.DevNull, "-o", out, items)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.wantCode, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if want := strings.ReplaceAll(tt.wantStderr, "DIR", dir); stderr != want {
				t.Errorf("stderr %q, want %q", stderr, want)
			}
			if tt.check != nil {
				tt.check(t, dir)
			}
		})
	}
}

// TestOutputFIFO writes -o to a named pipe: it is opened and written, not
// replaced by a regular file.
func TestOutputFIFO(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	writeTestFile(t, items, outputTestItems, 0o644)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	code, _, stderr := runHarpe(t, "", "count", "--config", os.DevNull, "-o", fifo, items)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s, want := <-got, "18 "+items+"\n"; s != want {
		t.Errorf("read %q from the FIFO, want %q", s, want)
	}
	fi, err := os.Lstat(fifo)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", fi.Mode(), err)
	}
}

// TestOutputsAllOrNone: when one of a run's outputs cannot be written,
// none is, and the old files stay as they were.
func TestOutputsAllOrNone(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	writeTestFile(t, items, outputTestItems, 0o644)
	rep := filepath.Join(dir, "rep.json")
	tests := []struct {
		name       string
		args       []string
		wantStderr string
	}{
		{"-o in a missing directory", []string{"--report", rep, "--emit", "kept", "-o", filepath.Join(dir, "nodir", "k.jsonl")},
			"harpe: " + filepath.Join(dir, "nodir", "k.jsonl") + ": no such file or directory\n"},
		{"--report in a missing directory", []string{"--report", filepath.Join(dir, "nodir", "r.json"), "--emit", "kept", "-o", rep},
			"harpe: " + filepath.Join(dir, "nodir", "r.json") + ": no such file or directory\n"},
		{"the same file twice", []string{"--report", rep, "--emit", "kept", "-o", rep},
			"harpe: " + rep + ": named twice as an output (as " + rep + ")\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeTestFile(t, rep, "old report\n", 0o644)
			args := append([]string{"synthesize", "--config", os.DevNull, "--budget", "100"}, tt.args...)
			code, stdout, stderr := runHarpe(t, "", append(args, items)...)
			if code != ExitUsage || stdout != "" || stderr != tt.wantStderr {
				t.Errorf("got exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, tt.wantStderr)
			}
			wantFileContent(t, rep, "old report\n")
			wantDirEntries(t, dir, "items.jsonl", "rep.json")
		})
	}
}

// TestOutputInterrupted: a run whose context ends before it commits writes
// nothing, on stdout or in -o, and leaves the old file.
func TestOutputInterrupted(t *testing.T) {
	dir := t.TempDir()
	items := filepath.Join(dir, "items.jsonl")
	writeTestFile(t, items, outputTestItems, 0o644)
	out := filepath.Join(dir, "out.txt")
	writeTestFile(t, out, "old\n", 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, args := range [][]string{{"count", items}, {"count", "-o", out, items}, {"synthesize", "--budget", "9", "--report", out, items}} {
		stdout, stderr, code := runHarpeIO(ctx, "", false, append([]string{"--config", os.DevNull}, args...)...)
		if code != ExitInterrupted || stdout != "" || stderr != "harpe: interrupted\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 130, nothing, interrupted", args, code, stdout, stderr)
		}
	}
	wantFileContent(t, out, "old\n")
	wantDirEntries(t, dir, "items.jsonl", "out.txt")
}

// TestOutputNamedTwice: one file named twice as an output under different
// spellings is a usage error before any work, nothing written and the old
// file kept. Before, each pair below exited 0 and one output was lost.
func TestOutputNamedTwice(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeTestFile(t, "items.jsonl", outputTestItems, 0o644)
	if err := os.Mkdir("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("rep.json", "link.json"); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(dir, "rep.json")
	tests := []struct {
		name   string
		report string
		output string
	}{
		{"dot slash", "rep.json", "./rep.json"},
		{"absolute and relative", abs, "rep.json"},
		{"through a parent", "rep.json", "sub/../rep.json"},
		{"a symlink and its target", "link.json", "rep.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeTestFile(t, "rep.json", "old report\n", 0o644)
			code, stdout, stderr := runHarpe(t, "", "synthesize", "--config", os.DevNull, "--budget", "100",
				"--report", tt.report, "--emit", "kept", "-o", tt.output, "items.jsonl")
			// The flags are checked in the order -o, --report, --plot: the
			// error names --report's path, "as" -o's.
			first, second := tt.output, tt.report
			want := "harpe: " + second + ": named twice as an output (as " + first + ")\n"
			if code != ExitUsage || stdout != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing, %q", code, stdout, stderr, want)
			}
			wantFileContent(t, "rep.json", "old report\n")
		})
	}
	// Two different files are fine.
	if code, _, stderr := runHarpe(t, "", "synthesize", "--config", os.DevNull, "--budget", "100",
		"--report", "sub/rep.json", "--emit", "kept", "-o", "./rep.json", "items.jsonl"); code != 0 {
		t.Errorf("two files: exit %d, %s", code, stderr)
	}
}

// TestWriteErrorBlamesTheOutput: a write that fails (a full disk) is
// reported as the output's error, exit 1, naming the output as the user
// wrote it, even when the command wrapped it in an error naming its input.
// Before: "harpe: long.jsonl: write .r.txt.harpe-27679-1: no space left on
// device", exit 2.
func TestWriteErrorBlamesTheOutput(t *testing.T) {
	full := failingWriter{syscall.ENOSPC}
	err := writeWatched(full, "r.txt", table.Options{Width: 80}, func(w io.Writer) error {
		if _, err := w.Write(make([]byte, 100<<10)); err != nil { // past the buffer
			return inputError(fmt.Errorf("long.jsonl: %w", &fs.PathError{Op: "write", Path: ".r.txt.harpe-1-1", Err: err}))
		}
		return nil
	})
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != ExitWrite || err.Error() != "r.txt: no space left on device" {
		t.Fatalf("got %v (%T), want exit 1 \"r.txt: no space left on device\"", err, err)
	}
	// Flushed at the end: the same.
	err = writeWatched(full, "r.txt", table.Options{Width: 80}, func(w io.Writer) error {
		_, err := io.WriteString(w, "short")
		return err
	})
	if !errors.As(err, &ee) || ee.code != ExitWrite || err.Error() != "r.txt: no space left on device" {
		t.Fatalf("flush: got %v, want exit 1 \"r.txt: no space left on device\"", err)
	}
}

type failingWriter struct{ err error }

func (f failingWriter) Write([]byte) (int, error) { return 0, f.err }
