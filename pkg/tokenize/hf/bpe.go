package hf

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/merge"
)

// bpe is tokenizers' BPE model: each piece starts as its characters (with
// the continuing-subword prefix on all but the first and the end-of-word
// suffix on the last), characters not in the vocabulary become their
// <0xXX> byte tokens (byte_fallback) or the unknown token, and then the
// adjacent pair whose merge comes first in the merges list is joined,
// the leftmost on ties, until no pair has a merge.
type bpe struct {
	vocab        map[string]int32
	merges       map[uint64]rule // left id<<32 | right id
	unk          int32           // -1: none
	fuseUnk      bool
	byteFallback bool
	ignoreMerges bool
	prefix       string
	suffix       string
	byteFB       [256]int32 // ids of <0x00>…<0xFF>, -1 where missing
	maxLen       int        // the longest token, in characters
	rankID       []int32    // the id each merge makes, by rank
	// tree: merge.Tree can merge long pieces (no token is longer than
	// merge.MaxLen characters, so none covers more symbols, and the
	// ranks fit).
	tree bool

	// For pieces of raw bytes (after a ByteLevel pre-tokenizer): the id of
	// each byte's character.
	byteIDs   [256]int32
	fastBytes bool // every byte has an id and there is no prefix or suffix
}

// rule is a line of the merges list: its rank (the line's number) and
// the id of the token it makes.
type rule struct {
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
	b.tree = b.maxLen <= merge.MaxLen && len(b.rankID) <= merge.MaxRank+1
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
		b.merges = map[uint64]rule{}
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
		m   rule
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
				entries[i] = entry{pairKey(a, c), rule{int32(i), id}}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	b.merges = make(map[uint64]rule, len(entries))
	b.rankID = make([]int32, len(entries))
	for i, e := range entries {
		b.rankID[i] = e.m.id
		// A pair listed twice keeps its last rank, as in tokenizers.
		b.merges[e.key] = e.m
	}
	return nil
}

// scratch holds the buffers one count reuses.
type scratch struct {
	merger merge.Merger
	starts []int32
	best   []bestNode // Unigram
	buf    []byte
	first  []int32
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

// bigPiece is the number of symbols from which a piece is merged by
// merge.Tree (when b.tree allows it) instead of merge.Heap.
const bigPiece = 1 << 16

// bpePairs asks the model about a piece whose tokens' ids are in ids, each
// at the token's first symbol: two tokens join when the merges list has
// their pair, and Join puts the id of the token they make in place.
type bpePairs struct {
	b   *bpe
	ids []int32
}

func (p bpePairs) Pair(i, j, _ int) (rank, id uint32) {
	mv, ok := p.b.merges[pairKey(p.ids[i], p.ids[j])]
	if !ok {
		return merge.None, 0
	}
	return uint32(mv.rank), uint32(mv.id)
}

func (p bpePairs) Join(i, _ int, rank uint32) { p.ids[i] = p.b.rankID[rank] }

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
	first := b.first(s, raw, sc.first[:0])
	sc.first = first
	// The tokens' ids end up in first, at each token's first symbol.
	p := bpePairs{b, first}
	if len(first) >= bigPiece && b.tree {
		n := 0
		for i, w := range merge.Tree(p, len(first), nil) {
			if merge.Len(w) > 0 {
				n++
				if ids != nil {
					*ids = append(*ids, int(first[i]))
				}
			}
		}
		return n
	}
	sc.starts = merge.Heap(&sc.merger, p, len(first), sc.starts[:0])
	if ids != nil {
		for _, i := range sc.starts {
			*ids = append(*ids, int(first[i]))
		}
	}
	return len(sc.starts)
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
