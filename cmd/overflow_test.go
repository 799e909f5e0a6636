package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUsageOverflowExit pins the exit status of recorded usage that does
// not fit an int (issue 16), which the overflow_*.txtar scripts can only
// check as non-zero: 2, an error naming the file and line, no stdout.
func TestUsageOverflowExit(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// 2^63−1 input plus 1 cache read.
	cc := write("cc.jsonl", `{"type":"user","message":{"role":"user","content":"hi"}}`+"\n"+
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":"hello","usage":{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}}}`+"\n")
	// Two calls of 5·10^18: 10^19 > 2^63−1.
	calls := write("calls.jsonl", `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":5000000000000000000}
`)
	tests := []struct {
		name   string
		args   []string
		stderr string // prefix
	}{
		{"transcript", []string{"transcript", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"transcript --breakdown", []string{"transcript", "--breakdown", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"count --transcript", []string{"count", "--transcript", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"fit", []string{"fit", "--threshold", "10", cc}, "harpe: " + cc + ":2: message.usage: "},
		{"transcript recorded total", []string{"transcript", calls}, "harpe: " + calls + ":6: the recorded input tokens add up"},
		{"breakdown recorded total", []string{"transcript", "--breakdown", "--format", "table", calls}, "harpe: " + calls + ":6: the recorded input tokens add up"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := runHarpe(t, "", tt.args...)
			if code != ExitUsage || stdout != "" || !strings.HasPrefix(stderr, tt.stderr) {
				t.Errorf("status %d, stdout %q, stderr %q; want %d, nothing, %q…", code, stdout, stderr, ExitUsage, tt.stderr)
			}
		})
	}
}

// cancellingReader serves r and cancels after the first limit bytes,
// counting what is read after that.
type cancellingReader struct {
	r      io.Reader
	limit  int
	n      int
	cancel context.CancelFunc
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p[:min(len(p), 4096)])
	c.n += n
	if c.n >= c.limit {
		c.cancel()
	}
	return n, err
}

// TestTranscriptInterruptWiring: the transcript commands pass their
// context to the scan, so an interrupt while a long standard input is
// read stops the reading (what is read after the cancel is bounded by the
// read-ahead buffers, not the input) with status 130 and nothing on
// stdout. Counted in bytes, not timed.
func TestTranscriptInterruptWiring(t *testing.T) {
	var b strings.Builder
	for i := range 200000 { // about 11 MB
		fmt.Fprintf(&b, "{\"type\":\"user\",\"content\":\"q%d\"}\n{\"type\":\"assistant\",\"content\":\"answer %d\"}\n", i, i)
	}
	in := b.String()
	for _, args := range [][]string{{"transcript"}, {"transcript", "--breakdown"}, {"count", "--transcript"}, {"fit", "--threshold", "10"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cr := &cancellingReader{r: strings.NewReader(in), limit: 1 << 20, cancel: cancel}
			var out, errb bytes.Buffer
			code := Run(ctx, args, IO{In: cr, Out: &out, Err: &errb}, func(string) (string, bool) { return "", false })
			if code != ExitInterrupted || out.Len() != 0 {
				t.Errorf("status %d, %d bytes on stdout (stderr %q); want %d and none", code, out.Len(), errb.String(), ExitInterrupted)
			}
			// 1 MiB before the cancel, then at most the readers' buffers.
			if cr.n > 1<<20+256<<10 {
				t.Errorf("read %d of %d bytes: %d after the cancel", cr.n, len(in), cr.n-1<<20)
			}
		})
	}
}
