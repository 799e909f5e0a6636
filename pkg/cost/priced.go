package cost

import (
	"encoding/json"
	"math"
)

// Priced is a figure worked out from prices (dollars, or a ratio of
// dollars). Where nothing of it had a price it is unknown: NaN, written
// as null in JSON, never 0 ([Priced.Known] tells).
type Priced float64

// Known reports whether the figure had a price to be worked out from.
func (p Priced) Known() bool { return !math.IsNaN(float64(p)) }

// Or is the figure, or alt where it is unknown.
func (p Priced) Or(alt float64) float64 {
	if !p.Known() {
		return alt
	}
	return float64(p)
}

// MarshalJSON writes the figure as a JSON number, or null when unknown.
func (p Priced) MarshalJSON() ([]byte, error) {
	if !p.Known() {
		return []byte("null"), nil
	}
	return json.Marshal(float64(p))
}
