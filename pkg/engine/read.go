package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/pool"
)

// ReadOptions tune how items are read.
type ReadOptions struct {
	// DefaultPriority is given to items without a priority (harpe's
	// default is 10). Zero makes such items always kept.
	DefaultPriority int
	// SkipInvalid skips bad lines and lists them (see
	// [ItemReader.Skipped]) instead of failing on the first one.
	SkipInvalid bool
	// Timestamp, when set, reads the "timestamp" strings that are not
	// RFC 3339, for a command that accepts more forms (harpe dates takes
	// every anchor format); its error becomes the line's message. Numbers
	// are always read by the one rule of [MillisFrom]. [ItemReader.Read]
	// parses lines on several goroutines, so Timestamp may be called from
	// several at once.
	Timestamp func(s string) (time.Time, error)
}

// Line is one input line as [ItemReader.ReadEach] hands it over.
type Line struct {
	// Name and No say where the line is: the input's name and its 1-based
	// line number there.
	Name string
	No   int
	// Raw is the line without its "\n" (a "\r" before it stays), and
	// without the byte order mark that begins an input (see BOM). It is
	// valid only during the call.
	Raw []byte
	// BOM is set on the first line of an input that began with a UTF-8
	// byte order mark (EF BB BF). The mark is not part of Raw, nor counted
	// in columns; a command that writes the input back writes it first.
	BOM bool
	// Item is the item the line holds, nil for a blank line (only white
	// space) and for a bad line skipped under SkipInvalid (then Err is
	// set). The item is the one [ItemReader.Items] keeps.
	Item *Item
	// Err is the line's error when it was skipped.
	Err *LineError
}

// bom is the UTF-8 byte order mark.
const bom = "\xef\xbb\xbf"

// ItemReader reads items JSONL from one or more inputs in a row, as if they
// were one stream: ids must be unique across all of them, and the default
// id of an item is "L<n>" where n counts lines across the inputs read so
// far, so reading a.jsonl then b.jsonl gives the ids that reading the two
// concatenated would. Messages name each input and its own line numbers.
type ItemReader struct {
	opts     ReadOptions
	items    []Item
	skipped  []Skipped
	ids      map[string]place
	lineBase int   // lines in the inputs read before
	read     int64 // bytes of the current input read so far, for reserve
	// arena holds the items' copies of their lines (Item.Raw), many to a
	// block, instead of one allocation each.
	arena []byte
}

// arenaBlock is the size of the blocks Item.Raw is cut from; a line longer
// than a sixteenth of it gets an allocation of its own, so at most about
// 6% of a block is left unused.
const arenaBlock = 256 << 10

// keep returns the item's own copy of line, never written again.
func (r *ItemReader) keep(line []byte) []byte {
	if len(line) > arenaBlock/16 {
		return bytes.Clone(line)
	}
	if cap(r.arena)-len(r.arena) < len(line) {
		r.arena = make([]byte, 0, arenaBlock)
	}
	n := len(r.arena)
	r.arena = append(r.arena, line...)
	return r.arena[n:len(r.arena):len(r.arena)]
}

// reserve grows the item slice once, early in a large file, to about the
// number of items the file holds (its size over the mean line so far), so
// that a 100,000-item file is not copied seventeen times as it grows; the
// id map likewise (it was rehashed as it grew: 5% of synthesize's time).
func (r *ItemReader) reserve(size, read int64, lines int) {
	if size <= read || lines == 0 {
		return
	}
	more := int(float64(size-read) / float64(read) * float64(lines) * 1.05)
	if more > cap(r.items)-len(r.items) {
		r.items = slices.Grow(r.items, more)
		ids := make(map[string]place, len(r.ids)+more)
		maps.Copy(ids, r.ids)
		r.ids = ids
	}
}

// place is where an id was first seen.
type place struct {
	name string
	line int
}

// NewItemReader returns a reader with no items yet.
func NewItemReader(opts ReadOptions) *ItemReader {
	return &ItemReader{opts: opts, ids: make(map[string]place)}
}

