package hf

// Long pieces. A text without break points can be one piece of any
// length, and the heap merge needs some 40 bytes per symbol. bigMerge
// gives the same tokens with 9 bytes per symbol: for each symbol position
// i, ids[i] is the id of the token starting there (-1 inside a token),
// span[i] how many symbols that token covers, and rank[i] the rank of the
// merge of that token with the next one (noMerge if none). Positions are
// grouped in blocks of bigBlock, and a tournament tree over the blocks
// gives the block with the lowest rank, the leftmost on ties; each step
// merges the leftmost lowest-ranked pair there, which is the pair
// tokenizers' heap gives (its stale entries are skipped: a pair's merge is
// fixed by its two tokens, and a token only changes by growing), then
// looks up the pairs on both sides and updates the blocks it touched.
// A token is at most 255 symbols (span is a byte): bigMerge is used only
// when no vocabulary entry is longer than 255 characters, and a symbol is
// at least one character of its token.

// bigPiece is the number of symbols from which a piece is merged by
// bigMerge.
const bigPiece = 1 << 16

const (
	bigBlock = 64
	noMerge  = int32(1<<31 - 1)
)

func (b *bpe) bigMerge(first []int32, out *[]int) int {
	m := len(first)
	ids := first // merged in place
	span := make([]uint8, m)
	rank := make([]int32, m)
	for i := range span {
		span[i] = 1
	}
	pairRank := func(i int) int32 {
		j := i + int(span[i])
		if j >= m {
			return noMerge
		}
		if mv, ok := b.merges[pairKey(ids[i], ids[j])]; ok {
			return mv.rank
		}
		return noMerge
	}
	for i := range rank {
		rank[i] = pairRank(i)
	}
	nb := (m + bigBlock - 1) / bigBlock
	blockMin := make([]int32, nb)
	size := 1
	for size < nb {
		size *= 2
	}
	tree := make([]int32, 2*size) // block index at each node; -1 for none
	less := func(x, y int32) bool {
		if y < 0 {
			return x >= 0
		}
		if x < 0 {
			return false
		}
		if blockMin[x] != blockMin[y] {
			return blockMin[x] < blockMin[y]
		}
		return x < y
	}
	scanBlock := func(k int) {
		lo, hi := k*bigBlock, min((k+1)*bigBlock, m)
		r := noMerge
		for _, v := range rank[lo:hi] {
			r = min(r, v)
		}
		blockMin[k] = r
	}
	fix := func(k int) {
		scanBlock(k)
		n := size + k
		for n > 1 {
			n /= 2
			l, r := tree[2*n], tree[2*n+1]
			if less(r, l) {
				tree[n] = r
			} else {
				tree[n] = l
			}
		}
	}
	for k := range tree {
		tree[k] = -1
	}
	for k := range nb {
		scanBlock(k)
		tree[size+k] = int32(k)
	}
	for n := size - 1; n >= 1; n-- {
		l, r := tree[2*n], tree[2*n+1]
		if less(r, l) {
			tree[n] = r
		} else {
			tree[n] = l
		}
	}
	for {
		k := tree[1]
		if k < 0 || blockMin[k] == noMerge {
			break
		}
		r := blockMin[k]
		i := int(k) * bigBlock
		for rank[i] != r {
			i++
		}
		j := i + int(span[i])
		mv := b.merges[pairKey(ids[i], ids[j])]
		ids[i] = mv.id
		span[i] += span[j]
		ids[j], span[j], rank[j] = -1, 0, noMerge
		rank[i] = pairRank(i)
		p := i - 1
		for p >= 0 && ids[p] < 0 {
			p--
		}
		if p >= 0 {
			rank[p] = pairRank(p)
			if p/bigBlock != i/bigBlock {
				fix(p / bigBlock)
			}
		}
		fix(i / bigBlock)
		if j/bigBlock != i/bigBlock {
			fix(j / bigBlock)
		}
	}
	n := 0
	for _, id := range ids {
		if id >= 0 {
			n++
			if out != nil {
				*out = append(*out, int(id))
			}
		}
	}
	return n
}
