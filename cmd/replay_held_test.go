package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestReplayShareGPTOneAtATime: replay takes the conversations of a
// ShareGPT file one at a time as they are read, so the heap does not grow
// with their number. Before, the file was read whole (transcript.Read)
// and every conversation held until replayed: 20,000 two-message
// conversations (2.7 MB) grew the heap sampled during the run by 39 MiB;
// after, by 8–10 MiB (the collector's slack over one conversation, its
// output and the reader's buffers), whatever the number. The same from
// standard input (a pipe) with the default strategies, which read the
// input twice: it was read whole and every conversation held (stdin
// cannot be read twice); now it is held as bytes (spool.Hold) and read
// like a file.
func TestReplayShareGPTOneAtATime(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 20,000 conversations")
	}
	if !inOwnProcess(t, "TestReplayShareGPTOneAtATime") {
		return
	}
	const n = 20000
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":"c%d","conversations":[{"from":"human","value":"hi %d"},{"from":"gpt","value":"hello there, how can I help?"}]}`, i, i)
	}
	b.WriteString("]\n")
	dir := t.TempDir()
	in := filepath.Join(dir, "sharegpt.json")
	writeTestFile(t, in, b.String(), 0o644)
	data := b.String()
	b = strings.Builder{}
	t.Run("file", func(t *testing.T) {
		heapWhileReplaying(t, []string{"replay", "--strategy", "full", "-f", "json", "-o", filepath.Join(dir, "out.json"), in}, "", n)
	})
	t.Run("stdin, the defaults", func(t *testing.T) {
		t.Setenv("TMPDIR", dir)
		heapWhileReplaying(t, []string{"replay", "-f", "json", "-o", filepath.Join(dir, "out.json"), "-"}, data, n)
	})
}

// inOwnProcess runs test in a process of its own (the test binary again,
// that test alone) and reports false, or reports true in that process.
// The live heap is the whole process's: in the package's run, what other
// tests left running (a cancelled run still unwinding, their buffers)
// counted as this test's, and it failed once at 17 MiB on a loaded
// machine with nothing of its own held.
func inOwnProcess(t *testing.T, test string) bool {
	t.Helper()
	if os.Getenv("HARPE_TEST_OWN_PROCESS") == test {
		return true
	}
	c := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	c.Env = append(os.Environ(), "HARPE_TEST_OWN_PROCESS="+test)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s in its own process: %v\n%s", test, err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+test) {
		t.Fatalf("%s in its own process did not run:\n%s", test, out)
	}
	t.Logf("%s", out)
	return false
}

// heapWhileReplaying runs args with stdin as standard input (a reader
// that cannot seek) and fails when the live heap, measured every 10 ms,
// grows by more than 12 MiB over the n conversations replayed.
//
// Each measure is a whole collection (runtime.GC) and the live heap it
// marked (/gc/heap/live:bytes), so garbage cannot count: HeapAlloc counts
// garbage, and the live heap of a background collection counts what was
// allocated while it marked, which on a loaded machine grows with the
// time marking takes (13 MiB of HeapAlloc, then 17 MiB of background
// live heap, were seen with nothing more held).
func heapWhileReplaying(t *testing.T, args []string, stdin string, n int) {
	defer debug.SetGCPercent(debug.SetGCPercent(1))
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	live := func() uint64 {
		runtime.GC()
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := live()
	var peak atomic.Uint64
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if l := live(); l > peak.Load() {
					peak.Store(l)
				}
			}
		}
	}()
	var errs strings.Builder
	code := Run(context.Background(), args,
		IO{In: struct{ io.Reader }{strings.NewReader(stdin)}, Out: &strings.Builder{}, Err: &errs}, func(string) (string, bool) { return "", false })
	close(stop)
	<-stopped
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	grown := peak.Load() - min(peak.Load(), base)
	t.Logf("live heap grew %.1f MiB over %d conversations", float64(grown)/(1<<20), n)
	if grown > 12<<20 {
		t.Errorf("live heap grew %d MiB while replaying %d conversations, want at most 12 MiB: conversations held", grown>>20, n)
	}
}