// Read reads every line of in, named name in messages. Blank lines are
// skipped. The first bad line stops it with a [*LineError], unless
// SkipInvalid is set; a read error is returned as it is, prefixed with the
// name. After an error the items read so far stay available, but the line
// count of later inputs is no longer that of one stream.
//
// The rules are the same for every command that reads items: a UTF-8 byte
// order mark at the start of an input is skipped; lines holding only
// white space are blank; the default id is "L<n>" counted over all inputs
// read; ids must be unique over all of them; numbers in "timestamp" follow
// [MillisFrom]; JSON syntax errors name the 1-based byte column in the
// line (after a byte order mark).
//
// Read stops once ctx is done, looking before every line, and then returns
// ctx.Err() (the items read so far stay available).
//
// Lines are parsed in batches on every processor while the next ones are
// read, and taken in input order, so the items, the skipped lines and
// the error are those of a line-by-line read; the input may be read a
// few batches past a bad line.
func (r *ItemReader) Read(ctx context.Context, in io.Reader, name string) error {
	return r.ReadEach(ctx, in, name, nil)
}

// ReadEach is [ItemReader.Read] that also calls fn, when not nil,
// for every line in input order, blank and skipped ones included, so that a
// command can write the input back with every other byte as it came in. An
// error from fn stops the read and is returned as it is.
func (r *ItemReader) ReadEach(ctx context.Context, in io.Reader, name string, fn func(Line) error) error {
	jr := jsonl.NewReader(in)
	jr.Name = name
	// The size of a regular file, for reserve; 0 when unknown.
	var size int64
	if st, ok := in.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	r.read = 0
	if fn == nil {
		return r.readBatches(ctx, jr, name, size)
	}
	var b lineBatch
	for {
		// One line at a time: fn sees each line as soon as it is read.
		end := r.fill(ctx, jr, name, &b, size, 1)
		if len(b.lines) == 1 {
			b.parse(&r.opts)
			if err := r.accept(name, &b, 0, fn); err != nil {
				return err
			}
		}
		if end != nil {
			return r.finish(end, jr)
		}
	}
}

// lineBatch is a run of input lines, read in order and then parsed on
// any processor (see readBatches).
type lineBatch struct {
	lines []batchLine
	items []Item       // parsed, one per line (blank lines: unused)
	errs  []*LineError // the lines' errors, nil when good or blank
	done  chan struct{}
}

// batchLine is one line of a lineBatch.
type batchLine struct {
	no    int
	raw   []byte // the line without a BOM: the item's own copy, or the reader's for a blank line
	bom   bool
	blank bool
}

// Batches hold at most batchLines lines or batchBytes bytes (the line that
// passes the limit included), and at most batchesAhead wait to be
// accepted while later ones are read and parsed.
const (
	batchLines   = 256
	batchBytes   = 512 << 10
	batchesAhead = 4
)

// parse parses the batch's non-blank lines.
func (b *lineBatch) parse(opts *ReadOptions) {
	b.items = slices.Grow(b.items[:0], len(b.lines))[:len(b.lines)]
	b.errs = slices.Grow(b.errs[:0], len(b.lines))[:len(b.lines)]
	for i, l := range b.lines {
		b.items[i], b.errs[i] = Item{}, nil
		if !l.blank {
			b.errs[i] = parseItem(l.raw, &b.items[i], opts, true)
		}
	}
}

// readBatches is ReadEach without fn: it reads lines in batches and parses
// each batch on a pool worker while the next ones are read, then accepts
// the batches in input order, so ids, duplicates, skipped lines and the
// first error are those of reading line by line. An input of one batch
// is parsed where it is read.
func (r *ItemReader) readBatches(ctx context.Context, jr *jsonl.Reader, name string, size int64) error {
	var (
		feed    *pool.Feed[*lineBatch]
		pending []*lineBatch
		free    []*lineBatch
	)
	defer func() {
		if feed != nil {
			feed.Close()
		}
	}()
	opts := &r.opts
	for {
		var b *lineBatch
		if n := len(free); n > 0 {
			b, free = free[n-1], free[:n-1]
		} else {
			b = &lineBatch{}
		}
		end := r.fill(ctx, jr, name, b, size, batchLines)
		if end != nil && feed == nil {
			b.parse(opts)
			pending = append(pending, b)
		} else {
			if feed == nil {
				feed = pool.NewFeed(0, func(b *lineBatch) {
					b.parse(opts)
					close(b.done)
				})
			}
			b.done = make(chan struct{})
			feed.Send(b)
			pending = append(pending, b)
		}
		for len(pending) > batchesAhead || (end != nil && len(pending) > 0) {
			first := pending[0]
			if first.done != nil {
				<-first.done
			}
			for i := range first.lines {
				if err := r.accept(name, first, i, nil); err != nil {
					return err
				}
			}
			pending = pending[1:]
			free = append(free, first)
		}
		if end != nil {
			return r.finish(end, jr)
		}
	}
}

