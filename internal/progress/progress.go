// Package progress writes progress reports for a terminal: each rewrites
// one line ("\r", clear to the end) with how far the work is against the
// whole (N of M, a percentage) and the rate so far.
//
// The reports read the clock, which nothing else in harpe does, so nothing
// on stdout or in a file may depend on them; callers create them only when
// their writer is a terminal.
package progress

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Every is the least time between two reports.
const Every = 200 * time.Millisecond

// Counting reports counting progress: bytes of one input (against its
// size when it is a regular file) or files done of many. Its methods are
// safe for concurrent use. A nil *Counting reports nothing.
type Counting struct {
	w     io.Writer
	files int
	now   func() time.Time
	mu    sync.Mutex
	start time.Time
	last  time.Time
	size  int64 // of the one input being streamed; 0 when unknown
	done  int
	shown bool
}

// NewCounting reports the counting of files inputs on w; nil (which
// reports nothing) when w is not a terminal.
func NewCounting(w io.Writer, terminal bool, files int) *Counting {
	if !terminal {
		return nil
	}
	return &Counting{w: w, files: files, now: time.Now, start: time.Now()}
}

// SizeOf records the size of the one input about to be streamed, when it
// is a regular file (a named file, or standard input redirected from one).
func (p *Counting) SizeOf(r io.Reader) {
	f, ok := r.(*os.File)
	if p == nil || !ok {
		return
	}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		p.mu.Lock()
		p.size = st.Size()
		p.mu.Unlock()
	}
}

// due reports whether a report is due now; the caller holds mu.
func (p *Counting) due() (time.Time, bool) {
	now := p.now()
	if p.shown && now.Sub(p.last) < Every {
		return now, false
	}
	p.last, p.shown = now, true
	return now, true
}

// Bytes reports n bytes read of the one input: "120 of 512 MB (23%),
// 61 MB/s", or "120 MB read, 61 MB/s" when the size is unknown. Inputs
// under 16 MB finish too soon to need it.
func (p *Counting) Bytes(n int64) {
	if p == nil || n < 16<<20 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now, ok := p.due()
	if !ok {
		return
	}
	rate := rateOf(float64(n>>20), now.Sub(p.start))
	if p.size >= n {
		fmt.Fprintf(p.w, "\r\033[Kharpe: counting: %d of %d MB (%d%%), %s MB/s",
			n>>20, p.size>>20, percent(n, p.size), rate)
		return
	}
	fmt.Fprintf(p.w, "\r\033[Kharpe: counting: %d MB read, %s MB/s", n>>20, rate)
}

// FileDone reports one more file counted of many: "120 of 500 files
// (24%), 35 files/s". Fewer than 20 files need no report.
func (p *Counting) FileDone() {
	if p == nil || p.files < 20 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	now, ok := p.due()
	if !ok && p.done < p.files {
		return
	}
	fmt.Fprintf(p.w, "\r\033[Kharpe: counting: %d of %d files (%d%%), %s files/s",
		p.done, p.files, percent(int64(p.done), int64(p.files)), rateOf(float64(p.done), now.Sub(p.start)))
}

// Finish clears the progress line.
func (p *Counting) Finish() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// percent is done as a whole percentage of total, rounded down.
func percent(done, total int64) int64 {
	if total <= 0 {
		return 0
	}
	return done * 100 / total
}

// rateOf writes n per second over d, with one decimal under 10.
func rateOf(n float64, d time.Duration) string {
	if n == 0 {
		return "0"
	}
	if d <= 0 {
		return "-"
	}
	r := n / d.Seconds()
	if r < 10 {
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.0f", r)
}

// Replay reports a replay's progress: "replay: windowed: 4096 of 10000
// messages (40%), 2400 messages/s", a line per strategy in turn.
type Replay struct {
	w        io.Writer
	now      func() time.Time
	strategy string
	start    time.Time
	last     time.Time
}

// NewReplay reports a replay's progress on w.
func NewReplay(w io.Writer) *Replay {
	return &Replay{w: w, now: time.Now}
}

// Report is a window.ReplayOptions.Progress function: done of total
// messages replayed with strategy s.
func (p *Replay) Report(s string, done, total int) {
	now := p.now()
	if s != p.strategy {
		p.strategy, p.start, p.last = s, now, time.Time{}
	}
	if done < total && !p.last.IsZero() && now.Sub(p.last) < Every {
		return
	}
	p.last = now
	if done >= total {
		fmt.Fprintf(p.w, "\r\033[Kreplay: %s: %d of %d messages (100%%) done", s, done, total)
		return
	}
	fmt.Fprintf(p.w, "\r\033[Kreplay: %s: %d of %d messages (%d%%), %s messages/s", s, done, total,
		percent(int64(done), int64(total)), rateOf(float64(done), now.Sub(p.start)))
}
