package tokenize

import (
	"context"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// Cancellation. Counting a long text takes a while (about a second for
// 10 MB with an exact encoding), so every count takes a context: the
// built-in counters look at it once before they start, then the piece
// loop of an [Encoding] every few thousand pieces and the merge of a long
// piece every few thousand steps; the estimate (about 1 GB/s) looks again
// when it is done; [CountReader] looks before each block it reads and
// each chunk it counts. A look is a receive from ctx.Done() that does not
// wait, never one per token. A cancelled count returns the context's
// error and no count.

// Count returns the number of tokens tiktoken's encode_ordinary gives for
// s, or ctx's error and no count once ctx is done.
func (e *Encoding) Count(ctx context.Context, s string) (int, error) {
	done := ctx.Done()
	if cancel.Stopped(done) {
		return 0, ctx.Err()
	}
	n, ok := e.count(done, s)
	if !ok {
		return 0, ctx.Err()
	}
	return n, nil
}

// Count returns the estimate of s ([EstimateTokens]), looking at ctx
// before and after: the estimate reads about 1 GB/s, so one call is short.
func (estimator) Count(ctx context.Context, s string) (int, error) {
	done := ctx.Done()
	if cancel.Stopped(done) {
		return 0, ctx.Err()
	}
	n := EstimateTokens(s)
	if cancel.Stopped(done) {
		return 0, ctx.Err()
	}
	return n, nil
}
