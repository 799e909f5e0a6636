package merge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// vocab is a test vocabulary over bytes: tokens are strings, each with an
// id (its index), and merges give a rank to a pair of tokens. A pair's
// token is the two joined.
type vocab struct {
	tokens []string
	id     map[string]uint32
	merges map[[2]uint32]uint32 // left id, right id → rank
	rankID []uint32             // rank → id of the token the merge makes
}

func newVocab() *vocab {
	return &vocab{id: map[string]uint32{}, merges: map[[2]uint32]uint32{}}
}

func (v *vocab) token(s string) uint32 {
	if id, ok := v.id[s]; ok {
		return id
	}
	id := uint32(len(v.tokens))
	v.tokens = append(v.tokens, s)
	v.id[s] = id
	return id
}

// add gives the pair l r the next rank.
func (v *vocab) add(l, r string) {
	a, b, c := v.token(l), v.token(r), v.token(l+r)
	v.merges[[2]uint32{a, b}] = uint32(len(v.rankID))
	v.rankID = append(v.rankID, c)
}

// rank is the rank of joining tokens l and r, None if they do not join.
func (v *vocab) rank(l, r string) uint32 {
	a, ok1 := v.id[l]
	b, ok2 := v.id[r]
	if !ok1 || !ok2 {
		return None
	}
	if r, ok := v.merges[[2]uint32{a, b}]; ok {
		return r
	}
	return None
}

// idPairs asks the vocabulary by token ids, kept per token start and
// updated by Join, as package hf does.
type idPairs struct {
	v   *vocab
	ids []uint32
}

func (p idPairs) Pair(i, j, _ int) (uint32, uint32) {
	r, ok := p.v.merges[[2]uint32{p.ids[i], p.ids[j]}]
	if !ok {
		return None, 0
	}
	return r, p.v.rankID[r]
}

func (p idPairs) Join(i, _ int, rank uint32) { p.ids[i] = p.v.rankID[rank] }

