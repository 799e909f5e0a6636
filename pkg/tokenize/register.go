package tokenize

import (
	"encoding/binary"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
)

// encodings are the exact encodings by name: a fixed list. Their tables
// are filed at init by the subpackages that embed them (see
// bpetable.Embed); nothing adds to the list or changes a table later.
var encodings = []*Encoding{O200kBase, Cl100kBase}

// LoadEncoding returns the exact encoding called name ("o200k_base" or
// "cl100k_base") reading table, in the layout that go generate writes,
// for a program that gets the table some other way than importing
// github.com/harpe-dev/harpe/pkg/tokenize/o200k or .../cl100k (the
// browser playground fetches it on demand). The encoding returned is the
// caller's own: [New], [O200kBase] and [Cl100kBase] do not change. The
// table is checked whole and then used in place: the caller must not
// change it afterwards. Unknown names and tables that are not well formed
// are errors.
func LoadEncoding(name string, table []byte) (*Encoding, error) {
	for _, c := range encodings {
		if c.name != name {
			continue
		}
		if err := checkTable(table); err != nil {
			return nil, fmt.Errorf("tokenize: %s: %v", name, err)
		}
		return &Encoding{name: c.name, pkg: c.pkg, next: c.next, data: table}, nil
	}
	return nil, fmt.Errorf("tokenize: no exact encoding %q", name)
}

// Registered reports whether the encoding has a table (the one its
// subpackage embeds, when imported, or the one [LoadEncoding] read), so
// that Count, Encode and Decode can be used.
func (e *Encoding) Registered() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.table() != nil
}

// table returns the encoding's table, taking the one an imported
// subpackage embeds (see bpetable.Embed) the first time it is asked for:
// that table is checked here, on first use, rather than at start-up.
// e.mu must be held.
func (e *Encoding) table() []byte {
	if e.data == nil {
		if t := bpetable.Embedded(e.name); t != nil {
			if err := checkTable(t); err != nil {
				panic(fmt.Sprintf("tokenize: embedded %s table: %v", e.name, err))
			}
			e.data = t
		}
	}
	return e.data
}

// checkTable checks a table's header and that its sizes add up, so that
// load cannot fail on it, and that the hash table has an empty slot, so
// that a probe ends. The slots are not otherwise scanned (that would cost
// every process that imports a table 0.4 ms at start): rank treats a slot
// that holds no valid rank as empty.
func checkTable(d []byte) error {
	if len(d) < bpetable.HeaderSize || string(d[:len(bpetable.Magic)]) != bpetable.Magic {
		return fmt.Errorf("not a table (bad header)")
	}
	h := d[len(bpetable.Magic):]
	n := uint64(binary.LittleEndian.Uint32(h))
	bits := binary.LittleEndian.Uint32(h[4:])
	if bits == 0 || bits > 30 {
		return fmt.Errorf("bad hash table size 2^%d", bits)
	}
	d = d[bpetable.HeaderSize:]
	size := uint64(4) << bits
	if n == 0 || n >= 1<<bits || uint64(len(d)) < size+4*(n+1) {
		return fmt.Errorf("truncated: %d tokens and 2^%d slots need more than %d bytes", n, bits, len(d))
	}
	// Probing ends at an empty slot; one anywhere is enough, as probes wrap
	// around. (A real table is 38% full: the first slots already do.)
	empty := false
	for i := uint64(0); i < size && !empty; i += 4 {
		v := uint64(binary.LittleEndian.Uint32(d[i:]))
		empty = v == 0 || v > n // rank treats both as empty
	}
	if !empty {
		return fmt.Errorf("the hash table has no empty slot")
	}
	// The offsets start at 0 and grow by at most 255 a token (bigMerge
	// keeps a token's length in a byte); the last is the tokens' size.
	offs := d[size : size+4*(n+1)]
	prev := uint64(0)
	for i := uint64(0); i <= n; i++ {
		off := uint64(binary.LittleEndian.Uint32(offs[4*i:]))
		if (i == 0 && off != 0) || off < prev || off-prev > 255 {
			return fmt.Errorf("bad offset %d of token %d", off, i)
		}
		prev = off
	}
	if uint64(len(d)) != size+4*(n+1)+prev {
		return fmt.Errorf("size %d, want %d", len(d)+bpetable.HeaderSize, size+4*(n+1)+prev+uint64(bpetable.HeaderSize))
	}
	return nil
}
