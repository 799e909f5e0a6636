package tokenize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize/internal/merge"
)

// TestBigMergeAgreesWithHeap checks the tree merge (merge.Tree) and the
// linear scan (merge.Scan) against the heap merge (itself
// checked against tiktoken through the token vectors and the differential
// tests) on pieces built to stress the order of merges: runs of one byte,
// of two alternating bytes, random letters from small alphabets, random
// bytes, and repeated words, for both encodings.
func TestBigMergeAgreesWithHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	gen := map[string]func(n int) string{
		"a":      func(n int) string { return strings.Repeat("a", n) },
		"spaces": func(n int) string { return strings.Repeat(" ", n) },
		"nul":    func(n int) string { return strings.Repeat("\x00", n) },
		"dots":   func(n int) string { return strings.Repeat(".", n) },
		"nl":     func(n int) string { return strings.Repeat("\n", n) },
		"ab":     func(n int) string { return strings.Repeat("ab", n/2) },
		"abc random": func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = "abc"[rng.IntN(3)]
			}
			return string(b)
		},
		"letters random": func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte('a' + rng.IntN(26))
			}
			return string(b)
		},
		"bytes random": func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			return string(b)
		},
		"words": func(n int) string {
			var b strings.Builder
			for b.Len() < n {
				b.WriteString([]string{"the", "tion", "ing", "aaaa", "qu", "zz", "=", "  "}[rng.IntN(8)])
			}
			return b.String()[:n]
		},
	}
	for name, g := range gen {
		for _, n := range []int{2, 3, 63, 64, 65, 129, 255, 256, 1000, 4097, 20000} {
			piece := g(n)
			for _, e := range []*Encoding{O200kBase, Cl100kBase} {
				e.setup()
				want := heapStarts(e, piece)
				if got := treeStarts(e, piece); !slices.Equal(got, want) {
					t.Fatalf("%s n=%d %s: tree merge gives %d tokens %v…, heap merge %d %v…", name, n, e.name, len(got), got[:min(len(got), 8)], len(want), want[:min(len(want), 8)])
				}
				if n > 5000 {
					continue // the scan takes n² steps
				}
				if got := merge.Scan(&merge.Merger{}, piecePairs{e, piece}, len(piece), nil); !slices.Equal(got, want) {
					t.Fatalf("%s n=%d %s: scan gives %d tokens %v…, heap merge %d %v…", name, n, e.name, len(got), got[:min(len(got), 8)], len(want), want[:min(len(want), 8)])
				}
			}
		}
	}
}

// heapStarts merges piece with merge.Heap, whatever its length.
func heapStarts(e *Encoding, piece string) []int32 {
	return merge.Heap(&merge.Merger{}, piecePairs{e, piece}, len(piece), nil)
}

// treeStarts merges piece with merge.Tree, whatever its length.
func treeStarts(e *Encoding, piece string) []int32 {
	var starts []int32
	for i, w := range e.bigMerge(piece, nil) {
		if merge.Len(w) > 0 {
			starts = append(starts, int32(i))
		}
	}
	return starts
}

// minstdLetters is n letters of alpha picked by the MINSTD generator
// (x = 48271·x mod 2³¹−1 from x = 1, letter alpha[x mod len]): simple
// enough to be written the same way in JavaScript for the reference
// counts below.
func minstdLetters(n int, alpha string) string {
	b := make([]byte, n)
	x := 1
	for i := range b {
		x = x * 48271 % 2147483647
		b[i] = alpha[x%len(alpha)]
	}
	return string(b)
}

// TestLongPiecesMatchTiktoken counts single pieces longer than bigPiece
// (70,000 bytes, so bigMerge runs) and checks them against OpenAI's
// tiktoken: the expected counts were printed by npm tiktoken 1.0.22
// (encode_ordinary(text).length, the WASM build of the Rust crate,
// installed by scripts/install-peers.sh) on 2026-12-01, for the same
// texts built in JavaScript.
func TestLongPiecesMatchTiktoken(t *testing.T) {
	const n = 70000
	tests := []struct {
		name         string
		text         string
		o200k, cl100 int
	}{
		{"a", strings.Repeat("a", n), 8750, 8750},
		{"nul", strings.Repeat("\x00", n), 35000, 70000},
		{"spaces", strings.Repeat(" ", n), 548, 548},
		{"dots", strings.Repeat(".", n), 1095, 1095},
		{"newlines", strings.Repeat("\n", n), 4375, 2188},
		{"random letters", minstdLetters(n, "abcdefghijklmnopqrstuvwxyz"), 36313, 37838},
		{"random a and b", minstdLetters(n, "ab"), 23900, 29392},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := countOf(O200kBase, tt.text); got != tt.o200k {
				t.Errorf("o200k_base: %d, tiktoken %d", got, tt.o200k)
			}
			if got := countOf(Cl100kBase, tt.text); got != tt.cl100 {
				t.Errorf("cl100k_base: %d, tiktoken %d", got, tt.cl100)
			}
		})
	}
	if got := minstdLetters(12, "abcdefghijklmnopqrstuvwxyz"); got != "puclhhnttfbh" {
		t.Fatalf("generator gives %q, the JavaScript one puclhhnttfbh", got)
	}
}

// FuzzBigMerge checks the tree merge against the heap merge on any piece, with
// both encodings: the same token boundaries.
func FuzzBigMerge(f *testing.F) {
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Add([]byte("    \n\n\n....\x00\x00\x00abab"))
	f.Add([]byte(minstdLetters(300, "abc")))
	f.Fuzz(func(t *testing.T, piece []byte) {
		if len(piece) < 2 {
			return
		}
		for _, e := range []*Encoding{O200kBase, Cl100kBase} {
			e.setup()
			want := heapStarts(e, string(piece))
			if got := treeStarts(e, string(piece)); !slices.Equal(got, want) {
				t.Fatalf("%s %q: tree merge starts %v, heap merge %v", e.name, piece, got, want)
			}
		}
	})
}

// BenchmarkBigPiece counts 8 MB that are one piece each, with o200k_base
// (merge.Tree: about 4 bytes of memory per byte).
func BenchmarkBigPiece(b *testing.B) {
	for _, tc := range []struct{ name, text string }{
		{"a", strings.Repeat("a", 8<<20)},
		{"spaces", strings.Repeat(" ", 8<<20)},
		{"random letters", minstdLetters(8<<20, "abcdefghijklmnopqrstuvwxyz")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			countOf(O200kBase, "warm up")
			b.SetBytes(int64(len(tc.text)))
			for b.Loop() {
				countOf(O200kBase, tc.text)
			}
		})
	}
}
