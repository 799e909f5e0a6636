// Package checked is integer arithmetic that reports when a result does
// not fit an int instead of wrapping around. Token counts are summed with
// it wherever a figure comes from input (items, transcript usage, flags):
// a total that wrapped would look like an answer and be wrong.
package checked

import (
	"fmt"
	"math"
	"math/bits"
)

// OverflowError is a sum of token figures that does not fit an int.
// Packages that sum token counts return it (engine.TokenOverflowError is
// its exported name), so one errors.As finds it
// whichever package did the sum.
type OverflowError struct {
	// What names the figures being summed ("the items' tokens").
	What string
}

func (e *OverflowError) Error() string {
	return fmt.Sprintf("%s add up to more than %d tokens", e.What, math.MaxInt)
}

// AddTokens returns a + b, or an [*OverflowError] naming what when the sum
// does not fit an int.
func AddTokens(a, b int, what string) (int, error) {
	s, ok := Add(a, b)
	if !ok {
		return 0, &OverflowError{What: what}
	}
	return s, nil
}

// Add returns a + b and whether the sum fits an int.
func Add(a, b int) (int, bool) {
	s := a + b
	// Overflow happened when a and b have the same sign and s the other.
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, false
	}
	return s, true
}

// Sub returns a − b and whether the difference fits an int.
func Sub(a, b int) (int, bool) {
	d := a - b
	// Overflow happened when a and b have different signs and d has b's.
	if (a >= 0) != (b >= 0) && (d >= 0) == (b >= 0) {
		return 0, false
	}
	return d, true
}

// Sum returns the sum of xs and whether it, and every partial sum on the
// way, fits an int.
func Sum(xs ...int) (int, bool) {
	s := 0
	for _, x := range xs {
		var ok bool
		if s, ok = Add(s, x); !ok {
			return 0, false
		}
	}
	return s, true
}

// Percent returns ⌊n·pct/100⌋ for n, pct ≥ 0, worked out in 128 bits,
// and whether the result fits an int. A negative n or pct is reported as
// not fitting.
func Percent(n, pct int) (int, bool) {
	if n < 0 || pct < 0 {
		return 0, false
	}
	hi, lo := bits.Mul64(uint64(n), uint64(pct))
	if hi >= 100 {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, 100)
	if q > math.MaxInt {
		return 0, false
	}
	return int(q), true
}
