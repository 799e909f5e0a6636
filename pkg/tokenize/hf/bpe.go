package hf

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"
)

// bpe is tokenizers' BPE model: each piece starts as its characters (with
// the continuing-subword prefix on all but the first and the end-of-word
// suffix on the last), characters not in the vocabulary become their
// <0xXX> byte tokens (byte_fallback) or the unknown token, and then the
// adjacent pair whose merge comes first in the merges list is joined,
// the leftmost on ties, until no pair has a merge.
type bpe struct {
	vocab        map[string]int32
	merges       map[uint64]merge // left id<<32 | right id
	unk          int32            // -1: none
	fuseUnk      bool
	byteFallback bool
	ignoreMerges bool
	prefix       string
	suffix       string
	byteFB       [256]int32 // ids of <0x00>…<0xFF>, -1 where missing
	maxLen       int        // the longest token, in characters

	// For pieces of raw bytes (after a ByteLevel pre-tokenizer): the id of
	// each byte's character.
	byteIDs   [256]int32
	fastBytes bool // every byte has an id and there is no prefix or suffix
}

type merge struct {
	rank, id int32
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

func parseBPE(m *modelJSON, byteLevel bool) (*bpe, error) {
	if m.Dropout != nil && *m.Dropout != 0 {
		return nil, fmt.Errorf("model BPE: dropout %g makes counts random; harpe counts only without dropout", *m.Dropout)
	}
	b := &bpe{unk: -1, fuseUnk: m.FuseUnk, byteFallback: m.ByteFallback, ignoreMerges: m.IgnoreMerges}
	if m.ContinuingSubwordPrefix != nil {
		b.prefix = *m.ContinuingSubwordPrefix
	}
	if m.EndOfWordSuffix != nil {
		b.suffix = *m.EndOfWordSuffix
	}
	var err error
	if b.vocab, err = parseVocab(m.Vocab); err != nil {
		return nil, fmt.Errorf("model BPE: vocab: %v", err)
	}
	for tok := range b.vocab {
		b.maxLen = max(b.maxLen, utf8.RuneCountInString(tok))
	}
	if m.UnkToken != nil {
		id, ok := b.vocab[*m.UnkToken]
		if !ok {
			return nil, fmt.Errorf("model BPE: unk_token %q is not in the vocabulary", *m.UnkToken)
		}
		b.unk = id
	}
	for c := range 256 {
		b.byteFB[c] = -1
		if id, ok := b.vocab[fmt.Sprintf("<0x%02X>", c)]; ok {
			b.byteFB[c] = id
		}
	}
	if err := b.parseMerges(m.Merges); err != nil {
		return nil, fmt.Errorf("model BPE: merges: %v", err)
	}
	if byteLevel {
		b.fastBytes = b.prefix == "" && b.suffix == ""
		for c := range 256 {
			id, ok := b.vocab[byteChars[c]]
			if !ok {
				id, b.fastBytes = -1, false
			}
			b.byteIDs[c] = id
		}
	}
	return b, nil
}

// parseMerges reads the merges as "a b" strings or as ["a", "b"] pairs.
// Looking the tokens up is most of the load time, so it is shared out
// among the processors; the map is then filled in order.
func (b *bpe) parseMerges(text string) error {
	if text == "" || text == "null" {
		b.merges = map[uint64]merge{}
		return nil
	}
	var pairs [][2]string
	p := &scan{s: text}
	err := p.list(func() error {
		var l, r string
		var err error
		if p.peek() == '"' {
			var line string
			if line, err = p.str(); err != nil {
				return err
			}
			var ok bool
			if l, r, ok = strings.Cut(line, " "); !ok || strings.Contains(r, " ") {
				return fmt.Errorf("merge %d %q is not two tokens separated by a space", len(pairs), line)
			}
		} else {
			n := 0
			err = p.list(func() error {
				s, err := p.str()
				if n == 0 {
					l = s
				} else {
					r = s
				}
				n++
				return err
			})
			if err == nil && n != 2 {
				err = fmt.Errorf("merge %d has %d tokens, want 2", len(pairs), n)
			}
		}
		pairs = append(pairs, [2]string{l, r})
		return err
	})
	if err != nil {
		return err
	}
	type entry struct {
		key uint64
		m   merge
	}
	entries := make([]entry, len(pairs))
	workers := min(runtime.GOMAXPROCS(0), 4, 1+len(pairs)/50000)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := w * len(pairs) / workers; i < (w+1)*len(pairs)/workers; i++ {
				l, r := pairs[i][0], pairs[i][1]
				a, ok1 := b.vocab[l]
				c, ok2 := b.vocab[r]
				if !ok1 || !ok2 {
					errs[w] = fmt.Errorf("merge %d (%q %q): a token is not in the vocabulary", i, l, r)
					return
				}
				buf = append(append(buf[:0], l...), strings.TrimPrefix(r, b.prefix)...)
				id, ok := b.vocab[string(buf)]
				if !ok {
					errs[w] = fmt.Errorf("merge %d (%q %q): %q is not in the vocabulary", i, l, r, buf)
					return
				}
				entries[i] = entry{pairKey(a, c), merge{int32(i), id}}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	b.merges = make(map[uint64]merge, len(entries))
	for _, e := range entries {
		// A pair listed twice keeps its last rank, as in tokenizers.
		b.merges[e.key] = e.m
	}
	return nil
}

// sym is a token of a piece being merged; n is its length in bytes, 0
// once it has been merged into its left neighbour.
type sym struct {
	id         int32
	n          int32
	prev, next int32
}

type heapEntry struct {
	rank, pos, id int32
}

// scratch holds the buffers one count reuses.
type scratch struct {
	syms  []sym
	heap  []heapEntry
	best  []bestNode // Unigram
	buf   []byte
	first []int32
}

// first returns the ids of the piece's symbols before merging.
func (b *bpe) first(s string, raw bool, ids []int32) []int32 {
	if raw && b.fastBytes {
		for i := 0; i < len(s); i++ {
			ids = append(ids, b.byteIDs[s[i]])
		}
		return ids
	}
	if raw {
		s = toByteChars(s)
	}
	return b.chars(s, ids)
}

// tokens merges the piece's symbols and returns them; those with n > 0
// are the tokens, in order.
func (b *bpe) tokens(first []int32, sc *scratch) []sym {
	syms := sc.syms[:0]
	for i, id := range first {
		syms = append(syms, sym{id: id, n: 1, prev: int32(i - 1), next: int32(i + 1)})
	}
	if len(syms) > 0 {
		syms[len(syms)-1].next = -1
	}
	h := sc.heap[:0]
	for i := 0; i+1 < len(syms); i++ {
		if mv, ok := b.merges[pairKey(syms[i].id, syms[i+1].id)]; ok {
			h = append(h, heapEntry{mv.rank, int32(i), mv.id})
		}
	}
	heapInit(h)
	for len(h) > 0 {
		var top heapEntry
		top, h = heapPop(h)
		a := &syms[top.pos]
		if a.n == 0 || a.next < 0 {
			continue
		}
		nb := a.next
		c := &syms[nb]
		if mv, ok := b.merges[pairKey(a.id, c.id)]; !ok || mv.id != top.id {
			continue // stale
		}
		a.id = top.id
		a.n += c.n
		c.n = 0
		a.next = c.next
		if a.next >= 0 {
			syms[a.next].prev = top.pos
		}
		if a.prev >= 0 {
			if mv, ok := b.merges[pairKey(syms[a.prev].id, a.id)]; ok {
				h = heapPush(h, heapEntry{mv.rank, a.prev, mv.id})
			}
		}
		if a.next >= 0 {
			if mv, ok := b.merges[pairKey(a.id, syms[a.next].id)]; ok {
				h = heapPush(h, heapEntry{mv.rank, top.pos, mv.id})
			}
		}
	}
	sc.syms, sc.heap = syms, h
	return syms
}

// chars is tokenizers' merge_word before merging: the first symbols of a
// piece of characters.
func (b *bpe) chars(w string, syms []int32) []int32 {
	unkID, unkLen := int32(-1), 0
	for i := 0; i < len(w); {
		_, size := utf8.DecodeRuneInString(w[i:])
		end := i + size
		s := w[i:end]
		if i > 0 && b.prefix != "" {
			s = b.prefix + s
		}
		if end == len(w) && b.suffix != "" {
			s += b.suffix
		}
		i = end
		if id, ok := b.vocab[s]; ok {
			if unkID >= 0 {
				syms = append(syms, unkID)
				unkID = -1
			}
			syms = append(syms, id)
			continue
		}
		if b.byteFallback {
			ok := true
			for k := 0; k < len(s) && ok; k++ {
				ok = b.byteFB[s[k]] >= 0
			}
			if ok {
				// (tokenizers does not add a pending unknown token here.)
				for k := 0; k < len(s); k++ {
					syms = append(syms, b.byteFB[s[k]])
				}
				continue
			}
		}
		if b.unk >= 0 {
			switch {
			case unkID >= 0 && b.fuseUnk:
				unkLen += size
			case unkID >= 0:
				syms = append(syms, unkID)
				unkID, unkLen = b.unk, size
			default:
				unkID, unkLen = b.unk, size
			}
		}
		// Without an unknown token the character is dropped, as
		// tokenizers drops it.
	}
	if unkID >= 0 {
		syms = append(syms, unkID)
	}
	return syms
}

// count returns the number of tokens of a piece (raw: a piece of bytes
// after ByteLevel), and appends their ids to ids when it is not nil.
func (b *bpe) count(s string, raw bool, sc *scratch, ids *[]int) int {
	if s == "" {
		return 0
	}
	if b.ignoreMerges {
		key := s
		if raw {
			sc.buf = sc.buf[:0]
			for i := 0; i < len(s); i++ {
				sc.buf = append(sc.buf, byteChars[s[i]]...)
			}
			key = unsafe.String(unsafe.SliceData(sc.buf), len(sc.buf))
		}
		if id, ok := b.vocab[key]; ok {
			if ids != nil {
				*ids = append(*ids, int(id))
			}
			return 1
		}
	}
	sc.first = b.first(s, raw, sc.first[:0])
	if len(sc.first) >= bigPiece && b.maxLen <= 255 {
		return b.bigMerge(sc.first, ids)
	}
	n := 0
	for _, y := range b.tokens(sc.first, sc) {
		if y.n > 0 {
			n++
			if ids != nil {
				*ids = append(*ids, int(y.id))
			}
		}
	}
	return n
}

func heapLess(a, b heapEntry) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.pos < b.pos
}

func heapInit(h []heapEntry) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		heapDown(h, i)
	}
}

