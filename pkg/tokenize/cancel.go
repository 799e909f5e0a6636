package tokenize

import "context"

// Cancellation. Counting a long text takes a while (about a second for
// 10 MB with an exact encoding), so the long loops check a context: the
// piece loop of an [Encoding] and the merge of a long piece every few
// thousand steps, [CountReader] before each block it reads and each
// chunk it counts. A cancelled count returns the context's error and no
// count.

// ContextCounter is a [Counter] whose count can be stopped. The built-in
// counters implement it; [Count] works with any Counter.
type ContextCounter interface {
	Counter
	// CountContext is Count that returns ctx.Err() instead of a count once
	// ctx is done.
	CountContext(ctx context.Context, s string) (int, error)
}

// Count counts s with c, stopping early when ctx is done and c is a
// [ContextCounter]; other counters are checked before and after. It is
// the one way to count that can be stopped: [Counter.Count] is for short
// texts that need no context.
func Count(ctx context.Context, c Counter, s string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if cc, ok := c.(ContextCounter); ok {
		return cc.CountContext(ctx, s)
	}
	n := c.Count(s)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return n, nil
}

// CountContext is [Encoding.Count] that stops once ctx is done.
func (e *Encoding) CountContext(ctx context.Context, s string) (int, error) {
	return e.count(ctx.Done(), s, ctx.Err)
}

// CountContext is the estimate's Count, checked against ctx before and
// after: the estimate reads about 1 GB/s, so one call is short.
func (estimator) CountContext(ctx context.Context, s string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	n := EstimateTokens(s)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return n, nil
}
