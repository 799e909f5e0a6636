package report

import (
	"fmt"
	"strconv"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/pkg/window"
)

// costWhyLine is the line a [window.CostWhy] says: "rewrote the cache
// at 97 of 109 calls (full at 3), each ~180k tokens at the 1-hour write
// price: $12.34 more than full".
func costWhyLine(w *window.CostWhy) string {
	if w.Calls == 0 {
		return fmt.Sprintf("rewrote the cache at no call (full at %d): $%s more than full", w.FullCalls, prose.USD(w.ExtraUSD))
	}
	return fmt.Sprintf("rewrote the cache at %d of %d calls (full at %d), each ~%s tokens at the %s price: $%s more than full",
		w.Calls, w.Of, w.FullCalls, about(w.PerCall), w.Price, prose.USD(w.ExtraUSD))
}

// about writes n (≥ 0) with two significant digits and a k or M suffix
// (180k, 1.2M, 950).
func about(n int) string {
	p := 1
	for n/p >= 100 {
		p *= 10
	}
	r := (n + p/2) / p * p // two significant digits, half up
	switch {
	case r >= 1_000_000:
		return strconv.FormatFloat(float64(r)/1e6, 'f', -1, 64) + "M"
	case r >= 1000:
		return strconv.FormatFloat(float64(r)/1e3, 'f', -1, 64) + "k"
	}
	return strconv.Itoa(r)
}
