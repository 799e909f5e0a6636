package engine

import (
	"fmt"
	"math"

	"github.com/harpe-dev/harpe/internal/checked"
)

// TokenOverflowError is a sum or product of token figures that does not fit
// an int. Sizes are summed with checked arithmetic throughout the package:
// a total that wraps around would be an answer that looks right and is
// not, so it is an error instead.
type TokenOverflowError struct {
	// What names the figure being computed ("the items' tokens").
	What string
}

func (e *TokenOverflowError) Error() string {
	return fmt.Sprintf("%s add up to more than %d tokens", e.What, math.MaxInt)
}

// AddTokens returns a + b, or a [*TokenOverflowError] naming what when the
// sum does not fit an int.
func AddTokens(a, b int, what string) (int, error) {
	s, ok := addInt(a, b)
	if !ok {
		return 0, &TokenOverflowError{What: what}
	}
	return s, nil
}

// addInt is a + b and whether it fits an int.
func addInt(a, b int) (int, bool) { return checked.Add(a, b) }

// percentOf is ⌊n·pct/100⌋ for n, pct ≥ 0, worked out in 128 bits, and
// whether the result fits an int.
func percentOf(n, pct int) (int, bool) { return checked.Percent(n, pct) }