func heapDown(h []heapEntry, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && heapLess(h[r], h[l]) {
			m = r
		}
		if !heapLess(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func heapPush(h []heapEntry, x heapEntry) []heapEntry {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !heapLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

func heapPop(h []heapEntry) (heapEntry, []heapEntry) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	heapDown(h, 0)
	return top, h
}

// byteChars is GPT-2's mapping of bytes to printable characters, which
// ByteLevel applies: printable Latin-1 bytes stand for themselves, the
// others for U+0100 on.
var byteChars = func() (bc [256]string) {
	n := 0
	for c := range 256 {
		r := rune(c)
		if !('!' <= c && c <= '~' || 0xA1 <= c && c <= 0xAC || 0xAE <= c && c <= 0xFF) {
			r = rune(256 + n)
			n++
		}
		bc[c] = string(r)
	}
	return bc
}()

func toByteChars(s string) string {
	var b strings.Builder
	b.Grow(2 * len(s))
	for i := 0; i < len(s); i++ {
		b.WriteString(byteChars[s[i]])
	}
	return b.String()
}

// parseVocab reads a {"token": id, …} object.
func parseVocab(text string) (map[string]int32, error) {
	v := make(map[string]int32, len(text)/16)
	p := &scan{s: text}
	err := p.object(func(k string) error {
		id, err := p.int()
		if err != nil {
			return err
		}
		if id < 0 || id > 1<<31-1 {
			return fmt.Errorf("token %q: id %d out of range", k, id)
		}
		v[k] = int32(id)
		return nil
	})
	return v, err
}
