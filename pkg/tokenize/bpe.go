package tokenize

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
	"github.com/harpe-dev/harpe/pkg/tokenize/internal/merge"

	"github.com/harpe-dev/harpe/internal/cancel"
)

//go:generate go run ./internal/gen .

// The exact encodings. Their tables are not in this package: each lives in a
// subpackage that registers it when imported (or a caller loads its own,
// see [LoadEncoding]), so a build
// pays only for the encodings it links in.
var (
	// O200kBase is the encoding of GPT-4o, GPT-4.1, o1, o3, o4-mini and
	// GPT-5 models. Its table comes with package
	// github.com/harpe-dev/harpe/pkg/tokenize/o200k.
	O200kBase = &Encoding{name: "o200k_base", pkg: "o200k", next: nextO200k}
	// Cl100kBase is the encoding of GPT-4 and GPT-3.5-turbo. Its table
	// comes with package github.com/harpe-dev/harpe/pkg/tokenize/cl100k.
	Cl100kBase = &Encoding{name: "cl100k_base", pkg: "cl100k", next: nextCl100k}
)

// Encoding is an exact byte-pair encoding: it counts and encodes text as
// OpenAI's tiktoken does with encode_ordinary, so the text of special tokens
// such as "<|endoftext|>" is encoded as plain text.
//
// Invalid UTF-8 is read the way a Go string converts to []rune: every byte
// that does not begin a valid sequence stands for U+FFFD, and is encoded as
// the three bytes of U+FFFD. (tiktoken itself only ever sees valid text:
// Python and JavaScript strings are Unicode.)
//
// An Encoding is safe for concurrent use.
type Encoding struct {
	name string
	pkg  string // the subpackage that holds the table
	next func(s string, i int) int

	mu    sync.Mutex  // guards data and loading
	data  []byte      // the registered table; see internal/bpetable
	ready atomic.Bool // the fields below are set
	slots []byte      // the hash table: uint32 rank+1 per slot, 0 when empty
	mask  uint64      // slots-1
	toks  string      // every token's bytes in rank order
	offs  []uint32    // offs[r] is where token r starts in toks; offs[n] = len(toks)
}

// Name returns the encoding's name, such as "o200k_base".
func (e *Encoding) Name() string { return e.name }

// setup loads the registered table on first use. Using an encoding whose
// table was never registered is a programming error: it panics with the
// import that is missing. (Unlike a sync.Once, a failed first use does not
// stop a later registration from working.)
func (e *Encoding) setup() {
	if e.ready.Load() {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ready.Load() {
		return
	}
	if e.table() == nil {
		panic("tokenize: " + e.name + " has no table: import github.com/harpe-dev/harpe/pkg/tokenize/" + e.pkg + " or load a table with tokenize.LoadEncoding")
	}
	e.load()
	e.ready.Store(true)
}

// load reads the registered table (see package bpetable), which
// checkTable has passed, in place: nothing is copied or computed.
func (e *Encoding) load() {
	d := e.data
	h := d[len(bpetable.Magic):]
	n := int(binary.LittleEndian.Uint32(h))
	bits := binary.LittleEndian.Uint32(h[4:])
	d = d[bpetable.HeaderSize:]
	size := 4 << bits
	e.slots = d[:size]
	e.mask = uint64(1)<<bits - 1
	e.offs = uint32s(d[size : size+4*(n+1)])
	// Used in place, not copied (1-2 MB at every start): whoever gave
	// the table does not change it afterwards.
	if t := d[size+4*(n+1):]; len(t) > 0 {
		e.toks = unsafe.String(&t[0], len(t))
	}
}

// uint32s returns the little-endian uint32s of b: b itself when the
// machine is little endian and b is 4-byte aligned (an embedded or read
// table is), else a copy.
func uint32s(b []byte) []uint32 {
	n := len(b) / 4
	if n == 0 {
		return nil
	}
	if littleEndian && uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

// littleEndian is whether this machine stores integers little endian.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// rank returns the rank of the token whose bytes are b, or noRank.
func (e *Encoding) rank(b string) uint32 {
	h := bpetable.Hash(b) & e.mask
	for {
		v := binary.LittleEndian.Uint32(e.slots[4*h:])
		r := v - 1
		if r >= uint32(len(e.offs)-1) { // empty (v == 0), or corrupt
			return noRank
		}
		if e.toks[e.offs[r]:e.offs[r+1]] == b {
			return r
		}
		h = (h + 1) & e.mask
	}
}

const noRank = ^uint32(0)

// token returns the bytes of the token of rank r.
func (e *Encoding) token(r uint32) string { return e.toks[e.offs[r]:e.offs[r+1]] }

// count is Count that gives up, ok false, once done is closed (nil:
// never), looking every cancel.Every pieces and inside long merges.
func (e *Encoding) count(done <-chan struct{}, s string) (n int, ok bool) {
	e.setup()
	s = validUTF8(s)
	var m merge.Merger
	var starts []int32
	// Pieces that take several tokens are merged once per call: words
	// recur, and a map lookup is cheaper than a merge.
	var seen map[string]int
	steps := 0
	for i := 0; i < len(s); {
		if steps++; steps%cancel.Every == 0 && cancel.Stopped(done) {
			return 0, false
		}
		j := e.next(s, i)
		piece := s[i:j]
		i = j
		if len(piece) == 1 || e.rank(piece) != noRank {
			n++
			continue
		}
		if k, ok := seen[piece]; ok {
			n += k
			continue
		}
		var k int
		if len(piece) >= bigPiece {
			words := e.bigMerge(piece, done)
			if words == nil {
				return 0, false
			}
			k = merge.Count(words)
		} else {
			starts = e.merge(piece, &m, starts[:0])
			k = len(starts)
		}
		n += k
		if seen == nil {
			seen = make(map[string]int)
		}
		if len(seen) < maxSeen && len(piece) <= 64 {
			seen[piece] = k
		}
	}
	return n, true
}

// maxSeen bounds the merged pieces one Count call remembers.
const maxSeen = 1 << 14

// Encode returns the token ids (ranks) tiktoken's encode_ordinary gives
// for s.
func (e *Encoding) Encode(s string) []int {
	e.setup()
	s = validUTF8(s)
	var out []int
	var m merge.Merger
	var starts []int32
	for i := 0; i < len(s); {
		j := e.next(s, i)
		piece := s[i:j]
		i = j
		if r := e.rank(piece); r != noRank {
			out = append(out, int(r))
			continue
		}
		starts = e.merge(piece, &m, starts[:0])
		for k, from := range starts {
			to := len(piece)
			if k+1 < len(starts) {
				to = int(starts[k+1])
			}
			out = append(out, int(e.rank(piece[from:to])))
		}
	}
	return out
}

// Decode returns the bytes of the tokens ids; ids out of range are skipped.
func (e *Encoding) Decode(ids []int) string {
	e.setup()
	var b []byte
	for _, id := range ids {
		if id >= 0 && id < len(e.offs)-1 {
			b = append(b, e.token(uint32(id))...)
		}
	}
	return string(b)
}

// Pieces returns the pre-tokenizer's split of s: the pieces that the
// encoding's split pattern matches, each then encoded on its own.
func (e *Encoding) Pieces(s string) []string {
	s = validUTF8(s)
	var out []string
	for i := 0; i < len(s); {
		j := e.next(s, i)
		out = append(out, s[i:j])
		i = j
	}
	return out
}

// validUTF8 returns s with every byte that does not start a valid UTF-8
// sequence replaced by U+FFFD, as []rune(s) reads it.
func validUTF8(s string) string {
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return fixUTF8(s, i)
		}
		i += n
	}
	return s
}

