package tokenize

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"unsafe"
)

// Streaming counts. A long text is cut into chunks at safe boundaries,
// places where no piece of any built-in counter can cross, so the chunks'
// counts add up to the whole text's count exactly; chunks are then counted
// in parallel and only a few chunks are in memory at a time.
//
// A boundary b (the chunk ends just before byte b) is safe when either
//
//  1. text[b-1] is '\n' and text[b] is printable ASCII other than '/'
//     ('!' … '~'), or
//  2. text[b-1] is an ASCII letter, text[b] is ' ' and text[b+1] is an
//     ASCII letter.
//
// Why no piece crosses b, for each counter:
//
//   - o200k_base and cl100k_base: the split patterns only look forward, so
//     the pieces from b on are the same whether the text starts at b or not;
//     what needs showing is that the piece holding text[b-1] ends at b, and
//     that it is found the same way when the text ends at b. In case 1 the
//     piece holding a '\n' is \s*[\r\n]+ (white space runs that hold a line
//     break always match it first), which stops at the first character that
//     is not white space, or the [\r\n/]* / [\r\n]* tail of the punctuation
//     alternative, which stops at anything but '\r', '\n' and '/': both stop
//     at text[b], and at the end of the text alike. No other alternative
//     takes a '\n' (the letter alternatives' optional first character
//     excludes \r and \n). In case 2 the piece holding the letter text[b-1]
//     is a letter alternative, whose runs of letters and marks stop at ' ',
//     and whose optional contraction must start with '\''; a contraction
//     piece ('s …) ends with its letter. Again the end of the text stops
//     them just the same.
//   - estimate: its pieces are runs of [A-Za-z0-9_] or single characters,
//     and its hex runs are runs of [0-9A-Fa-f]; neither continues over '\n'
//     or ' ', and the number of code points adds up. Its total is
//     max(pieces+hex, chars/4), so it is summed in those parts and combined
//     at the end.
//
// The boundary bytes are ASCII, so no UTF-8 sequence (valid or not) is cut
// either: decoding each chunk gives the same code points as decoding the
// whole.

// A tally counts a text given in chunks cut at safe boundaries. add
// returns ctx's error, adding nothing, once ctx is done.
type tally interface {
	add(ctx context.Context, chunk string) error
	total() int
}

// chunker is implemented by counters whose counts can be summed over
// chunks cut at safe boundaries.
type chunker interface {
	newTally() tally
}

type sumTally struct {
	c Counter
	n int
	// mu guards n when chunks are added from several goroutines.
	mu sync.Mutex
}

func (t *sumTally) add(ctx context.Context, chunk string) error {
	k, err := CountContext(ctx, t.c, chunk)
	if err != nil {
		return err
	}
	t.mu.Lock()
	t.n += k
	t.mu.Unlock()
	return nil
}
func (t *sumTally) total() int { return t.n }

func (e *Encoding) newTally() tally { return &sumTally{c: e} }

type estimateTally struct {
	mu            sync.Mutex
	pieces, chars int
}

func (t *estimateTally) add(ctx context.Context, chunk string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	p, c := estimateParts(chunk)
	t.mu.Lock()
	t.pieces += p
	t.chars += c
	t.mu.Unlock()
	return nil
}
func (t *estimateTally) total() int { return max(t.pieces, t.chars/4) }

func (estimator) newTally() tally { return &estimateTally{} }

// SafeBoundary returns the largest b ≤ len(text) (b > 0) at which text can
// be cut into text[:b] and text[b:] with every built-in counter giving the
// same total for the two halves as for the whole, or 0 when there is none.
// See the package documentation of streaming for the rule.
func SafeBoundary(text []byte) int {
	for b := len(text) - 1; b > 0; b-- {
		c := text[b]
		switch {
		case text[b-1] == '\n':
			if c > ' ' && c < 0x7f && c != '/' {
				return b
			}
		case c == ' ' && b+1 < len(text) && isASCIILetter(text[b-1]) && isASCIILetter(text[b+1]):
			return b
		}
	}
	return 0
}

