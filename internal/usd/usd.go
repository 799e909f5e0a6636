// Package usd holds the one rule by which harpe rounds sums of dollar
// amounts, shared by the packages that price recorded usage.
package usd

import "math"

// Round rounds a sum of dollar amounts to 1e-10 dollars, which removes
// the binary floating-point residue of adding token costs (0.24715105, not
// 0.24715104999999998) and keeps every digit a price can give: a price
// per million tokens with up to four decimals makes a token cost a whole
// number of 1e-10 dollars. Amounts of 10^5 dollars or more, where 1e-10
// is near float64's resolution, are returned as they are.
func Round(x float64) float64 {
	if math.Abs(x) >= 1e5 {
		return x
	}
	return math.Round(x*1e10) / 1e10
}
