package cost

import (
	"encoding/json"
	"math"
	"testing"
)

// TestPriced: a figure with a price is itself, written as a number; one
// without (NaN) is unknown, written as null, never 0.
func TestPriced(t *testing.T) {
	for _, tt := range []struct {
		p     Priced
		known bool
		or    float64
		json  string
	}{
		{Priced(1.25), true, 1.25, "1.25"},
		{Priced(0), true, 0, "0"},
		{Priced(math.NaN()), false, -1, "null"},
	} {
		b, err := json.Marshal(tt.p)
		if err != nil {
			t.Fatal(err)
		}
		if tt.p.Known() != tt.known || tt.p.Or(-1) != tt.or || string(b) != tt.json {
			t.Errorf("%v: known %t, Or(-1) %v, JSON %s; want %t, %v, %s", float64(tt.p), tt.p.Known(), tt.p.Or(-1), b, tt.known, tt.or, tt.json)
		}
	}
}
