package transcript

import (
	"errors"
	"fmt"

	"github.com/harpe-dev/harpe/internal/checked"
)

// Overflow: a sum of token figures that does not fit an int (a recorded
// usage whose parts add up past the largest int, or totals over calls,
// messages or sessions that do) is a *checked.OverflowError, exported as
// engine.TokenOverflowError. Every such sum in the package is checked,
// since a total that wrapped around would look like an answer. Where the
// input position is known, the error reaches the caller inside an
// [*Error] naming the input and line.

// addTokens is a + b, or an [*engine.TokenOverflowError] naming what.
func addTokens(a, b int, what string) (int, error) { return checked.AddTokens(a, b, what) }

// sumInto adds b to *a, keeping the first overflow in *err.
func sumInto(a *int, b int, what string, err *error) {
	if *err != nil {
		return
	}
	*a, *err = addTokens(*a, b, what)
}

// checkedPrompt is [Usage.Prompt], or an [*engine.TokenOverflowError] when the parts
// do not fit an int.
func (u *Usage) checkedPrompt() (int, error) {
	n, ok := checked.Sum(u.Input, u.CacheRead, u.CacheWrite)
	if !ok {
		return 0, &checked.OverflowError{What: fmt.Sprintf("the usage's input (%d), cache read (%d) and cache write (%d) tokens", u.Input, u.CacheRead, u.CacheWrite)}
	}
	return n, nil
}

// placeOverflow puts an [*engine.TokenOverflowError] that err carries, and no
// position yet, at line (when > 0) or path of the input name; other
// errors are returned as they are.
func placeOverflow(err error, name string, line int, path string) error {
	var oe *checked.OverflowError
	var pe *Error
	if err == nil || !errors.As(err, &oe) || errors.As(err, &pe) {
		return err
	}
	if line > 0 {
		path = ""
	}
	return &Error{Name: name, Line: line, Path: path, Err: err}
}
