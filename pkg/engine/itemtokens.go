package engine

import (
	"context"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// ItemTokens is the size of it in tokens: its "token_count" when given,
// else its content counted with c. Once ctx is done it returns ctx's
// error, whether or not c looks at ctx.
func ItemTokens(ctx context.Context, c tokenize.Counter, it *Item) (int, error) {
	if it.TokenCount != nil {
		return *it.TokenCount, nil
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return c.Count(ctx, it.Content)
}
