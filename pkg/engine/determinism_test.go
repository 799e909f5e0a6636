package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestDeterminism runs every built-in policy many times, under different
// GOMAXPROCS, on inputs with many groups (so any dependence on map order
// would show), and wants the same JSON bytes every time.
func TestDeterminism(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	items := randomItems(rng, 500)
	for i := range items {
		if i%3 == 0 {
			items[i].Group = string(rune('a' + i%26))
		}
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, policy := range []string{PolicyLowestPriority, PolicyRecency, PolicyInputOrder, PolicyRelevance} {
		var first []byte
		for run := range 20 {
			runtime.GOMAXPROCS(1 + run%4)
			r, err := Synthesize(context.Background(), items, Budget{Total: 3000, SafetyMargin: 100},
				Options{Policy: policy, Caps: []Cap{{Dimension: "", Limit: Amount{N: 50, Percent: true}}}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = got
			} else if !bytes.Equal(got, first) {
				t.Fatalf("%s: run %d differs", policy, run)
			}
		}
	}
}
