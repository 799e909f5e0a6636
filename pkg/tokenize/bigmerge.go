package tokenize

import (
	"runtime/debug"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// Long pieces. A text without break points can be one pre-tokenizer piece
// of any length (100 MB of "a", of spaces, of NULs), and byte-pair merging
// has to see the whole piece. The heap merge (heapNodes) needs about 40
// bytes of memory for each byte of the piece; bigMerge gives the same
// result with 4 bytes per byte (and a tree of 1/16 byte per byte) and no
// allocation per merge. For each byte i it keeps one word:
//
//   - the low 24 bits are the rank of the pair of tokens starting at i
//     (bigNone when the two do not make a token, or i is not a token
//     start); ranks fit, since no built-in encoding has 2^24 tokens;
//   - the high 8 bits are the byte length of the token starting at i, 0
//     inside a token (a token is never longer than 255 bytes: its length
//     is a byte of the table).
//
// The positions are grouped in blocks of bigBlock bytes, and a tournament
// tree over the blocks holds each block's lowest rank. Each step takes the
// lowest-ranked pair, the leftmost on ties (the leftmost block with the
// lowest rank, then the first position in it with that rank), which is
// exactly the pair the heap merge pops; it joins the two tokens, looks up
// the new pairs on both sides, and updates the blocks it touched. So every
// step costs O(bigBlock + log(blocks)), and there are fewer steps than
// bytes.

// bigPiece is the piece length from which Count and Encode use bigMerge.
const bigPiece = 1 << 16

// bigCollect is the piece length from which bigMerge first returns unused
// memory to the system.
const bigCollect = 16 << 20

// bigBlock is the number of positions whose lowest rank one leaf of the
// tree holds.
const bigBlock = 64

// bigNone is the rank field of a position with no pair, above every rank.
const bigNone = 1<<24 - 1

// bigMerge merges piece and returns its words (see above): word>>24 > 0
// exactly at the starts of the tokens the piece becomes, and is then the
// token's length. It returns nil once done (nil: never) is closed.
func (e *Encoding) bigMerge(piece string, done <-chan struct{}) []uint32 {
	if len(e.offs)-1 >= bigNone {
		panic("tokenize: " + e.name + " has too many tokens for bigMerge")
	}
	n := len(piece)
	if n >= bigCollect {
		// Hand the arrays that reading a long text left behind back to
		// the system before taking four times the piece: otherwise they
		// would stay in the process's memory beside it. One collection
		// per piece of this size costs little next to merging it.
		debug.FreeOSMemory()
	}
	w := make([]uint32, n)
	rank24 := func(b string) uint32 {
		if r := e.rank(b); r != noRank {
			return r
		}
		return bigNone
	}
	for i := 0; i+1 < n; i++ {
		w[i] = 1<<24 | rank24(piece[i:i+2])
	}
	if n > 0 {
		w[n-1] = 1<<24 | bigNone
	}
	nb := (n + bigBlock - 1) / bigBlock
	size := 1
	for size < nb {
		size <<= 1
	}
	// tree[size+b] is block b's lowest rank; tree[k] = min(tree[2k],
	// tree[2k+1]); blocks past the end hold bigNone.
	tree := make([]uint32, 2*size)
	for k := range tree {
		tree[k] = bigNone
	}
	blockMin := func(b int) uint32 {
		m := uint32(bigNone)
		for _, v := range w[b*bigBlock : min((b+1)*bigBlock, n)] {
			m = min(m, v&bigNone)
		}
		return m
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
			return bigNone
		}
		k := j + int(w[j]>>24)
		if k-i > 255 {
			return bigNone // longer than any token
		}
		return rank24(piece[i:k])
	}
	for steps := 1; tree[1] != bigNone; steps++ {
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
		i := b * bigBlock
		for w[i]&bigNone != top {
			i++
		}
		// Join the token at i with the next one, at j.
		j := i + int(w[i]>>24)
		w[i] = (w[i]>>24 + w[j]>>24) << 24
		w[j] = bigNone
		w[i] |= pairAt(i)
		// The token before i, if any, starts at most 255 bytes back.
		pb := b
		for p := i - 1; p >= 0 && p >= i-255; p-- {
			if w[p]>>24 != 0 {
				w[p] = w[p]&^bigNone | pairAt(p)
				pb = p / bigBlock
				break
			}
		}
		update(b)
		if jb := j / bigBlock; jb != b {
			update(jb)
		}
		if pb != b {
			update(pb)
		}
	}
	return w
}

// bigMergeCount is the number of tokens bigMerge makes of piece.
func (e *Encoding) bigMergeCount(piece string) int {
	return countStarts(e.bigMerge(piece, nil))
}

// countStarts counts the token starts in bigMerge's words.
func countStarts(words []uint32) int {
	k := 0
	for _, v := range words {
		if v>>24 != 0 {
			k++
		}
	}
	return k
}

// bigMergeParts is bigMerge's result as merge's boundaries.
func (e *Encoding) bigMergeParts(piece string, parts []part) []part {
	words := e.bigMerge(piece, nil)
	parts = parts[:0]
	for i, v := range words {
		if v>>24 != 0 {
			parts = append(parts, part{i, noRank})
		}
	}
	return append(parts, part{len(piece), noRank})
}
