package engine

import (
	"github.com/harpe-dev/harpe/internal/checked"
)

// TokenOverflowError is a sum or product of token figures that does not fit
// an int. Sizes are summed with checked arithmetic throughout the package:
// a total that wraps around would be an answer that looks right and is
// not, so it is an error instead. Every package of harpe that sums token
// figures (transcript, cost, window) returns this one type.
type TokenOverflowError = checked.OverflowError

// AddTokens returns a + b, or a [*TokenOverflowError] naming what when the
// sum does not fit an int.
func AddTokens(a, b int, what string) (int, error) { return checked.AddTokens(a, b, what) }

// addInt is a + b and whether it fits an int.
func addInt(a, b int) (int, bool) { return checked.Add(a, b) }

// percentOf is ⌊n·pct/100⌋ for n, pct ≥ 0, worked out in 128 bits, and
// whether the result fits an int.
func percentOf(n, pct int) (int, bool) { return checked.Percent(n, pct) }
