package pool

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync/atomic"
	"testing"
)

// numbers yields 0..n-1 (then err, when not nil), counting in taken how
// many values were taken and in stopped whether the consumer stopped it.
func numbers(n int, err error, taken *atomic.Int32, stopped *atomic.Bool) iter.Seq2[int, error] {
	return func(yield func(int, error) bool) {
		for i := range n {
			taken.Add(1)
			if !yield(i, nil) {
				stopped.Store(true)
				return
			}
		}
		if err != nil {
			yield(0, err)
		}
	}
}

// TestStreamOrderAndBound: results come in order whatever order the
// produce calls end in, and no more than ahead values are taken beyond
// the one being emitted.
func TestStreamOrderAndBound(t *testing.T) {
	for _, ahead := range []int{1, 3} {
		t.Run(fmt.Sprint(ahead), func(t *testing.T) {
			var taken atomic.Int32
			var stopped atomic.Bool
			var got []int
			err := Stream(context.Background(), numbers(20, nil, &taken, &stopped), ahead,
				func(i, v int) int { return v * 10 },
				func(i, u int) error {
					if n := int(taken.Load()); n > i+1+ahead {
						t.Errorf("emitting %d: %d values taken, want at most %d", i, n, i+1+ahead)
					}
					got = append(got, u)
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			for i, u := range got {
				if u != i*10 {
					t.Fatalf("result %d is %d, want %d", i, u, i*10)
				}
			}
			if len(got) != 20 {
				t.Fatalf("%d results, want 20", len(got))
			}
		})
	}
}

// TestStreamErrors: an error of the sequence comes after the values
// before it; an error of emit stops the sequence.
func TestStreamErrors(t *testing.T) {
	bad := errors.New("bad input")
	var taken atomic.Int32
	var stopped atomic.Bool
	n := 0
	err := Stream(context.Background(), numbers(3, bad, &taken, &stopped), 1,
		func(i, v int) int { return v }, func(int, int) error { n++; return nil })
	if !errors.Is(err, bad) || n != 3 {
		t.Errorf("got %v after %d values, want %v after 3", err, n, bad)
	}
	full := errors.New("disk full")
	taken.Store(0)
	err = Stream(context.Background(), numbers(100, nil, &taken, &stopped), 1,
		func(i, v int) int { return v }, func(i, _ int) error {
			if i == 2 {
				return full
			}
			return nil
		})
	if !errors.Is(err, full) || !stopped.Load() || taken.Load() > 5 {
		t.Errorf("got %v, stopped %v, %d taken; want %v, stopped, at most 5", err, stopped.Load(), taken.Load(), full)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Stream(ctx, numbers(5, nil, &taken, &stopped), 1, func(i, v int) int { return v },
		func(int, int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}
