package window

import (
	"context"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// countText is c's count of s, a text of one message or a placeholder:
// with a context that is never done a [tokenize.Counter] returns no
// error.
func countText(c tokenize.Counter, s string) int {
	n, _ := c.Count(context.Background(), s)
	return n
}
