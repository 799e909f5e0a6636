package progress

import (
	"bytes"
	"testing"
	"time"
)

// fakeClock returns the times given, one a call.
func fakeClock(ts ...time.Duration) func() time.Time {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	i := 0
	return func() time.Time {
		t := base.Add(ts[min(i, len(ts)-1)])
		i++
		return t
	}
}

func TestCountProgressLines(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name  string
		size  int64
		reads []int64
		clock []time.Duration // start, then one per report considered
		want  string
	}{
		// 64 of 256 MB after 2 s: 25%, 32 MB/s. 128 MB 100 ms later is
		// within 200 ms of the last report, so it is not shown.
		{"against the size", 256 * mb, []int64{64 * mb, 128 * mb}, []time.Duration{0, 2 * time.Second, 2100 * time.Millisecond},
			"\r\x1b[Kharpe: counting: 64 of 256 MB (25%), 32 MB/s"},
		// Unknown size: 20 MB after 4 s is 5.0 MB/s; 40 MB after 5 s, 8.0.
		{"size unknown", 0, []int64{20 * mb, 40 * mb}, []time.Duration{0, 4 * time.Second, 5 * time.Second},
			"\r\x1b[Kharpe: counting: 20 MB read, 5.0 MB/s\r\x1b[Kharpe: counting: 40 MB read, 8.0 MB/s"},
		{"small inputs need none", 0, []int64{mb}, []time.Duration{0, time.Second}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var errb bytes.Buffer
			now := fakeClock(tt.clock...)
			p := &Counting{w: &errb, files: 1, now: now, start: now(), size: tt.size}
			for _, n := range tt.reads {
				p.Bytes(n)
			}
			if got := errb.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCountProgressFiles(t *testing.T) {
	var errb bytes.Buffer
	// Start at 0; files done at 1 s, 1.1 s (skipped: too soon) and, after
	// 17 more not reported, the last at 2 s: 1 of 20 at 1.0 file/s, 20 of
	// 20 at 10.
	now := fakeClock(0, time.Second, 1100*time.Millisecond, 2*time.Second)
	// 20 files: the least number that shows progress.
	p := &Counting{w: &errb, files: 20, now: now, start: now()}
	p.FileDone()
	p.FileDone()
	p.done = 19
	p.FileDone()
	want := "\r\x1b[Kharpe: counting: 1 of 20 files (5%), 1.0 files/s" +
		"\r\x1b[Kharpe: counting: 20 of 20 files (100%), 10 files/s"
	if got := errb.String(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestReplayProgressLines(t *testing.T) {
	var errb bytes.Buffer
	// windowed: 0 at 0 s, 4096 at 0.1 s (too soon), 8192 at 2 s, the end
	// at 2.1 s (always shown); then turn starts again from its own clock.
	p := NewReplay(&errb)
	p.now = fakeClock(0, 100*time.Millisecond, 2*time.Second, 2100*time.Millisecond, 3*time.Second)
	p.Report("windowed", 0, 10000)
	p.Report("windowed", 4096, 10000)
	p.Report("windowed", 8192, 10000)
	p.Report("windowed", 10000, 10000)
	p.Report("turn", 0, 10000)
	want := "\r\x1b[Kreplay: windowed: 0 of 10000 messages (0%), 0 messages/s" +
		"\r\x1b[Kreplay: windowed: 8192 of 10000 messages (81%), 4096 messages/s" +
		"\r\x1b[Kreplay: windowed: 10000 of 10000 messages (100%) done" +
		"\r\x1b[Kreplay: turn: 0 of 10000 messages (0%), 0 messages/s"
	if got := errb.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
