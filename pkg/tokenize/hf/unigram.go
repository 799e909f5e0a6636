package hf

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// unigram is tokenizers' Unigram model: the split of a piece into
// vocabulary entries with the highest total score (Viterbi, over byte
// positions, entries tried shortest first, the first of equal scores
// kept), a character that no entry starts with scoring the lowest score
// minus 10 as the unknown token. Adjacent unknown characters are one
// unknown token; with byte_fallback an unknown stretch becomes its
// <0xXX> byte tokens instead, when all of them exist.
type unigram struct {
	scores       []float64
	t            *trie
	unk          int32
	unkScore     float64
	byteFallback bool
	byteFB       [256]int32
}

type bestNode struct {
	score float64
	start int32 // -1: not reached
	id    int32
}

func parseUnigram(m *modelJSON, byteLevel bool) (*unigram, error) {
	if byteLevel {
		return nil, fmt.Errorf("model Unigram after a ByteLevel pre-tokenizer is not supported")
	}
	u := &unigram{t: newTrie(), unk: -1, byteFallback: m.ByteFallback}
	minScore := math.Inf(1)
	ids := make(map[string]int32)
	p := &scan{s: m.Vocab}
	err := p.list(func() error {
		var piece string
		n := 0
		err := p.list(func() error {
			defer func() { n++ }()
			switch n {
			case 0:
				var err error
				if piece, err = p.str(); err == nil && len(piece) > MaxPiece {
					// Viterbi tries every piece length up to the longest:
					// a 100 KB piece made 20 KB of text take seconds.
					err = fmt.Errorf("a piece of %d bytes, more than %d, harpe's limit", len(piece), MaxPiece)
				}
				return err
			case 1:
				v, err := p.skip()
				if err != nil {
					return err
				}
				s, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return fmt.Errorf("score %q: %v", v, err)
				}
				if math.IsNaN(s) || math.IsInf(s, 0) {
					// A NaN compares false with everything: the best
					// path, and so the count, would be arbitrary.
					return fmt.Errorf("piece %q: score %s is not a finite number", piece, v)
				}
				ids[piece] = int32(len(u.scores))
				u.scores = append(u.scores, s)
				minScore = min(minScore, s)
				return nil
			}
			return fmt.Errorf("want [piece, score]")
		})
		if err == nil && n != 2 {
			err = fmt.Errorf("want [piece, score]")
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("model Unigram: vocab: %v", err)
	}
	for p, id := range ids {
		u.t.add(p, id)
	}
	u.unkScore = minScore - 10
	if m.UnkID == nil {
		// tokenizers fails on a character no entry covers.
		return nil, fmt.Errorf("model Unigram without unk_id is not supported")
	}
	{
		if *m.UnkID < 0 || *m.UnkID >= len(u.scores) {
			return nil, fmt.Errorf("model Unigram: unk_id %d is not in the vocabulary", *m.UnkID)
		}
		u.unk = int32(*m.UnkID)
	}
	for c := range 256 {
		u.byteFB[c] = -1
		if id, ok := ids[fmt.Sprintf("<0x%02X>", c)]; ok {
			u.byteFB[c] = id
		}
	}
	return u, nil
}

func (u *unigram) count(s string, _ bool, sc *scratch, ids *[]int) int {
	if s == "" {
		return 0
	}
	best := sc.best[:0]
	for range len(s) + 1 {
		best = append(best, bestNode{start: -1})
	}
	best[0].start = 0
	for at := 0; at < len(s); {
		here := best[at].score
		_, size := utf8.DecodeRuneInString(s[at:])
		single := false
		u.t.prefixes(s, at, func(end int, id int32) {
			cand := u.scores[id] + here
			if b := &best[end]; b.start < 0 || cand > b.score {
				*b = bestNode{cand, int32(at), id}
			}
			if end-at == size {
				single = true
			}
		})
		if !single {
			cand := u.unkScore + here
			if b := &best[at+size]; b.start < 0 || cand > b.score {
				*b = bestNode{cand, int32(at), u.unk}
			}
		}
		at += size
	}
	sc.best = best
	// Walk back; unknown tokens next to each other are one.
	type tok struct {
		id         int32
		start, end int
	}
	var rev []tok
	for end := len(s); end > 0; {
		b := best[end]
		start := int(b.start)
		if b.id == u.unk && len(rev) > 0 && rev[len(rev)-1].id == u.unk {
			rev[len(rev)-1].start = start
		} else {
			rev = append(rev, tok{b.id, start, end})
		}
		end = start
	}
	n := 0
	for k := len(rev) - 1; k >= 0; k-- {
		x := rev[k]
		if end, v := u.t.longest(s[x.start:x.end], 0); end == x.end-x.start {
			x.id = v // the unknown stretch is an entry ("<unk>" itself)
		} else if u.byteFallback {
			ok := true
			for i := x.start; i < x.end && ok; i++ {
				ok = u.byteFB[s[i]] >= 0
			}
			if ok {
				for i := x.start; i < x.end; i++ {
					n++
					if ids != nil {
						*ids = append(*ids, int(u.byteFB[s[i]]))
					}
				}
				continue
			}
		}
		n++
		if ids != nil {
			*ids = append(*ids, int(x.id))
		}
	}
	return n
}
