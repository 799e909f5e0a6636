package merge

import (
	"runtime/debug"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// Long pieces. A text without break points can be one piece of any
// length (100 MB of "a", of spaces, of NULs), and the merge has to see the
// whole piece. Heap needs about 40 bytes of memory for each symbol; Tree
// gives the same tokens with 4 bytes per symbol (and a tree of 1/16 byte
// per symbol) and no allocation per join. For each symbol i it keeps one
// word:
//
//   - the low 24 bits are the rank of the pair of tokens starting at i
//     (treeNone when the two do not join, or i is not a token start);
//   - the high 8 bits are the length in symbols of the token starting at
//     i, 0 inside a token.
//
// The positions are grouped in blocks of treeBlock symbols, and a
// tournament tree over the blocks holds each block's lowest rank. Each
// step takes the lowest-ranked pair, the leftmost on ties (the leftmost
// block with the lowest rank, then the first position in it with that
// rank), which is the pair Heap would join; it joins the two tokens, asks
// for the new pairs on both sides, and updates the blocks it touched. So
// every step costs O(treeBlock + log(blocks)), and there are fewer steps
// than symbols.
//
// Unlike Heap, Tree goes by ranks only: where two different pairs make
// the same token, an entry Heap would take as current is not there. That
// happens only when a token can join with a token that adds nothing to
// its text (in tokenizers, a token that is just the continuing-subword
// prefix), which no real vocabulary has.

// MaxRank is the highest rank Tree can hold.
const MaxRank = treeNone - 1

// MaxLen is the longest token Tree can hold, in symbols: Tree takes two
// tokens that together are longer as not joining.
const MaxLen = 255

// treeNone is the rank field of a position with no pair, above every rank.
const treeNone = 1<<24 - 1

// treeBlock is the number of positions whose lowest rank one leaf of the
// tree holds.
const treeBlock = 64

// treeCollect is the piece length from which Tree first returns unused
// memory to the system.
const treeCollect = 16 << 20

// Tree merges a piece of n symbols and returns one word per symbol (see
// above): Len(word) > 0 exactly at the starts of the tokens the piece
// becomes, and is then the token's length. Every rank Pairs gives must be
// None or at most MaxRank (Tree panics otherwise). It returns nil once
// done (nil: never) is closed, looking every cancel.Every joins.
func Tree[P Pairs](p P, n int, done <-chan struct{}) []uint32 {
	if n >= treeCollect {
		// Hand the arrays that reading a long text left behind back to
		// the system before taking four times the piece: otherwise they
		// would stay in the process's memory beside it. One collection
		// per piece of this size costs little next to merging it.
		debug.FreeOSMemory()
	}
	w := make([]uint32, n)
	rank24 := func(i, j, k int) uint32 {
		r, _ := p.Pair(i, j, k)
		if r == None {
			return treeNone
		}
		if r > MaxRank {
			panic("merge: a rank above MaxRank in Tree")
		}
		return r
	}
	for i := 0; i+1 < n; i++ {
		w[i] = 1<<24 | rank24(i, i+1, i+2)
	}
	if n > 0 {
		w[n-1] = 1<<24 | treeNone
	}
	nb := (n + treeBlock - 1) / treeBlock
	size := 1
	for size < nb {
		size <<= 1
	}
	// tree[size+b] is block b's lowest rank; tree[k] = min(tree[2k],
	// tree[2k+1]); blocks past the end hold treeNone.
	tree := make([]uint32, 2*size)
	for k := range tree {
		tree[k] = treeNone
	}
	// blockMin takes the minimum in four independent runs, which a
	// processor overlaps: the rescans are most of a join's time.
	blockMin := func(b int) uint32 {
		s := w[b*treeBlock : min((b+1)*treeBlock, n)]
		m0, m1, m2, m3 := uint32(treeNone), uint32(treeNone), uint32(treeNone), uint32(treeNone)
		for ; len(s) >= 4; s = s[4:] {
			m0 = min(m0, s[0]&treeNone)
			m1 = min(m1, s[1]&treeNone)
			m2 = min(m2, s[2]&treeNone)
			m3 = min(m3, s[3]&treeNone)
		}
		for _, v := range s {
			m0 = min(m0, v&treeNone)
		}
		return min(m0, m1, m2, m3)
	}
	for b := range nb {
		tree[size+b] = blockMin(b)
	}
	for k := size - 1; k >= 1; k-- {
		tree[k] = min(tree[2*k], tree[2*k+1])
	}
	update := func(b int) {
		k := size + b
		m := blockMin(b)
		if tree[k] == m {
			return
		}
		tree[k] = m
		for k >>= 1; k >= 1; k >>= 1 {
			m = min(tree[2*k], tree[2*k+1])
			if tree[k] == m {
				return
			}
			tree[k] = m
		}
	}
	// pairAt is the rank of the two tokens from i, which must be a token
	// start.
	pairAt := func(i int) uint32 {
		j := i + int(w[i]>>24)
		if j >= n {
			return treeNone
		}
		k := j + int(w[j]>>24)
		if k-i > MaxLen {
			return treeNone
		}
		return rank24(i, j, k)
	}
	for steps := 1; tree[1] != treeNone; steps++ {
		if steps%cancel.Every == 0 && cancel.Stopped(done) {
			return nil
		}
		top := tree[1]
		k := 1
		for k < size { // the leftmost block holding the lowest rank
			if tree[2*k] == top {
				k = 2 * k
			} else {
				k = 2*k + 1
			}
		}
		b := k - size
		i := b * treeBlock
		for w[i]&treeNone != top {
			i++
		}
		// Join the token at i with the next one, at j.
		j := i + int(w[i]>>24)
		p.Join(i, j, top)
		w[i] = (w[i]>>24 + w[j]>>24) << 24
		w[j] = treeNone
		w[i] |= pairAt(i)
		// The token before i, if any, starts at most MaxLen symbols back.
		pb := b
		for q := i - 1; q >= 0 && q >= i-MaxLen; q-- {
			if w[q]>>24 != 0 {
				w[q] = w[q]&^treeNone | pairAt(q)
				pb = q / treeBlock
				break
			}
		}
		update(b)
		if jb := j / treeBlock; jb != b {
			update(jb)
		}
		if pb != b {
			update(pb)
		}
	}
	return w
}

// Len is the length in symbols of the token that starts where Tree's word
// w is, 0 if none does.
func Len(w uint32) int { return int(w >> 24) }

// Count is the number of tokens in Tree's words.
func Count(words []uint32) int {
	k := 0
	for _, v := range words {
		if v>>24 != 0 {
			k++
		}
	}
	return k
}
