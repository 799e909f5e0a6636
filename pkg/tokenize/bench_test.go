package tokenize

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchText is the repository's own Go source (≈ code) and prose from the
// token samples, repeated to at least 1 MB.
func benchText(b *testing.B, kind string) string {
	b.Helper()
	var files []string
	switch kind {
	case "code":
		files, _ = filepath.Glob("*.go")
	case "prose":
		files, _ = filepath.Glob("../../testdata/tokens/*prose*.txt")
	case "english":
		files = []string{"../../testdata/tokens/prose_en.txt"}
	}
	var sb strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
	}
	if sb.Len() == 0 {
		b.Skipf("no %s files", kind)
	}
	one := sb.String()
	for sb.Len() < 1<<20 {
		sb.WriteString(one)
	}
	return sb.String()
}

func benchCounter(b *testing.B, c Counter, kind string) {
	s := benchText(b, kind)
	ctx := context.Background()
	c.Count(ctx, "warm up")
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for b.Loop() {
		c.Count(ctx, s)
	}
}

func BenchmarkEstimateCode(b *testing.B)  { benchCounter(b, Estimate, "code") }
func BenchmarkEstimateProse(b *testing.B) { benchCounter(b, Estimate, "prose") }
func BenchmarkO200kCode(b *testing.B)     { benchCounter(b, O200kBase, "code") }
func BenchmarkO200kProse(b *testing.B)    { benchCounter(b, O200kBase, "prose") }
func BenchmarkCl100kCode(b *testing.B)    { benchCounter(b, Cl100kBase, "code") }
func BenchmarkCl100kProse(b *testing.B)   { benchCounter(b, Cl100kBase, "prose") }

// BenchmarkLoad measures building the o200k_base lookup from the registered
// table, what the first Count in a process pays.
func BenchmarkLoad(b *testing.B) {
	data := readTable(b, "o200k/o200k_base.bin")
	for b.Loop() {
		e := &Encoding{name: "o200k_base", data: data, next: nextO200k}
		e.load()
	}
}

// BenchmarkCheckTable measures checking a table, what the first use of an
// embedded encoding (or LoadEncoding) costs.
func BenchmarkCheckTable(b *testing.B) {
	data := readTable(b, "o200k/o200k_base.bin")
	for b.Loop() {
		if err := checkTable(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLongPiece is a 100 KB piece without spaces: merging must not be
// quadratic.
func BenchmarkLongPiece(b *testing.B) {
	s := strings.Repeat("abcdefghij", 10000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		O200kBase.Count(context.Background(), s)
	}
}

// English prose only (testdata/tokens/prose_en.txt), the SPEC's measure
// for the estimate.
func BenchmarkEstimateEnglish(b *testing.B) { benchCounter(b, Estimate, "english") }
func BenchmarkO200kEnglish(b *testing.B)    { benchCounter(b, O200kBase, "english") }

// BenchmarkCountReader streams 1 MB of code through CountReader with
// o200k_base, chunked and counted on two workers.
func BenchmarkCountReader(b *testing.B) {
	s := benchText(b, "code")
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, _, err := CountReader(context.Background(), strings.NewReader(s), []Counter{O200kBase}, StreamOptions{ChunkSize: 256 << 10}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReferenceO200kProse is pkoukk/tiktoken-go, the exact reference,
// on BenchmarkO200kProse's text: why it is the reference and not the
// counter (docs/choices.md).
func BenchmarkReferenceO200kProse(b *testing.B) {
	s := benchText(b, "prose")
	enc := reference(b, "o200k_base")
	b.SetBytes(int64(len(s)))
	b.ResetTimer()
	for b.Loop() {
		enc.Encode(s, nil, nil)
	}
}
