package engine

import (
	"context"
	"runtime"

	"github.com/harpe-dev/harpe/internal/pool"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// countBatch is how many items one job of [preCount] counts: large enough
// that handing out jobs costs nothing next to counting them.
const countBatch = 1024

// preCount counts the content of the items that countItems will count,
// into tokens at their indices, several batches at a time, and returns
// which it counted (nil when it counted none). It only
// does so for many items, more than one processor, and the counters known
// to be safe for concurrent use (the estimate and the exact encodings): a
// [tokenize.Counter] in general need not be. The counts land at the
// items' indices, so nothing depends on the order the batches run in;
// countItems still adds them up in input order. A cancelled ctx leaves the
// rest uncounted, and countItems then returns ctx's error.
func preCount(ctx context.Context, items []Item, set settings, tokens []int) []bool {
	if len(items) < 2*countBatch || !concurrentCounter(set.counter) {
		return nil
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 {
		return nil
	}
	counted := make([]bool, len(items)) // not a named result: the closure would move it to the heap on every call
	pool.Run(ctx, pool.Indices((len(items)+countBatch-1)/countBatch), workers, func(j int) {
		for i := j * countBatch; i < min(len(items), (j+1)*countBatch); i++ {
			it := &items[i]
			if it.TokenCount != nil || (it.Confidential && set.remote) {
				continue
			}
			n, err := set.counter.Count(ctx, it.Content)
			if err != nil {
				return // ctx is done
			}
			tokens[i], counted[i] = n, true
		}
	}, nil)
	return counted
}

// concurrentCounter reports whether c is one of the counters documented as
// safe for concurrent use.
func concurrentCounter(c tokenize.Counter) bool {
	if c == tokenize.Estimate {
		return true
	}
	_, ok := c.(*tokenize.Encoding)
	return ok
}
