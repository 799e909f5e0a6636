package pool

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestRun: every job runs once, at most workers at a time.
func TestRun(t *testing.T) {
	jobs := []int{4, 0, 7, 2, 9, 1}
	var mu sync.Mutex
	var ran []int
	var now, peak atomic.Int32
	Run(context.Background(), jobs, 2, func(j int) {
		n := now.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		mu.Lock()
		ran = append(ran, j)
		mu.Unlock()
		now.Add(-1)
	}, nil)
	slices.Sort(ran)
	if want := []int{0, 1, 2, 4, 7, 9}; !slices.Equal(ran, want) {
		t.Errorf("ran %v, want %v", ran, want)
	}
	if peak.Load() > 2 {
		t.Errorf("%d at once, want at most 2", peak.Load())
	}
}

// TestRunCancelled: once the context is done, jobs not started are
// skipped, each once.
func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var ran, skipped atomic.Int32
	Run(ctx, []int{0, 1, 2}, 0, func(int) { ran.Add(1) }, func(int) { skipped.Add(1) })
	if ran.Load() != 0 || skipped.Load() != 3 {
		t.Errorf("ran %d, skipped %d; want 0, 3", ran.Load(), skipped.Load())
	}
}

func ExampleRun() {
	squares := make([]int, 4)
	Run(context.Background(), []int{0, 1, 2, 3}, 2, func(j int) { squares[j] = j * j }, nil)
	fmt.Println(squares)
	// Output: [0 1 4 9]
}

// TestFeed: every value sent is handled once before Close returns.
func TestFeed(t *testing.T) {
	var sum atomic.Int64
	f := NewFeed(3, func(v int) { sum.Add(int64(v)) })
	for v := 1; v <= 100; v++ {
		f.Send(v)
	}
	f.Close()
	if got := sum.Load(); got != 5050 { // 100·101/2
		t.Fatalf("sum %d, want 5050", got)
	}
}

func TestIndices(t *testing.T) {
	for _, tt := range []struct {
		n    int
		want []int
	}{{0, []int{}}, {1, []int{0}}, {3, []int{0, 1, 2}}} {
		if got := Indices(tt.n); !slices.Equal(got, tt.want) || got == nil {
			t.Errorf("Indices(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
}
