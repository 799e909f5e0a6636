package pool

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// The results come in order whatever order the calls end in, and no
// more than ahead+1 calls run at once.
func TestStreamIndicesOrderAndBound(t *testing.T) {
	for _, ahead := range []int{0, 1, 3} {
		var running, most atomic.Int32
		var got []int
		err := streamIndices(context.Background(), 20, ahead, func(i int) int {
			r := running.Add(1)
			for {
				m := most.Load()
				if r <= m || most.CompareAndSwap(m, r) {
					break
				}
			}
			time.Sleep(time.Duration((i*7)%5) * time.Millisecond) // ends out of order
			running.Add(-1)
			return i * i
		}, func(i, v int) error {
			if v != i*i {
				t.Errorf("ahead %d: result %d is %d, want %d", ahead, i, v, i*i)
			}
			got = append(got, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 20 {
			t.Fatalf("ahead %d: %d results, want 20", ahead, len(got))
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("ahead %d: results in order %v", ahead, got)
			}
		}
		if m := most.Load(); m > int32(ahead+1) {
			t.Errorf("ahead %d: %d calls at once, want at most %d", ahead, m, ahead+1)
		}
	}
}

// emit's error ends the run: it is returned, the calls begun have ended
// by then, and none is started after.
func TestStreamIndicesStopsAtEmitError(t *testing.T) {
	stop := errors.New("stop")
	var started, ended atomic.Int32
	err := streamIndices(context.Background(), 100, 2, func(i int) int {
		started.Add(1)
		time.Sleep(time.Millisecond)
		ended.Add(1)
		return i
	}, func(i, _ int) error {
		if i == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("err %v, want %v", err, stop)
	}
	s, e := started.Load(), ended.Load()
	if s != e {
		t.Errorf("%d calls started, %d ended when Stream returned", s, e)
	}
	// Results 0..3 were taken; at most ahead (2) more were begun, and the
	// producer may have begun the next before it saw the end: ≤ 4+2+1.
	if s > 7 {
		t.Errorf("%d calls started, want at most 7", s)
	}
	time.Sleep(5 * time.Millisecond)
	if started.Load() != s {
		t.Errorf("a call started after Stream returned")
	}
}

func TestStreamIndicesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	err := streamIndices(ctx, 10, 1, func(i int) int { return i }, func(i, _ int) error {
		if i == 1 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestStreamIndicesNone(t *testing.T) {
	if err := streamIndices(context.Background(), 0, 1, func(int) int { panic("no call") }, func(int, int) error { panic("no result") }); err != nil {
		t.Error(err)
	}
}

// streamIndices is Stream over the indices 0..n-1 (what Ahead was before
// Stream took its place): these tests pin Stream's order, bound,
// errors and cancellation on a sequence of known length.
func streamIndices[T any](ctx context.Context, n, ahead int, produce func(i int) T, emit func(i int, v T) error) error {
	indices := func(yield func(int, error) bool) {
		for i := range n {
			if !yield(i, nil) {
				return
			}
		}
	}
	return Stream(ctx, indices, ahead, func(_, i int) T { return produce(i) }, emit)
}
