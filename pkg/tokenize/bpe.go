package tokenize

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"

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

// Count returns the number of tokens tiktoken's encode_ordinary gives for s.
func (e *Encoding) Count(s string) int {
	n, _ := e.count(nil, s, nil)
	return n
}

// count is Count that gives up with errf() once done is closed (nil: never),
// looking every cancel.Every pieces and inside long merges.
func (e *Encoding) count(done <-chan struct{}, s string, errf func() error) (int, error) {
	e.setup()
	s = validUTF8(s)
	n := 0
	var parts []part
	// Pieces that take several tokens are merged once per call: words
	// recur, and a map lookup is cheaper than a merge.
	var seen map[string]int
	steps := 0
	for i := 0; i < len(s); {
		if steps++; steps%cancel.Every == 0 && cancel.Stopped(done) {
			return 0, errf()
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
				return 0, errf()
			}
			k = countStarts(words)
		} else {
			k, parts = e.mergeCount(piece, parts)
		}
		n += k
		if seen == nil {
			seen = make(map[string]int)
		}
		if len(seen) < maxSeen && len(piece) <= 64 {
			seen[piece] = k
		}
	}
	return n, nil
}

// maxSeen bounds the merged pieces one Count call remembers.
const maxSeen = 1 << 14

// Encode returns the token ids (ranks) tiktoken's encode_ordinary gives
// for s.
func (e *Encoding) Encode(s string) []int {
	e.setup()
	s = validUTF8(s)
	var out []int
	var parts []part
	for i := 0; i < len(s); {
		j := e.next(s, i)
		piece := s[i:j]
		i = j
		if r := e.rank(piece); r != noRank {
			out = append(out, int(r))
			continue
		}
		parts = e.merge(piece, parts)
		for k := 0; k+1 < len(parts); k++ {
			out = append(out, int(e.rank(piece[parts[k].start:parts[k+1].start])))
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

// part is a boundary in a piece being merged: the start of a current token
// and the rank of the pair that starts there.
type part struct {
	start int
	rank  uint32
}

// heapMin is the piece length from which merges use a heap instead of
// tiktoken's linear scan for the lowest-ranked pair.
const heapMin = 256

// mergeCount returns how many tokens piece becomes.
func (e *Encoding) mergeCount(piece string, buf []part) (int, []part) {
	if len(piece) >= bigPiece {
		return e.bigMergeCount(piece), buf
	}
	if len(piece) >= heapMin {
		return e.heapMerge(piece), buf
	}
	buf = e.merge(piece, buf)
	return len(buf) - 1, buf
}

// merge runs byte-pair merging on piece as tiktoken's _byte_pair_merge
// does: repeatedly join the adjacent pair whose joined bytes have the lowest
// rank, the leftmost on ties, until no adjacent pair is a token. It returns
// the token boundaries (with a final entry at len(piece)).
func (e *Encoding) merge(piece string, parts []part) []part {
	if len(piece) >= bigPiece {
		return e.bigMergeParts(piece, parts)
	}
	if len(piece) >= heapMin {
		return e.heapMergeParts(piece, parts)
	}
	parts = parts[:0]
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, part{i, noRank})
	}
	for i := 0; i+2 <= len(piece); i++ {
		parts[i].rank = e.rank(piece[i : i+2])
	}
	pairRank := func(i int) uint32 {
		if i+3 < len(parts) {
			return e.rank(piece[parts[i].start:parts[i+3].start])
		}
		return noRank
	}
	for len(parts) > 2 {
		minRank, at := noRank, -1
		for i := 0; i+1 < len(parts)-1; i++ {
			if parts[i].rank < minRank {
				minRank, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		parts[at].rank = pairRank(at)
		if at > 0 {
			parts[at-1].rank = pairRank(at - 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return parts
}

// The heap merge gives the same result as merge in O(n log n): every
// current pair sits in a min-heap ordered by (rank, start), entries made
// stale by a merge are skipped when popped.
type node struct {
	prev, next int32  // indices of neighbouring boundaries, -1 at the ends
	rank       uint32 // rank of the pair starting here (noRank if none)
	alive      bool
}

type entry struct {
	rank  uint32
	start int32
}

// entryHeap is a binary min-heap of entries ordered by (rank, start),
// written out for the one element type to avoid container/heap's boxing.
type entryHeap []entry

func (h entryHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].start < h[j].start
}

func (h *entryHeap) push(x entry) {
	*h = append(*h, x)
	q := *h
	for i := len(q) - 1; i > 0; {
		p := (i - 1) / 2
		if !q.less(i, p) {
			break
		}
		q[i], q[p] = q[p], q[i]
		i = p
	}
}

func (h *entryHeap) pop() entry {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	q = q[:last]
	*h = q
	q.down(0)
	return top
}

func (h entryHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func (h entryHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

// heapNodes merges piece and returns the surviving boundaries as a linked
// list over byte positions (nodes[i] describes the boundary at byte i; the
// end boundary is len(piece)).
func (e *Encoding) heapNodes(piece string) []node {
	n := len(piece) // < 2 GiB: a string that long is not split this far
	nodes := make([]node, n+1)
	for i := range nodes {
		nodes[i] = node{prev: int32(i - 1), next: int32(i + 1), rank: noRank, alive: true}
	}
	nodes[n].next = -1
	h := make(entryHeap, 0, n)
	for i := 0; i+2 <= n; i++ {
		if r := e.rank(piece[i : i+2]); r != noRank {
			nodes[i].rank = r
			h = append(h, entry{r, int32(i)})
		}
	}
	h.init()
	// pairRank is the rank of the bytes from boundary i to the boundary two
	// after it.
	pairRank := func(i int32) uint32 {
		j := nodes[i].next
		if j < 0 {
			return noRank
		}
		k := nodes[j].next
		if k < 0 {
			return noRank
		}
		return e.rank(piece[i:k])
	}
	for len(h) > 0 {
		top := h.pop()
		nd := &nodes[top.start]
		if !nd.alive || nd.rank != top.rank {
			continue // stale
		}
		// Join the token at top.start with the next one.
		mid := nd.next
		nodes[mid].alive = false
		after := nodes[mid].next
		nd.next = after
		if after >= 0 {
			nodes[after].prev = top.start
		}
		nd.rank = pairRank(top.start)
		if nd.rank != noRank {
			h.push(entry{nd.rank, top.start})
		}
		if p := nd.prev; p >= 0 {
			nodes[p].rank = pairRank(p)
			if nodes[p].rank != noRank {
				h.push(entry{nodes[p].rank, p})
			}
		}
	}
	return nodes
}

func (e *Encoding) heapMerge(piece string) int {
	nodes := e.heapNodes(piece)
	k := 0
	for i := int32(0); i >= 0 && int(i) < len(piece); i = nodes[i].next {
		k++
	}
	return k
}

func (e *Encoding) heapMergeParts(piece string, parts []part) []part {
	nodes := e.heapNodes(piece)
	parts = parts[:0]
	for i := int32(0); i >= 0; i = nodes[i].next {
		parts = append(parts, part{int(i), noRank})
	}
	return parts
}
