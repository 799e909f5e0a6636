// Package merge is the byte-pair merge that both of harpe's BPE
// tokenizers run: tiktoken's encodings (package tokenize, where a symbol
// is a byte and a pair's rank is the rank of its bytes) and the BPE model
// of Hugging Face tokenizers (package hf, where a symbol is a token id and
// a pair's rank is its line in the merges list).
//
// A piece of n symbols starts as n tokens of one symbol each. Then the
// adjacent pair of tokens with the lowest rank is joined, the leftmost on
// ties, until no adjacent pair joins. The caller says through [Pairs]
// which pairs join; the merge keeps the tokens and the order of the
// joins. Three ways of doing it give the same tokens, with different
// costs:
//
//   - [Scan] looks through every pair at each join, as tiktoken's
//     _byte_pair_merge does: the fastest on short pieces, n² on long ones;
//   - [Heap] keeps the pairs in a binary heap, as tokenizers does, skipping
//     the entries a join made stale when they come up: n log n, about 40
//     bytes per symbol;
//   - [Tree] keeps one word per symbol and a tournament tree over blocks of
//     them: n log n, about 4 bytes per symbol, for pieces of any length
//     whose tokens are at most 255 symbols and whose ranks fit in 24 bits.
package merge

// None is the rank of a pair that does not join: above every rank.
const None = ^uint32(0)

// Pairs is what a merge asks of its caller about the piece it merges.
// The merge calls its methods directly through the type parameter, so a
// small struct value (the table and the piece) is the usual Pairs.
type Pairs interface {
	// Pair returns the rank of joining the token made of symbols [i, j)
	// with the token made of [j, k), and the id of the token that makes
	// (the same id can come from different pairs); rank None when they do
	// not join.
	Pair(i, j, k int) (rank, id uint32)
	// Join tells that the token at i has been joined with the next one,
	// at j, by a pair whose rank is given (a pair that gives the id
	// Pair returned). It is called before the new pairs around i are
	// asked for.
	Join(i, j int, rank uint32)
}

// Merger holds the buffers of Scan and Heap, to be reused from one piece
// to the next. The zero value is ready to use; a Merger is not safe for
// concurrent use.
type Merger struct {
	parts []part
	nodes []node
	heap  []entry
}

// part is a token of a piece being scanned: where it starts, and the rank
// of the pair that starts there.
type part struct {
	start int32
	rank  uint32
}

// Scan merges a piece of n symbols by looking for the lowest-ranked pair
// among all of them at each join, and appends the starts of the tokens it
// becomes to starts.
func Scan[P Pairs](m *Merger, p P, n int, starts []int32) []int32 {
	parts := m.parts[:0]
	for i := 0; i <= n; i++ {
		parts = append(parts, part{int32(i), None})
	}
	for i := 0; i+2 <= n; i++ {
		parts[i].rank, _ = p.Pair(i, i+1, i+2)
	}
	for len(parts) > 2 {
		minRank, at := None, -1
		for i := 0; i+2 < len(parts); i++ {
			if parts[i].rank < minRank {
				minRank, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		p.Join(int(parts[at].start), int(parts[at+1].start), minRank)
		parts = append(parts[:at+1], parts[at+2:]...)
		parts[at].rank = None
		if at+2 < len(parts) {
			parts[at].rank, _ = p.Pair(int(parts[at].start), int(parts[at+1].start), int(parts[at+2].start))
		}
		if at > 0 {
			parts[at-1].rank, _ = p.Pair(int(parts[at-1].start), int(parts[at].start), int(parts[at+1].start))
		}
	}
	for _, pt := range parts[:len(parts)-1] {
		starts = append(starts, pt.start)
	}
	m.parts = parts
	return starts
}
