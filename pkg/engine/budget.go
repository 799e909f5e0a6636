package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Budget is a model call's token budget: the total window and what is set
// aside before any item is chosen.
type Budget struct {
	// Total is the whole context window, in tokens.
	Total int
	// ReserveOutput is kept free for the model's reply.
	ReserveOutput int
	// ReserveTools is kept free for tool definitions and calls.
	ReserveTools int
	// SafetyMargin is kept free against miscounting. Always-kept items may
	// grow into it (dynamic expansion); nothing else may.
	SafetyMargin int
}

// Available is what the items may take: Total minus the reserves and the
// safety margin. It is meaningful only for a budget that [Budget.Validate]
// accepts (for others it is negative, or math.MinInt when the reserves
// alone do not fit an int).
func (b Budget) Available() int {
	r, ok := b.reserves()
	if !ok || b.Total < 0 {
		return math.MinInt
	}
	return b.Total - r
}

// reserves is the sum of the reserves and the safety margin, and whether it
// fits an int (each of them ≥ 0).
func (b Budget) reserves() (int, bool) {
	if b.ReserveOutput < 0 || b.ReserveTools < 0 || b.SafetyMargin < 0 {
		return math.MinInt, true
	}
	r, ok := addInt(b.ReserveOutput, b.ReserveTools)
	if ok {
		r, ok = addInt(r, b.SafetyMargin)
	}
	return r, ok
}

// Validate reports a negative figure, or reserves (safety margin included)
// larger than the total.
func (b Budget) Validate() error {
	switch {
	case b.Total < 0:
		return fmt.Errorf("budget must be ≥ 0, got %d", b.Total)
	case b.ReserveOutput < 0:
		return fmt.Errorf("output reserve must be ≥ 0, got %d", b.ReserveOutput)
	case b.ReserveTools < 0:
		return fmt.Errorf("tools reserve must be ≥ 0, got %d", b.ReserveTools)
	case b.SafetyMargin < 0:
		return fmt.Errorf("safety margin must be ≥ 0, got %d", b.SafetyMargin)
	}
	if r, ok := b.reserves(); !ok {
		return fmt.Errorf("reserves (%d output + %d tools + %d safety margin) add up to more than %d and exceed the budget of %d",
			b.ReserveOutput, b.ReserveTools, b.SafetyMargin, math.MaxInt, b.Total)
	} else if r > b.Total {
		return fmt.Errorf("reserves (%d output + %d tools + %d safety margin = %d) exceed the budget of %d",
			b.ReserveOutput, b.ReserveTools, b.SafetyMargin, r, b.Total)
	}
	return nil
}

// Amount is a token figure given either as a count ("300") or as a whole
// percentage of some base ("5%"), as the safety margin and caps are.
type Amount struct {
	N       int  // the count, or the percentage when Percent is set
	Percent bool // N is a percentage
}

// Of resolves the amount against base: N itself, or N% of base rounded
// down. The percentage is worked out exactly (in 128 bits); a result that
// does not fit an int, possible only above 100%, is math.MaxInt, which
// [Budget.Validate] then refuses as a safety margin larger than the total
// (and which, as a cap, bounds nothing). A negative base counts as 0.
func (a Amount) Of(base int) int {
	if !a.Percent {
		return a.N
	}
	if a.N <= 0 || base <= 0 {
		return 0
	}
	v, ok := percentOf(base, a.N)
	if !ok {
		return math.MaxInt
	}
	return v
}

// String gives the amount back in the form ParseAmount reads.
func (a Amount) String() string {
	if a.Percent {
		return strconv.Itoa(a.N) + "%"
	}
	return strconv.Itoa(a.N)
}

// ParseAmount reads "N" (a whole number of tokens ≥ 0) or "N%" (a whole
// percentage ≥ 0).
func ParseAmount(s string) (Amount, error) {
	num, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	n, err := strconv.Atoi(num)
	if err != nil || n < 0 || strings.HasPrefix(num, "+") {
		if pct {
			return Amount{}, fmt.Errorf("want a whole percentage such as 5%%, got %q", s)
		}
		return Amount{}, fmt.Errorf("want a whole number of tokens ≥ 0 or a percentage such as 5%%, got %q", s)
	}
	return Amount{N: n, Percent: pct}, nil
}

// Cap bounds the tokens that the selected candidates of one dimension may
// take. Always-kept items do not count against it.
type Cap struct {
	Dimension string
	// Limit is a token count, or a percentage of the available budget.
	Limit Amount
}

// ParseCap reads "DIMENSION=N" or "DIMENSION=N%".
func ParseCap(s string) (Cap, error) {
	dim, val, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(dim) == "" {
		return Cap{}, errors.New("want DIMENSION=N or DIMENSION=N%, got " + strconv.Quote(s))
	}
	a, err := ParseAmount(val)
	if err != nil {
		return Cap{}, err
	}
	return Cap{Dimension: strings.TrimSpace(dim), Limit: a}, nil
}
