package tokenize

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/harpe-dev/harpe/internal/pool"
)

// Streaming counts. A long text is cut into chunks at safe boundaries,
// places where no piece of any built-in counter can cross, so the chunks'
// counts add up to the whole text's count exactly; chunks are then counted
// in parallel and only a few chunks are in memory at a time.
//
// A boundary b (the chunk ends just before byte b) is safe when either
//
//  1. text[b-1] is '\n' and text[b] starts a code point (valid UTF-8) that
//     is not White_Space and not '/': printable ASCII, or a letter,
//     number, mark, punctuation or symbol of any script, or
//  2. text[b] is ' ', the code point ending at b-1 is a letter or a mark
//     and the one starting at b+1 a letter (Unicode general category L),
//     of any script.
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
//     or ' ', and the number of code points adds up. For the estimate
//     alone any b after an ASCII byte that is not in [A-Za-z0-9_] is safe
//     (estimateBoundary): a NUL, a space or a dot ends every run. Its total is
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

// SafeChunker is a [Counter] that can say its counts add up over chunks
// cut at [SafeBoundary]: [CountReader] then streams it in bounded memory
// as it does the built-in counters.
type SafeChunker interface {
	Counter
	// SafeChunks reports whether no piece of this counter crosses a safe
	// boundary, so that the chunks' counts sum to the whole text's.
	SafeChunks() bool
}

// LineChunker is a [Counter] that can say its counts add up over chunks
// cut at [LineBoundary], a stricter rule than [SafeBoundary]: the
// tokenizer.json layouts that split at line breaks (WordPiece with
// BertPreTokenizer, GPT-2's ByteLevel) but not between words.
type LineChunker interface {
	Counter
	// LineChunks reports whether no piece of this counter crosses a
	// boundary LineBoundary finds.
	LineChunks() bool
}

// LineBoundary returns the largest b (0 < b ≤ len(text)) at which text
// can be cut by rule 1 of [SafeBoundary] with, besides, a character that
// is not White_Space before the line break: text[b-1] is '\n', text[b]
// starts a code point that is not White_Space nor '/', and the code point
// ending at b-1 is not White_Space. It is 0 when there is none. Every
// boundary it finds is one SafeBoundary allows, so the built-in counters
// stream over it too.
func LineBoundary(text []byte) int {
	for b := len(text) - 1; b > 1; b-- {
		if text[b-1] != '\n' || !startsVisible(text[b:]) {
			continue
		}
		if r, size := utf8.DecodeLastRune(text[:b-1]); size > 0 && r != utf8.RuneError && !unicode.IsSpace(r) {
			return b
		}
	}
	return 0
}

// startsVisible reports whether text starts with a code point rule 1 of
// SafeBoundary takes: not White_Space, not '/', valid UTF-8.
func startsVisible(text []byte) bool {
	c := text[0]
	if c < utf8.RuneSelf {
		return c > ' ' && c < 0x7f && c != '/'
	}
	r, size := utf8.DecodeRune(text)
	return size > 1 && !unicode.IsSpace(r)
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
	k, err := t.c.Count(ctx, chunk)
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
			if c >= utf8.RuneSelf {
				if r, size := utf8.DecodeRune(text[b:]); size > 1 && !unicode.IsSpace(r) {
					return b
				}
			}
		case c == ' ' && b+1 < len(text) && letterOrMarkBefore(text[:b]) && letterAt(text[b+1:]):
			return b
		}
	}
	return 0
}

// letterOrMarkBefore reports whether text ends with a letter or a mark.
func letterOrMarkBefore(text []byte) bool {
	if c := text[len(text)-1]; c < utf8.RuneSelf {
		return isASCIILetter(c)
	}
	r, size := utf8.DecodeLastRune(text)
	return size > 1 && (unicode.IsLetter(r) || unicode.Is(unicode.M, r))
}

// letterAt reports whether text starts with a letter.
func letterAt(text []byte) bool {
	if c := text[0]; c < utf8.RuneSelf {
		return isASCIILetter(c)
	}
	r, size := utf8.DecodeRune(text)
	return size > 1 && unicode.IsLetter(r)
}

