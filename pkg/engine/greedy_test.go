package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// randomItems makes items with clashing priorities and timestamps, some
// without a timestamp, some grouped, in no particular time order.
func randomItems(rng *rand.Rand, n int) []Item {
	base := time.Date(2026, 5, 20, 12, 0, 0, 0, time.UTC)
	items := make([]Item, n)
	for i := range items {
		tc := rng.IntN(50)
		items[i] = Item{ID: fmt.Sprint(i), Content: "x", Priority: 1 + rng.IntN(4), TokenCount: &tc}
		if rng.IntN(4) > 0 {
			ts := base.Add(time.Duration(rng.IntN(5)) * time.Second)
			if rng.IntN(3) == 0 {
				ts = ts.Add(time.Duration(rng.IntN(3)) * time.Millisecond)
			}
			items[i].Timestamp = &ts
		}
		if rng.IntN(5) == 0 {
			items[i].Group = fmt.Sprint("g", rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			r := float64(rng.IntN(3)) / 2
			items[i].Relevance = &r
		}
	}
	return items
}

// TestGreedyPathsAgree checks the packed-key fast path against the plain
// comparison of SPEC §4's orderings, on random inputs.
func TestGreedyPathsAgree(t *testing.T) {
	policies := []struct {
		name   string
		key    func([]Item, int) sortKey
		packed func([]Item, int, int) (uint64, bool)
	}{
		{"lowest_priority", keyLowestPriority, packedLowestPriority},
		{"recency", keyRecency, packedRecency},
		{"input_order", keyInputOrder, packedInputOrder},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 300 {
		items := randomItems(rng, 1+rng.IntN(40))
		for _, pol := range policies {
			var got [2]string
			for k, pk := range []func([]Item, int, int) (uint64, bool){pol.packed, nil} {
				name := fmt.Sprintf("t_%s_%d_%d", pol.name, round, k)
				Register(name, greedy(pol.key, pk))
				r, err := Synthesize(context.Background(), items, Budget{Total: 200}, Options{Policy: name})
				if err != nil {
					t.Fatal(err)
				}
				got[k] = fmt.Sprint(summary(r))
			}
			if got[0] != got[1] {
				t.Fatalf("%s round %d: packed %s\nplain %s", pol.name, round, got[0], got[1])
			}
		}
	}
}

// TestNewnessRanks checks the rank order against the definition by a
// simple quadratic count: an item's rank is how many items it is newer than.
func TestNewnessRanks(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 200 {
		items := randomItems(rng, 1+rng.IntN(30))
		if rng.IntN(2) == 0 { // sometimes chronological, for the fast path
			slices.SortStableFunc(items, func(a, b Item) int {
				switch {
				case a.Timestamp == nil && b.Timestamp == nil:
					return 0
				case a.Timestamp == nil:
					return -1
				case b.Timestamp == nil:
					return 1
				}
				return a.Timestamp.Compare(*b.Timestamp)
			})
		}
		ranks := make([]uint64, len(items))
		newnessRanks(items, ranks)
		for i := range items {
			want := 0
			for j := range items {
				if newer(items, i, j) {
					want++
				}
			}
			if int(ranks[i]) != want {
				t.Fatalf("rank of %d = %d, want %d", i, ranks[i], want)
			}
		}
	}
}
