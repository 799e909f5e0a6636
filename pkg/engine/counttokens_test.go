package engine

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// manyItems is n items whose content is "w w … w" with i%7+1 words (the
// estimate counts a word as one token and ignores spaces), one in 10 with
// a token count of its own (5) and one in 13 confidential. It also returns
// the input tokens of a remote destination (confidential items withheld):
// 18,914 for 5,000 items.
func manyItems(n int) ([]Item, int) {
	items := make([]Item, n)
	want := 0
	for i := range items {
		words := i%7 + 1
		items[i] = Item{ID: fmt.Sprint("i", i), Content: strings.TrimSpace(strings.Repeat("w ", words)), Priority: 1 + i%9}
		n := words
		if i%10 == 0 {
			five := 5
			items[i].TokenCount = &five
			n = 5
		}
		items[i].Confidential = i%13 == 0
		if !items[i].Confidential {
			want += n
		}
	}
	return items, want
}

// TestPreCountSameReport checks that counting many items on several
// processors gives the report that counting them one after the other
// does, and the total worked out from the items.
func TestPreCountSameReport(t *testing.T) {
	items, want := manyItems(5000)
	run := func(procs int) *Report {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		r, err := Synthesize(context.Background(), items, Budget{Total: 6000}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, two := run(1), run(2)
	if one.Input.Tokens != want {
		t.Errorf("input tokens %d, want %d", one.Input.Tokens, want)
	}
	if !reflect.DeepEqual(one, two) {
		t.Error("the report on 2 processors differs from the one on 1")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if got := preCount(context.Background(), items, settings{counter: tokenize.Estimate}, make([]int, len(items))); got == nil {
		t.Error("preCount did not count 5000 items with the estimate on 2 processors")
	}
}

// oneAtATime is a counter that is not safe for concurrent use: it records
// whether two calls ever overlapped.
type oneAtATime struct{ busy, overlap atomic.Bool }

func (c *oneAtATime) Count(_ context.Context, s string) (int, error) {
	if !c.busy.CompareAndSwap(false, true) {
		c.overlap.Store(true)
	}
	n := tokenize.EstimateTokens(s)
	runtime.Gosched()
	c.busy.Store(false)
	return n, nil
}
func (c *oneAtATime) Name() string { return "one-at-a-time" }

// TestPreCountOnlySafeCounters checks that a counter of the caller's is
// called one item at a time, as before.
func TestPreCountOnlySafeCounters(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	items, want := manyItems(5000)
	c := &oneAtATime{}
	r, err := Synthesize(context.Background(), items, Budget{Total: 6000}, Options{Counter: c})
	if err != nil {
		t.Fatal(err)
	}
	if c.overlap.Load() {
		t.Error("the counter was called concurrently")
	}
	if r.Input.Tokens != want {
		t.Errorf("input tokens %d, want %d", r.Input.Tokens, want)
	}
}

// TestPreCountCancelled checks that a cancelled run stops with ctx's error.
func TestPreCountCancelled(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	items, _ := manyItems(5000)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Synthesize(ctx, items, Budget{Total: 6000}, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestItemTokensCancelled: once ctx is done ItemTokens returns its error
// and no count, even with a counter that does not look at ctx; an item
// that gives its token_count needs no counting.
func TestItemTokensCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if n, err := ItemTokens(ctx, bytesCounter{}, &Item{Content: "abc"}); !errors.Is(err, context.Canceled) || n != 0 {
		t.Errorf("got %d, %v; want 0, context.Canceled", n, err)
	}
	given := 7
	if n, err := ItemTokens(ctx, bytesCounter{}, &Item{Content: "abc", TokenCount: &given}); err != nil || n != 7 {
		t.Errorf("token_count: got %d, %v; want 7, nil", n, err)
	}
	if n, err := ItemTokens(context.Background(), bytesCounter{}, &Item{Content: "abc"}); err != nil || n != 3 {
		t.Errorf("open context: got %d, %v; want 3, nil", n, err)
	}
}