// estimateBoundary is [SafeBoundary] for the estimate alone: the largest
// b > 0 after an ASCII byte outside [A-Za-z0-9_], where no run of the
// estimate continues and no code point is cut.
func estimateBoundary(text []byte) int {
	for b := len(text) - 1; b > 0; b-- {
		if c := text[b-1]; c < utf8.RuneSelf && asciiClass[c]&clsWord == 0 {
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
	// MaxUnbroken is how many bytes without a safe boundary are held
	// before the count fails with an [*UnbrokenError] (a run that long is
	// one piece, which must be merged whole). Zero means
	// [DefaultMaxUnbroken]; negative means no limit.
	MaxUnbroken int
	// MaxWhole is how many bytes are held for a counter that counts a
	// text whole (neither a SafeChunker nor a LineChunker that says so)
	// before the count fails with a [*WholeTooLargeError]. Zero means
	// [DefaultMaxWhole]; negative means no limit.
	MaxWhole int
}

// DefaultMaxWhole is the most text [CountReader] holds by default for a
// counter that counts a text whole: 16 MiB. Such a count takes up to
// about 48 times the text (a Unigram tokenizer.json, measured 2026-12-06:
// 30 MB of text, 1.4 GB), so 16 MiB stays under 1 GiB.
const DefaultMaxWhole = 16 << 20

// DefaultMaxUnbroken is the most text without a safe boundary that
// [CountReader] holds by default: 64 MiB, merged in about 5 times that.
const DefaultMaxUnbroken = 64 << 20

// UnbrokenError is [CountReader]'s error for a text that goes on for more
// than Limit bytes without a place where it can be cut: /dev/zero through
// a tokenizer, or a gigabyte of one letter.
type UnbrokenError struct {
	Limit int
}

func (e *UnbrokenError) Error() string {
	return fmt.Sprintf("more than %s without a place to cut the text (a line break before a character that is not a space, "+
		"or a space between two letters); a run that long is one token piece, and at most %s of one is held", mib(e.Limit), mib(e.Limit))
}

// mib writes n bytes in MiB when it is a whole number of them.
func mib(n int) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// CountReader counts everything r yields with each of counters and
// returns the number of bytes read and one count per counter.
//
// When every counter is a built-in one ([Estimate], [O200kBase],
// [Cl100kBase]) or a [SafeChunker] that says so, the text is read in
// chunks cut at safe boundaries (see [SafeBoundary]) and counted in
// parallel, in memory bounded by a few chunks; the counts are exactly
// those of the whole text. A [LineChunker] that says so is streamed the
// same way over the stricter [LineBoundary]. Any other [Counter] gets the
// whole text at once, of at most MaxWhole bytes (a
// [*WholeTooLargeError] past it).
//
// It stops once ctx is done: it looks before each block it reads and
// inside the counting of each chunk (see [Counter]), and then
// returns ctx.Err() and no counts.
func CountReader(ctx context.Context, r io.Reader, counters []Counter, opt StreamOptions) (int64, []int, error) {
	if opt.ChunkSize <= 0 {
		opt.ChunkSize = 1 << 20
	}
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	if opt.MaxUnbroken == 0 {
		opt.MaxUnbroken = DefaultMaxUnbroken
	}
	if opt.MaxWhole == 0 {
		opt.MaxWhole = DefaultMaxWhole
	}
	tallies := make([]tally, len(counters))
	boundary := estimateBoundary // the estimate's boundaries, while only it counts
	lines := false               // a LineChunker counts: LineBoundary it is
	for i, c := range counters {
		if ch, ok := c.(chunker); ok {
			tallies[i] = ch.newTally()
			if _, est := c.(estimator); !est && !lines {
				boundary = SafeBoundary
			}
			continue
		}
		if sc, ok := c.(SafeChunker); ok && sc.SafeChunks() {
			tallies[i] = &sumTally{c: c}
			if !lines {
				boundary = SafeBoundary
			}
			continue
		}
		if lc, ok := c.(LineChunker); ok && lc.LineChunks() {
			tallies[i] = &sumTally{c: c}
			boundary, lines = LineBoundary, true
			continue
		}
		return countWhole(ctx, r, counters, c, opt.MaxWhole)
	}

	jobs := pool.NewFeed(opt.Workers, func(chunk string) {
		for _, t := range tallies {
			// A cancelled add leaves the rest of the chunks to be
			// drained unread: the result is ctx's error.
			if t.add(ctx, chunk) != nil {
				break
			}
		}
	})

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
			size := 2 * cap(pending)
			if opt.MaxUnbroken > 0 {
				// No more than the limit needs: past it the count fails.
				size = min(size, opt.MaxUnbroken+2*opt.ChunkSize)
			}
			grown := make([]byte, len(pending), max(size, len(pending)+n))
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
		b := boundary(pending[searchFrom:])
		if b == 0 && opt.MaxUnbroken > 0 && len(pending) > opt.MaxUnbroken {
			err = &UnbrokenError{Limit: opt.MaxUnbroken}
			break
		}
		if b > 0 {
			b += searchFrom
			// The chunk is handed over as it is, without a copy: pending
			// starts afresh with the bytes after the boundary, and the old
			// array is never written again.
			jobs.Send(unsafe.String(&pending[0], b))
			rest := pending[b:]
			pending = append(make([]byte, 0, max(2*len(buf), len(rest)+len(buf))), rest...)
		}
		searchFrom = max(0, len(pending)-2)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = nil
	}
	if err == nil && len(pending) > 0 {
		jobs.Send(unsafe.String(&pending[0], len(pending)))
		pending = nil
	}
	jobs.Close()
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

// WholeTooLargeError is [CountReader]'s error for a text longer than
// Limit bytes given to a counter that cannot count it in pieces (a
// tokenizer.json whose layout is neither a [SafeChunker] nor a
// [LineChunker]), which would have to hold it whole.
type WholeTooLargeError struct {
	Counter string // the counter's name
	Limit   int
}

func (e *WholeTooLargeError) Error() string {
	return fmt.Sprintf("more than %s of text for %s, which counts a text whole (its layout cannot be cut into pieces that add up), and at most %s is held",
		mib(e.Limit), e.Counter, mib(e.Limit))
}

// countWhole counts r read whole, held at most limit bytes (negative: no
// limit); whole is the counter that needs it, for the error.
func countWhole(ctx context.Context, r io.Reader, counters []Counter, whole Counter, limit int) (int64, []int, error) {
	var b bytes.Buffer
	src := r
	if limit > 0 {
		src = io.LimitReader(r, int64(limit)+1)
	}
	n, err := b.ReadFrom(src)
	if err != nil {
		return n, nil, err
	}
	if limit > 0 && n > int64(limit) {
		return n, nil, &WholeTooLargeError{Counter: whole.Name(), Limit: limit}
	}
	if err := ctx.Err(); err != nil {
		return n, nil, err // a counter of the caller's may not look at ctx
	}
	s := b.String()
	counts := make([]int, len(counters))
	for i, c := range counters {
		if counts[i], err = c.Count(ctx, s); err != nil {
			return n, nil, err
		}
	}
	return n, counts, nil
}