func fixUTF8(s string, from int) string {
	b := make([]byte, 0, len(s)+len(s)/8+8)
	b = append(b, s[:from]...)
	for i := from; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// The merges. A piece that is not a token is merged by the shared core,
// package merge: a short piece by tiktoken's own linear scan, a longer one
// with a heap, and one of bigPiece bytes or more with a tree of one word
// per byte (see merge.Tree), which gives up when done is closed.

// heapMin is the piece length from which merges use a heap instead of
// tiktoken's linear scan for the lowest-ranked pair.
const heapMin = 256

// bigPiece is the piece length from which Count and Encode use merge.Tree.
const bigPiece = 1 << 16

// piecePairs asks the encoding about one piece: two tokens join when
// their bytes together are a token, and the pair's rank is that token's,
// which is also its id.
type piecePairs struct {
	e     *Encoding
	piece string
}

func (p piecePairs) Pair(i, _, k int) (rank, id uint32) {
	r := p.e.rank(p.piece[i:k])
	return r, r
}

func (piecePairs) Join(int, int, uint32) {}

// merge runs byte-pair merging on piece as tiktoken's _byte_pair_merge
// does: repeatedly join the adjacent pair whose joined bytes have the
// lowest rank, the leftmost on ties, until no adjacent pair is a token.
// It appends the starts of the tokens to starts.
func (e *Encoding) merge(piece string, m *merge.Merger, starts []int32) []int32 {
	p := piecePairs{e, piece}
	switch {
	case len(piece) >= bigPiece:
		for i, w := range e.bigMerge(piece, nil) {
			if merge.Len(w) > 0 {
				starts = append(starts, int32(i))
			}
		}
		return starts
	case len(piece) >= heapMin:
		return merge.Heap(m, p, len(piece), starts)
	default:
		return merge.Scan(m, p, len(piece), starts)
	}
}

// bigMerge merges piece with merge.Tree; it returns nil once done (nil:
// never) is closed.
func (e *Encoding) bigMerge(piece string, done <-chan struct{}) []uint32 {
	if len(e.offs)-2 > merge.MaxRank {
		panic("tokenize: " + e.name + " has too many tokens for merge.Tree")
	}
	return merge.Tree(piecePairs{e, piece}, len(piece), done)
}