// naive merges piece as the definition says, in n² steps: at each step
// look at every adjacent pair, join the lowest-ranked, the leftmost on
// ties. It returns the tokens' starts.
func naive(v *vocab, piece string) []int32 {
	var toks []string
	for i := range len(piece) {
		toks = append(toks, piece[i:i+1])
	}
	for {
		best, at := None, -1
		for i := 0; i+1 < len(toks); i++ {
			if r := v.rank(toks[i], toks[i+1]); r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		toks = slices.Replace(toks, at, at+2, toks[at]+toks[at+1])
	}
	starts := []int32{}
	pos := 0
	for _, t := range toks {
		starts = append(starts, int32(pos))
		pos += len(t)
	}
	return starts
}

// runAll merges piece with Scan, Heap and Tree and checks that each gives
// want, and that after Join the id at each token start is that token's.
func runAll(t *testing.T, v *vocab, piece string, want []int32) {
	t.Helper()
	firstIDs := func() []uint32 {
		ids := make([]uint32, len(piece))
		for i := range ids {
			ids[i] = v.token(piece[i : i+1])
		}
		return ids
	}
	var m Merger
	for _, way := range []string{"Scan", "Heap", "Tree"} {
		p := idPairs{v, firstIDs()}
		var got []int32
		switch way {
		case "Scan":
			got = Scan(&m, p, len(piece), []int32{})
		case "Heap":
			got = Heap(&m, p, len(piece), []int32{})
		case "Tree":
			w := Tree(p, len(piece), nil)
			got = []int32{}
			for i, x := range w {
				if Len(x) > 0 {
					got = append(got, int32(i))
				}
			}
			if Count(w) != len(got) {
				t.Errorf("Tree %q: Count %d, %d starts", piece, Count(w), len(got))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s %q: starts %v, want %v", way, piece, got, want)
		}
		for k, s := range got {
			end := len(piece)
			if k+1 < len(got) {
				end = int(got[k+1])
			}
			if id := p.ids[s]; v.tokens[id] != piece[s:end] {
				t.Fatalf("%s %q: token at %d has id %d (%q), want %q", way, piece, s, id, v.tokens[id], piece[s:end])
			}
		}
	}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name   string
		merges [][2]string // in rank order
		piece  string
		want   []int32
	}{
		{"empty", [][2]string{{"a", "a"}}, "", []int32{}},
		{"one symbol", [][2]string{{"a", "a"}}, "a", []int32{0}},
		{"no merges apply", [][2]string{{"a", "b"}}, "xyz", []int32{0, 1, 2}},
		// aa a → the first pair wins the tie: [aa][a].
		{"tie goes left", [][2]string{{"a", "a"}}, "aaa", []int32{0, 2}},
		// a a → aa twice, then aa aa → aaaa; the fifth a is left alone.
		{"runs of a", [][2]string{{"a", "a"}, {"aa", "aa"}}, "aaaaa", []int32{0, 4}},
		// bc (rank 0) comes before ab (rank 1): [a][bc], and a bc is not a merge.
		{"lower rank to the right", [][2]string{{"b", "c"}, {"a", "b"}}, "abc", []int32{0, 1}},
		// ab, cd, then ab cd.
		{"two levels", [][2]string{{"a", "b"}, {"c", "d"}, {"ab", "cd"}}, "abcd", []int32{0}},
		// A later merge (ab cd, rank 2) is blocked: bc (rank 0) is taken first.
		{"blocked", [][2]string{{"b", "c"}, {"a", "b"}, {"c", "d"}, {"ab", "cd"}}, "abcd", []int32{0, 1, 3}},
		// abc can come from ab c or a bc; bc is first, then a bc (rank 3).
		{"two pairs make one token", [][2]string{{"b", "c"}, {"a", "b"}, {"ab", "c"}, {"a", "bc"}}, "abc", []int32{0}},
		// After xy, the pair before it changes: w xy (rank 1) joins.
		{"new pair on the left", [][2]string{{"x", "y"}, {"w", "xy"}}, "wxyz", []int32{0, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newVocab()
			for _, m := range tt.merges {
				v.add(m[0], m[1])
			}
			if got := naive(v, tt.piece); !slices.Equal(got, tt.want) {
				t.Fatalf("naive: %v, want %v", got, tt.want)
			}
			runAll(t, v, tt.piece, tt.want)
		})
	}
}

// TestTreeLimits: a token longer than MaxLen symbols is never made by
// Tree, and a long run still merges (the blocks and the tree above them).
func TestTreeLimits(t *testing.T) {
	v := newVocab()
	for s := "a"; len(s) < 512; s += s {
		v.add(s, s)
	}
	piece := strings.Repeat("a", 1000)
	heap := Heap(&Merger{}, idPairs{v, ids(v, piece)}, len(piece), nil)
	w := Tree(idPairs{v, ids(v, piece)}, len(piece), nil)
	var tree []int32
	for i, x := range w {
		if Len(x) > 0 {
			tree = append(tree, int32(i))
			if Len(x) > MaxLen {
				t.Fatalf("a token of %d symbols", Len(x))
			}
		}
	}
	// The merge goes rank by rank (all a a, then all aa aa, …), each
	// time from the left, so Heap's tokens are the binary digits of 1000
	// = 512+256+128+64+32+8, from the left.
	if want := []int32{0, 512, 768, 896, 960, 992}; !slices.Equal(heap, want) {
		t.Errorf("Heap: %v, want %v", heap, want)
	}
	// Tree cannot make a token of 256 (> MaxLen): 7·128+64+32+8.
	if want := []int32{0, 128, 256, 384, 512, 640, 768, 896, 960, 992}; !slices.Equal(tree, want) {
		t.Errorf("Tree: %v, want %v", tree, want)
	}
}

func ids(v *vocab, piece string) []uint32 {
	out := make([]uint32, len(piece))
	for i := range out {
		out[i] = v.token(piece[i : i+1])
	}
	return out
}

// TestTreeCancel: Tree returns nil once done is closed.
func TestTreeCancel(t *testing.T) {
	v := newVocab()
	v.add("a", "a")
	piece := strings.Repeat("a", 1<<14)
	done := make(chan struct{})
	close(done)
	if w := Tree(idPairs{v, ids(v, piece)}, len(piece), done); w != nil {
		t.Error("Tree went on after done was closed")
	}
	if w := Tree(idPairs{v, ids(v, piece)}, len(piece), nil); Count(w) != 1<<13 {
		t.Errorf("Tree: %d tokens, want %d", Count(w), 1<<13)
	}
}

// randomVocab makes merges over the letters a-d from seed: each joins two
// tokens made so far (letters or earlier joins) into one of at most 12
// bytes, and the ranks are shuffled, so some merges can only happen after
// merges of a higher rank, some never, and some tokens come from more
// than one pair.
func randomVocab(seed uint64, count int) *vocab {
	rng := rand.New(rand.NewPCG(seed, 34))
	made := []string{"a", "b", "c", "d"}
	var pairs [][2]string
	seen := map[[2]string]bool{}
	for len(pairs) < count {
		l, r := made[rng.IntN(len(made))], made[rng.IntN(len(made))]
		if len(l)+len(r) > 12 || seen[[2]string{l, r}] {
			continue
		}
		seen[[2]string{l, r}] = true
		pairs = append(pairs, [2]string{l, r})
		if !slices.Contains(made, l+r) {
			made = append(made, l+r)
		}
	}
	rng.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	v := newVocab()
	for _, p := range pairs {
		v.add(p[0], p[1])
	}
	return v
}

// letters maps bytes to the letters a-d.
func letters(b []byte) string {
	s := make([]byte, len(b))
	for i, c := range b {
		s[i] = "abcd"[c%4]
	}
	return string(s)
}

// TestMergeRandom runs random vocabularies and pieces against naive.
func TestMergeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	for k := range 300 {
		v := randomVocab(uint64(k), 5+k%60)
		b := make([]byte, rng.IntN(300))
		for i := range b {
			b[i] = byte(rng.IntN(256) % (1 + k%4))
		}
		piece := letters(b)
		t.Run(fmt.Sprint(k), func(t *testing.T) { runAll(t, v, piece, naive(v, piece)) })
	}
}

