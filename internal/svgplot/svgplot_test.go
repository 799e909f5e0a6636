package svgplot

import (
	"bytes"
	"strings"
	"testing"
)

func TestNiceStep(t *testing.T) {
	tests := []struct {
		name string
		span float64
		n    int
		want float64
	}{
		{"27 in 5: 5.4 rounds up to 10", 27, 5, 10},
		{"100 in 5: 20", 100, 5, 20},
		{"12000 in 5: 2400 rounds up to 5000", 12000, 5, 5000},
		{"empty span", 0, 5, 1},
		{"7 in 8: 0.875 rounds up to 1", 7, 8, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := niceStep(tt.span, tt.n); got != tt.want {
				t.Errorf("niceStep(%v, %d) = %v, want %v", tt.span, tt.n, got, tt.want)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	tests := []struct {
		name   string
		plot   Plot
		want   []string
		absent []string
	}{
		{"no series", Plot{Title: "t"}, []string{"<svg ", "</svg>\n", ">0</text>"}, []string{"NaN", "<polyline"}},
		{"one point", Plot{Series: []Series{{Name: "a", Y: []float64{5}}}},
			// y top is 5 (step 1); the point sits at x = 80, y = 50.
			[]string{`points="80.0,50.0"`, ">a</text>"}, []string{"NaN", "Inf"}},
		// A limit of 8 over values up to 5: the top becomes 8 (step 2), the
		// dashed line sits at the top, y = 50.
		{"limit", Plot{Limit: 8, LimitLabel: "window 8", Series: []Series{{Name: "a", Y: []float64{5, 2}}}},
			[]string{`y1="50.0" x2="630" y2="50.0" stroke="#555555" stroke-dasharray="6 4"`, ">window 8</text>"}, nil},
		{"escaped", Plot{Title: "a<b & c", Series: []Series{{Name: `"q"`, Y: []float64{1, 2}}}},
			[]string{"a&lt;b &amp; c", "&quot;q&quot;"}, []string{"a<b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.plot.Write(&b); err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("missing %q in\n%s", w, b.String())
				}
			}
			for _, w := range tt.absent {
				if strings.Contains(b.String(), w) {
					t.Errorf("unexpected %q", w)
				}
			}
		})
	}
}
