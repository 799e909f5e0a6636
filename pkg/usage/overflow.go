package usage

import "github.com/harpe-dev/harpe/internal/checked"

// sumInto adds b to *a, keeping the first overflow, an
// [*engine.TokenOverflowError] naming what, in *err.
func sumInto(a *int, b int, what string, err *error) {
	if *err != nil {
		return
	}
	*a, *err = checked.AddTokens(*a, b, what)
}
