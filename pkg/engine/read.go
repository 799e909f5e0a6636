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
	// are always read by the one rule of [MillisFrom].
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
	lineBase int // lines in the inputs read before
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
func (r *ItemReader) Read(ctx context.Context, in io.Reader, name string) error {
	return r.ReadEach(ctx, in, name, nil)
}

// ReadEach is [ItemReader.Read] that also calls fn, when not nil,
// for every line in input order, blank and skipped ones included, so that a
// command can write the input back with every other byte as it came in. An
// error from fn stops the read and is returned as it is.
func (r *ItemReader) ReadEach(ctx context.Context, in io.Reader, name string, fn func(Line) error) error {
	jr := jsonl.NewReader(in)
	done := ctx.Done()
	// The size of a regular file, for reserve; 0 when unknown.
	var size, read int64
	if st, ok := in.(interface{ Stat() (os.FileInfo, error) }); ok {
		if fi, err := st.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
	}
	for {
		if done != nil {
			select {
			case <-done:
				return ctx.Err()
			default:
			}
		}
		line, no, err := jr.Next()
		if err == io.EOF {
			r.lineBase += no
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if size > 0 {
			if read += int64(len(line)) + 1; no == 256 {
				r.reserve(size, read, no)
			}
		}
		hasBOM := no == 1 && bytes.HasPrefix(line, []byte(bom))
		if hasBOM {
			line = line[len(bom):]
		}
		if isBlank(line) {
			if fn != nil {
				if err := fn(Line{Name: name, No: no, Raw: line, BOM: hasBOM}); err != nil {
					return err
				}
			}
			continue
		}
		var it Item
		// The item's own copy of the line is parsed, so that decoded strings
		// can share its memory (see parser.shared).
		raw := r.keep(line)
		lerr := parseItem(raw, &it, &r.opts, true)
		if lerr == nil {
			if it.ID == "" {
				it.ID = "L" + strconv.Itoa(r.lineBase+no)
			}
			if first, dup := r.ids[it.ID]; dup {
				lerr = &LineError{Msg: fmt.Sprintf("duplicate id %q (first at %s:%d)", it.ID, first.name, first.line)}
			}
		}
		if lerr != nil {
			lerr.Name, lerr.Line = name, no
			if !r.opts.SkipInvalid {
				return lerr
			}
			r.skipped = append(r.skipped, Skipped{Line: no, Error: lerr.Error()})
			if fn != nil {
				if err := fn(Line{Name: name, No: no, Raw: line, BOM: hasBOM, Err: lerr}); err != nil {
					return err
				}
			}
			continue
		}
		r.ids[it.ID] = place{name, no}
		it.Line = no
		it.Raw = raw
		r.items = append(r.items, it)
		if fn != nil {
			if err := fn(Line{Name: name, No: no, Raw: raw, BOM: hasBOM, Item: &r.items[len(r.items)-1]}); err != nil {
				return err
			}
		}
	}
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