// fill reads up to most lines into b (fewer at batchBytes), each non-blank
// one copied into the reader's blocks. It returns nil when more may follow,
// else why the input ends here: io.EOF, the read error prefixed with the
// name, or ctx's error (ctx is looked at before every line).
func (r *ItemReader) fill(ctx context.Context, jr *jsonl.Reader, name string, b *lineBatch, size int64, most int) error {
	b.lines = b.lines[:0]
	done := ctx.Done()
	held := 0
	for len(b.lines) < most && held < batchBytes {
		if done != nil {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
		}
		line, no, err := jr.Next()
		if err == io.EOF {
			return err
		}
		if jsonl.TooLong(err) != nil {
			return err // names the input and the line
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if size > 0 {
			if r.read += int64(len(line)) + 1; no == 256 {
				r.reserve(size, r.read, no)
			}
		}
		l := batchLine{no: no}
		if no == 1 && len(line) >= len(bom) && string(line[:len(bom)]) == bom {
			l.bom, line = true, line[len(bom):]
		}
		if l.blank = isBlank(line); l.blank {
			// Kept only when a fn is called with it, during this fill.
			l.raw = line
		} else {
			l.raw = r.keep(line)
		}
		held += len(line)
		b.lines = append(b.lines, l)
	}
	return nil
}

// finish ends a read that stopped for end (see fill): at io.EOF the
// input's lines count towards the next input's default ids.
func (r *ItemReader) finish(end error, jr *jsonl.Reader) error {
	if end == io.EOF {
		r.lineBase += jr.Lines()
		return nil
	}
	return end
}

// accept takes line i of the parsed batch b: it names an item without an
// id, checks the id is new, and keeps the item or, under SkipInvalid,
// lists the bad line; fn, when not nil, is called with the line.
func (r *ItemReader) accept(name string, b *lineBatch, i int, fn func(Line) error) error {
	l := &b.lines[i]
	if l.blank {
		if fn != nil {
			return fn(Line{Name: name, No: l.no, Raw: l.raw, BOM: l.bom})
		}
		return nil
	}
	it, lerr := &b.items[i], b.errs[i]
	if lerr == nil {
		if it.ID == "" {
			it.ID = "L" + strconv.Itoa(r.lineBase+l.no)
		}
		if first, dup := r.ids[it.ID]; dup {
			lerr = &LineError{Msg: fmt.Sprintf("duplicate id %q (first at %s:%d)", it.ID, first.name, first.line)}
		}
	}
	if lerr != nil {
		lerr.Name, lerr.Line = name, l.no
		if !r.opts.SkipInvalid {
			return lerr
		}
		r.skipped = append(r.skipped, Skipped{Line: l.no, Error: lerr.Error()})
		if fn != nil {
			return fn(Line{Name: name, No: l.no, Raw: l.raw, BOM: l.bom, Err: lerr})
		}
		return nil
	}
	r.ids[it.ID] = place{name, l.no}
	it.Line, it.File = l.no, name
	it.Raw = l.raw
	r.items = append(r.items, *it)
	if fn != nil {
		return fn(Line{Name: name, No: l.no, Raw: l.raw, BOM: l.bom, Item: &r.items[len(r.items)-1]})
	}
	return nil
}

// Items returns the items read so far, in input order.
func (r *ItemReader) Items() []Item { return r.items }

// Skipped returns the lines skipped so far (never nil).
func (r *ItemReader) Skipped() []Skipped {
	if r.skipped == nil {
		return []Skipped{}
	}
	return r.skipped
}

// ReadItems reads items JSONL from in, named name in messages ("items.jsonl",
// "stdin"). See [ItemReader] for several inputs.
func ReadItems(in io.Reader, name string, opts ReadOptions) ([]Item, []Skipped, error) {
	r := NewItemReader(opts)
	if err := r.Read(context.Background(), in, name); err != nil {
		return nil, nil, err
	}
	return r.Items(), r.Skipped(), nil
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}
