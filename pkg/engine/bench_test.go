package engine

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// benchItems makes n items with token counts given: one pinned system
// prompt, then items of varied priority, size and age (fixed seed).
func benchItems(n int) []Item {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	items := make([]Item, n)
	for i := range items {
		tc := 20 + rng.IntN(180)
		ts := base.Add(time.Duration(i) * time.Minute)
		items[i] = Item{ID: fmt.Sprintf("it-%d", i), Content: "x", Priority: 1 + rng.IntN(20),
			TokenCount: &tc, Timestamp: &ts}
	}
	items[0].Pinned = true
	return items
}

func benchSynthesize(b *testing.B, n, total int) {
	items := benchItems(n)
	budget := Budget{Total: total, ReserveOutput: total / 8}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Synthesize(context.Background(), items, budget, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSynthesize10 is SPEC §11's 10-item greedy call (goal ≤ 1.8 µs).
func BenchmarkSynthesize10(b *testing.B) { benchSynthesize(b, 10, 800) }

// BenchmarkSynthesize200 is SPEC §11's 200-item greedy call (goal ≤ 30 µs),
// 200 items against 1,500 tokens as in the seed's figure.
func BenchmarkSynthesize200(b *testing.B) { benchSynthesize(b, 200, 1500) }

// BenchmarkReadItems parses 10,000 lines of about 500 bytes.
func BenchmarkReadItems(b *testing.B) {
	var buf bytes.Buffer
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 10_000 {
		fmt.Fprintf(&buf, `{"id":"it-%d","content":"%s","priority":%d,"timestamp":"2026-05-20T12:%02d:00Z","dimension":"history","meta":{"n":[1,2,3]}}`+"\n",
			i, bytes.Repeat([]byte("lorem ipsum dolor sit amet, "), 16), rng.IntN(20), i%60)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadItems(bytes.NewReader(data), "bench", ReadOptions{DefaultPriority: 10}); err != nil {
			b.Fatal(err)
		}
	}
}
