package engine

import (
	"bytes"
	"fmt"
	"testing"
)

// TestReadItemsAllocsPerLine: reading one more item costs the item's own
// allocations, and no more: a check of each line's error that moved a
// variable to the heap cost one allocation a line (found by
// BenchmarkReadItems: 20,246 → 30,246 allocations for 10,000 items).
func TestReadItemsAllocsPerLine(t *testing.T) {
	input := func(n int) []byte {
		var b bytes.Buffer
		for i := range n {
			fmt.Fprintf(&b, `{"id":"it-%d","content":"lorem ipsum %d","priority":%d}`+"\n", i, i, i%7)
		}
		return b.Bytes()
	}
	small, large := input(1000), input(3000)
	allocs := func(data []byte) float64 {
		return testing.AllocsPerRun(5, func() {
			if _, _, err := ReadItems(bytes.NewReader(data), "t", ReadOptions{DefaultPriority: 10}); err != nil {
				t.Fatal(err)
			}
		})
	}
	perLine := (allocs(large) - allocs(small)) / 2000
	t.Logf("%.2f allocations per item line", perLine)
	// One allocation a line, as before the line-size bound came in; the
	// check of the line's error adds none.
	if perLine > 1.1 {
		t.Errorf("%.2f allocations per item line, want at most 1", perLine)
	}
}
