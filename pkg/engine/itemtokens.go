package engine

import (
	"context"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// ItemTokens is the size of it in tokens: its "token_count" when given,
// else its content counted with c.
func ItemTokens(ctx context.Context, c tokenize.Counter, it *Item) (int, error) {
	if it.TokenCount != nil {
		return *it.TokenCount, nil
	}
	return c.Count(ctx, it.Content)
}