// FuzzMerge checks Scan, Heap and Tree against naive on any piece and
// random vocabulary.
func FuzzMerge(f *testing.F) {
	f.Add(uint64(1), uint8(20), []byte("aaaaaaaaaaaaaaaaaaaaaa"))
	f.Add(uint64(2), uint8(60), []byte("abcdabcdabcddcbaabba"))
	f.Add(uint64(3), uint8(5), []byte{0, 1, 2, 3, 0, 0, 1, 1, 2, 2, 3, 3})
	f.Fuzz(func(t *testing.T, seed uint64, count uint8, b []byte) {
		if len(b) > 4000 {
			return
		}
		v := randomVocab(seed, 1+int(count)%80)
		piece := letters(b)
		runAll(t, v, piece, naive(v, piece))
	})
}

// BenchmarkMerge merges 60,000 random letters with a random vocabulary
// of 80 merges by Heap and by Tree: B/op over 60,000 is the memory each
// takes per symbol (the ids Pairs keeps, 4 bytes a symbol, included).
func BenchmarkMerge(b *testing.B) {
	v := randomVocab(34, 80)
	rng := rand.New(rand.NewPCG(34, 2))
	s := make([]byte, 60000)
	for i := range s {
		s[i] = "abcd"[rng.IntN(4)]
	}
	piece := string(s)
	b.Run("Heap", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Heap(&Merger{}, idPairs{v, ids(v, piece)}, len(piece), nil)
		}
	})
	b.Run("Tree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Tree(idPairs{v, ids(v, piece)}, len(piece), nil)
		}
	})
}
