package engine

import (
	"errors"
	"fmt"
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
// safety margin. It is negative only for a budget that [Budget.Validate]
// rejects.
func (b Budget) Available() int {
	return b.Total - b.ReserveOutput - b.ReserveTools - b.SafetyMargin
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
	case b.Available() < 0:
		return fmt.Errorf("reserves (%d output + %d tools + %d safety margin = %d) exceed the budget of %d",
			b.ReserveOutput, b.ReserveTools, b.SafetyMargin,
			b.ReserveOutput+b.ReserveTools+b.SafetyMargin, b.Total)
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
// down.
func (a Amount) Of(base int) int {
	if a.Percent {
		return int(int64(a.N) * int64(base) / 100)
	}
	return a.N
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
