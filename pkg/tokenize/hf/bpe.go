package hf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
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

	// For pieces of raw bytes (after a ByteLevel pre-tokenizer): the id of
	// each byte's character, and the vocabulary keyed by raw bytes.
	byteIDs   [256]int32
	fastBytes bool // every byte has an id and there is no prefix or suffix
	rawVocab  map[string]int32
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
		if b.ignoreMerges {
			b.rawVocab = make(map[string]int32, len(b.vocab))
			for tok, id := range b.vocab {
				if raw, ok := fromByteChars(tok); ok {
					b.rawVocab[raw] = id
				}
			}
		}
	}
	return b, nil
}

// parseMerges reads the merges as "a b" strings or as ["a", "b"] pairs.
func (b *bpe) parseMerges(r json.RawMessage) error {
	r = bytes.TrimSpace(r)
	var pairs [][2]string
	if isNull(r) {
		// no merges
	} else if k := bytes.IndexAny(r[1:], "\"["); k >= 0 && r[1+k] == '"' {
		var lines []string
		if err := json.Unmarshal(r, &lines); err != nil {
			return err
		}
		pairs = make([][2]string, len(lines))
		for i, l := range lines {
			a, c, ok := strings.Cut(l, " ")
			if !ok || strings.Contains(c, " ") {
				return fmt.Errorf("merge %d %q is not two tokens separated by a space", i, l)
			}
			pairs[i] = [2]string{a, c}
		}
	} else if err := json.Unmarshal(r, &pairs); err != nil {
		return err
	}
	b.merges = make(map[uint64]merge, len(pairs))
	for i, p := range pairs {
		a, ok1 := b.vocab[p[0]]
		c, ok2 := b.vocab[p[1]]
		if !ok1 || !ok2 {
			return fmt.Errorf("merge %d (%q %q): a token is not in the vocabulary", i, p[0], p[1])
		}
		joined := p[0] + strings.TrimPrefix(p[1], b.prefix)
		id, ok := b.vocab[joined]
		if !ok {
			return fmt.Errorf("merge %d (%q %q): %q is not in the vocabulary", i, p[0], p[1], joined)
		}
		// A pair listed twice keeps its last rank, as in tokenizers.
		b.merges[pairKey(a, c)] = merge{int32(i), id}
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
	syms []sym
	heap []heapEntry
	best []bestNode // Unigram
}

// tokens merges the piece and returns its symbols; those with n > 0 are
// the tokens, in order.
func (b *bpe) tokens(s string, raw bool, sc *scratch) []sym {
	syms := sc.syms[:0]
	if raw && b.fastBytes {
		for i := 0; i < len(s); i++ {
			syms = append(syms, sym{id: b.byteIDs[s[i]], n: 1})
		}
	} else {
		if raw {
			s = toByteChars(s)
		}
		syms = b.chars(s, syms)
	}
	for i := range syms {
		syms[i].prev, syms[i].next = int32(i-1), int32(i+1)
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
func (b *bpe) chars(w string, syms []sym) []sym {
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
				syms = append(syms, sym{id: unkID, n: int32(unkLen)})
				unkID = -1
			}
			syms = append(syms, sym{id: id, n: int32(size)})
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
					syms = append(syms, sym{id: b.byteFB[s[k]], n: 1})
				}
				continue
			}
		}
		if b.unk >= 0 {
			switch {
			case unkID >= 0 && b.fuseUnk:
				unkLen += size
			case unkID >= 0:
				syms = append(syms, sym{id: unkID, n: int32(unkLen)})
				unkID, unkLen = b.unk, size
			default:
				unkID, unkLen = b.unk, size
			}
		}
		// Without an unknown token the character is dropped, as
		// tokenizers drops it.
	}
	if unkID >= 0 {
		syms = append(syms, sym{id: unkID, n: int32(unkLen)})
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
		v := b.vocab
		if raw {
			v = b.rawVocab
		}
		if id, ok := v[s]; ok && (v != nil) {
			if ids != nil {
				*ids = append(*ids, int(id))
			}
			return 1
		}
	}
	n := 0
	for _, y := range b.tokens(s, raw, sc) {
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
var byteChars, charBytes = func() (bc [256]string, cb map[rune]byte) {
	cb = make(map[rune]byte, 256)
	n := 0
	for c := range 256 {
		r := rune(c)
		if !('!' <= c && c <= '~' || 0xA1 <= c && c <= 0xAC || 0xAE <= c && c <= 0xFF) {
			r = rune(256 + n)
			n++
		}
		bc[c] = string(r)
		cb[r] = byte(c)
	}
	return bc, cb
}()

func toByteChars(s string) string {
	var b strings.Builder
	b.Grow(2 * len(s))
	for i := 0; i < len(s); i++ {
		b.WriteString(byteChars[s[i]])
	}
	return b.String()
}

// fromByteChars returns the bytes a string of ByteLevel characters stands
// for, or false when it has another character.
func fromByteChars(s string) (string, bool) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		c, ok := charBytes[r]
		if !ok {
			return "", false
		}
		b = append(b, c)
	}
	return string(b), true
}

// parseVocab reads a {"token": id, …} object.
func parseVocab(r json.RawMessage) (map[string]int32, error) {
	var v map[string]int32
	if err := json.Unmarshal(r, &v); err != nil {
		return nil, err
	}
	return v, nil
}