func isASCIILetter(c byte) bool { return (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// StreamOptions tunes [CountReader].
type StreamOptions struct {
	// ChunkSize is the size of the blocks read (default 1 MiB). A chunk is
	// cut at the last safe boundary in a block, so it can be somewhat
	// shorter; a text with no safe boundary for many blocks is held whole.
	ChunkSize int
	// Workers is how many chunks are counted at once (default 2).
	Workers int
	// Progress, when set, is called after each block is read with the
	// number of bytes read so far. It is called from the reading goroutine.
	Progress func(bytes int64)
}

// CountReader counts everything r yields with each of counters and
// returns the number of bytes read and one count per counter.
//
// When every counter is a built-in one ([Estimate], [O200kBase],
// [Cl100kBase]) the text is read in chunks cut at safe boundaries (see
// [SafeBoundary]) and counted in parallel, in memory bounded by a few
// chunks; the counts are exactly those of the whole text. Any other
// [Counter] gets the whole text at once.
func CountReader(r io.Reader, counters []Counter, opt StreamOptions) (int64, []int, error) {
	return CountReaderContext(context.Background(), r, counters, opt)
}

// CountReaderContext is [CountReader] that stops once ctx is done: it
// looks before each block it reads and inside the counting of each chunk
// (see [ContextCounter]), and then returns ctx.Err() and no counts.
func CountReaderContext(ctx context.Context, r io.Reader, counters []Counter, opt StreamOptions) (int64, []int, error) {
	if opt.ChunkSize <= 0 {
		opt.ChunkSize = 1 << 20
	}
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	tallies := make([]tally, len(counters))
	for i, c := range counters {
		ch, ok := c.(chunker)
		if !ok {
			return countWhole(ctx, r, counters)
		}
		tallies[i] = ch.newTally()
	}

	jobs := make(chan string, opt.Workers)
	var wg sync.WaitGroup
	for range opt.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chunk := range jobs {
				for _, t := range tallies {
					// A cancelled add leaves the rest of the chunks to
					// be drained unread: the result is ctx's error.
					if t.add(ctx, chunk) != nil {
						break
					}
				}
			}
		}()
	}

	var (
		read    int64
		pending []byte // bytes read but not yet sent
		// searchFrom is where the next look for a boundary starts.
		searchFrom int
		err        error
	)
	// The read buffer starts small and doubles up to ChunkSize: counting a
	// 1 KB file should not allocate (and clear) 1 MiB first.
	buf := make([]byte, min(opt.ChunkSize, 16<<10))
	for {
		if err = ctx.Err(); err != nil {
			break
		}
		var n int
		n, err = io.ReadFull(r, buf)
		read += int64(n)
		if len(pending)+n > cap(pending) {
			// Grow by doubling rather than append's 1.25 for large
			// slices: a text without boundaries then leaves at most its
			// own size in old arrays behind, not four times it.
			grown := make([]byte, len(pending), max(2*cap(pending), len(pending)+n))
			copy(grown, pending)
			pending = grown
		}
		pending = append(pending, buf[:n]...)
		if opt.Progress != nil && n > 0 {
			opt.Progress(read)
		}
		if err != nil {
			break
		}
		if len(buf) < opt.ChunkSize {
			buf = make([]byte, min(opt.ChunkSize, 2*len(buf)))
		}
		// Boundaries before searchFrom+1 were looked for already: only
		// the new bytes, and the two before them, can make one.
		if b := SafeBoundary(pending[searchFrom:]); b > 0 {
			b += searchFrom
			// The chunk is handed over as it is, without a copy: pending
			// starts afresh with the bytes after the boundary, and the old
			// array is never written again.
			jobs <- unsafe.String(&pending[0], b)
			rest := pending[b:]
			pending = append(make([]byte, 0, max(2*len(buf), len(rest)+len(buf))), rest...)
		}
		searchFrom = max(0, len(pending)-2)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	if err == nil && len(pending) > 0 {
		jobs <- unsafe.String(&pending[0], len(pending))
		pending = nil
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return read, nil, err
	}
	counts := make([]int, len(tallies))
	for i, t := range tallies {
		counts[i] = t.total()
	}
	return read, counts, nil
}

func countWhole(ctx context.Context, r io.Reader, counters []Counter) (int64, []int, error) {
	var b bytes.Buffer
	n, err := b.ReadFrom(r)
	if err != nil {
		return n, nil, err
	}
	s := b.String()
	counts := make([]int, len(counters))
	for i, c := range counters {
		if counts[i], err = CountContext(ctx, c, s); err != nil {
			return n, nil, err
		}
	}
	return n, counts, nil
}
