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

// Two series with the same points stay distinguishable: the first is drawn
// wider, each has its own dash pattern and marker shape, and both have a
// legend entry.
func TestCoincidingSeriesStayVisible(t *testing.T) {
	p := Plot{Series: []Series{{Name: "a", Y: []float64{1, 2, 3}}, {Name: "b", Y: []float64{1, 2, 3}}}}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// Widths from strokeWidth: 1.5 + 3*(n-1-i)/(n-1) gives 4.5 then 1.5.
	for _, want := range []string{
		`<polyline fill="none" stroke="#1f77b4" stroke-width="4.5" points=`,
		`<polyline fill="none" stroke="#d62728" stroke-width="1.5" stroke-dasharray="8 3" points=`,
		`<circle `, `<rect x=`, ">a</text>", ">b</text>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	// The wide line comes first, so the thin one is drawn on top of it.
	if strings.Index(out, `stroke-width="4.5" points`) > strings.Index(out, `stroke-width="1.5" stroke-dasharray`) {
		t.Error("the wider line is drawn after the thinner one")
	}
}

func TestMarksAndLevels(t *testing.T) {
	// Values up to 8, level 10: the top is 10 (step 2), so y = 420 - v/10*370.
	p := Plot{Series: []Series{{Name: "summ", Y: []float64{4, 8, 2}, Marks: []Mark{{X: 3}}, MarkLabel: "compaction",
		Level: 10, LevelLabel: "high water 10"}}}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		// The level at the top of the plot area, y = 50, in the series' colour.
		`<line x1="80" y1="50.0" x2="630" y2="50.0" stroke="#1f77b4" stroke-width="1" stroke-dasharray="3 3"/>`,
		// The mark at point 3 (x = 630, y = 420 - 2/10*370 = 346), filled, r 5.5.
		`<circle cx="630.0" cy="346.0" r="5.5" fill="#1f77b4"`,
		">compaction</text>", ">high water 10</text>", ">summ</text>",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestMarkerStep(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{1, 1}, {24, 1}, {25, 3}, {195, 17}} {
		if got := markerStep(tt.n); got != tt.want {
			t.Errorf("markerStep(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}
