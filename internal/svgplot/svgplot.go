// Package svgplot draws line charts as hand-written SVG: one polyline per
// series over a shared x axis (1, 2, 3, …), labelled axes with round ticks,
// and a legend with an entry for every line drawn.
//
// Lines that coincide stay visible: series are drawn in the order given,
// each thinner than the one before and with its own dash pattern and point
// marker, so a line lying on another shows as a stripe inside it. Marks
// (events such as compactions) are drawn on their series' line, and a
// series may carry a level (a budget, a high-water mark) drawn as a
// horizontal line in its colour.
//
// The output depends only on the input: no clock, no randomness, numbers
// printed with fixed precision.
package svgplot

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Series is one line: Y[i] is drawn at x = i+1.
type Series struct {
	Name string
	Y    []float64
	// Marks are events drawn on the line, at their points.
	Marks []Mark
	// MarkLabel names the marks in the legend ("compaction").
	MarkLabel string
	// Level, when above 0, draws a horizontal line in the series' colour
	// at that value, named LevelLabel in the legend ("budget 5000").
	Level      float64
	LevelLabel string
}

// Mark is an event at point X (1-based, as drawn) of a series.
type Mark struct {
	X int
}

// Plot is a chart.
type Plot struct {
	Title, XLabel, YLabel string
	Series                []Series
	// Limit, when above 0, draws a dashed horizontal line at that value
	// (a context window), labelled LimitLabel.
	Limit      float64
	LimitLabel string
}

// Size of the drawing and of the plot area inside it.
const (
	width, height            = 860, 480
	left, right, top, bottom = 80, 230, 50, 60
)

// palette holds distinguishable colours, used in series order.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

// dashes are the series' dash patterns, in series order ("" is solid).
var dashes = []string{"", "8 3", "2 2", "10 3 2 3", "4 4", "1 3", "12 4 4 4", "6 2 1 2"}

// markers are the shapes drawn at a series' points, in series order.
var markers = []string{"circle", "square", "triangle", "diamond", "cross", "plus", "down", "bar"}

// strokeWidth is series i's line width: the first is the widest, so lines
// drawn later on top of it leave it visible around them.
func strokeWidth(i, n int) float64 {
	if n <= 1 {
		return 2
	}
	return 1.5 + 3*float64(n-1-i)/float64(n-1)
}

// marker draws shape at (x, y) with half-size r.
func marker(w io.Writer, shape string, x, y, r float64, color string, filled bool) {
	fill := "white"
	if filled {
		fill = color
	}
	switch shape {
	case "circle":
		fmt.Fprintf(w, `<circle cx="%s" cy="%s" r="%s" fill="%s" stroke="%s"/>`, num(x), num(y), num(r), fill, color)
	case "square":
		fmt.Fprintf(w, `<rect x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="%s"/>`, num(x-r), num(y-r), num(2*r), num(2*r), fill, color)
	case "triangle":
		fmt.Fprintf(w, `<polygon points="%s,%s %s,%s %s,%s" fill="%s" stroke="%s"/>`, num(x), num(y-r), num(x+r), num(y+r), num(x-r), num(y+r), fill, color)
	case "down":
		fmt.Fprintf(w, `<polygon points="%s,%s %s,%s %s,%s" fill="%s" stroke="%s"/>`, num(x-r), num(y-r), num(x+r), num(y-r), num(x), num(y+r), fill, color)
	case "diamond":
		fmt.Fprintf(w, `<polygon points="%s,%s %s,%s %s,%s %s,%s" fill="%s" stroke="%s"/>`, num(x), num(y-r), num(x+r), num(y), num(x), num(y+r), num(x-r), num(y), fill, color)
	case "cross":
		fmt.Fprintf(w, `<path d="M%s %sL%s %sM%s %sL%s %s" stroke="%s" stroke-width="2"/>`, num(x-r), num(y-r), num(x+r), num(y+r), num(x-r), num(y+r), num(x+r), num(y-r), color)
	case "plus":
		fmt.Fprintf(w, `<path d="M%s %sL%s %sM%s %sL%s %s" stroke="%s" stroke-width="2"/>`, num(x-r), num(y), num(x+r), num(y), num(x), num(y-r), num(x), num(y+r), color)
	default: // bar
		fmt.Fprintf(w, `<path d="M%s %sL%s %s" stroke="%s" stroke-width="3"/>`, num(x), num(y-r), num(x), num(y+r), color)
	}
	io.WriteString(w, "\n")
}

// markerStep is how often, in points, a series of n points shows its
// marker: every point up to 24, else about 12 markers per series.
func markerStep(n int) int {
	if n <= 24 {
		return 1
	}
	return (n + 11) / 12
}

// niceStep returns a step of 1, 2 or 5 × 10^k giving about n ticks over span.
func niceStep(span float64, n int) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// label prints a tick value without a fraction when it is whole.
func label(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func esc(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

// Write draws the plot as an SVG document.
func (p Plot) Write(w io.Writer) error {
	bw := bufio.NewWriter(w)
	n := 0
	ymax := 0.0
	for _, s := range p.Series {
		n = max(n, len(s.Y))
		for _, v := range s.Y {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				ymax = max(ymax, v)
			}
		}
	}
	if p.Limit > 0 {
		ymax = max(ymax, p.Limit)
	}
	for _, s := range p.Series {
		if s.Level > 0 && !math.IsInf(s.Level, 0) {
			ymax = max(ymax, s.Level)
		}
	}
	ystep := niceStep(ymax, 5)
	ytop := math.Ceil(ymax/ystep) * ystep
	if ytop <= 0 {
		ytop = ystep
	}
	xmax := float64(max(n, 2))
	xstep := niceStep(xmax-1, 8)
	pw, ph := float64(width-left-right), float64(height-top-bottom)
	px := func(x float64) float64 { return float64(left) + (x-1)/(xmax-1)*pw }
	py := func(y float64) float64 { return float64(top) + ph - y/ytop*ph }

	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(bw, `<text x="%d" y="28" font-size="16" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, esc(p.Title))
	// Grid and y ticks.
	for y := 0.0; y <= ytop+ystep/2; y += ystep {
		fmt.Fprintf(bw, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#e0e0e0"/>`+"\n", left, num(py(y)), width-right, num(py(y)))
		fmt.Fprintf(bw, `<text x="%d" y="%s" text-anchor="end">%s</text>`+"\n", left-6, num(py(y)+4), label(y))
	}
	// x ticks: 1, then every multiple of the step.
	xstep = max(1, math.Round(xstep))
	ticks := []float64{1}
	for x := xstep; x <= xmax; x += xstep {
		if x > 1 {
			ticks = append(ticks, x)
		}
	}
	for _, x := range ticks {
		fmt.Fprintf(bw, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="black"/>`+"\n", num(px(x)), height-bottom, num(px(x)), height-bottom+5)
		fmt.Fprintf(bw, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", num(px(x)), height-bottom+18, label(x))
	}
	// Axes and their labels.
	fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, height-bottom, width-right, height-bottom)
	fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>`+"\n", left, top, left, height-bottom)
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, height-18, esc(p.XLabel))
	fmt.Fprintf(bw, `<text x="18" y="%d" text-anchor="middle" transform="rotate(-90 18 %d)">%s</text>`+"\n", top+int(ph)/2, top+int(ph)/2, esc(p.YLabel))
	if p.Limit > 0 {
		fmt.Fprintf(bw, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#555555" stroke-dasharray="6 4"/>`+"\n", left, num(py(p.Limit)), width-right, num(py(p.Limit)))
		fmt.Fprintf(bw, `<text x="%d" y="%s" text-anchor="end" fill="#555555">%s</text>`+"\n", width-right-4, num(py(p.Limit)-4), esc(p.LimitLabel))
	}
	// Levels first, under the lines.
	for i, s := range p.Series {
		if s.Level > 0 && !math.IsInf(s.Level, 0) {
			fmt.Fprintf(bw, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s" stroke-width="1" stroke-dasharray="3 3"/>`+"\n",
				left, num(py(s.Level)), width-right, num(py(s.Level)), palette[i%len(palette)])
		}
	}
	// Lines, widest first, each with its dash pattern and markers. The
	// markers of coinciding series are staggered along the line.
	ns := len(p.Series)
	for i, s := range p.Series {
		color := palette[i%len(palette)]
		var pts strings.Builder
		for j, v := range s.Y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if pts.Len() > 0 {
				pts.WriteByte(' ')
			}
			pts.WriteString(num(px(float64(j + 1))))
			pts.WriteByte(',')
			pts.WriteString(num(py(v)))
		}
		dash := ""
		if d := dashes[i%len(dashes)]; d != "" {
			dash = ` stroke-dasharray="` + d + `"`
		}
		fmt.Fprintf(bw, `<polyline fill="none" stroke="%s" stroke-width="%s"%s points="%s"/>`+"\n", color, num(strokeWidth(i, ns)), dash, pts.String())
		step := markerStep(len(s.Y))
		offset := 0
		if step > 1 && ns > 0 {
			offset = i * step / ns
		}
		for j := offset; j < len(s.Y); j += step {
			if v := s.Y[j]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				marker(bw, markers[i%len(markers)], px(float64(j+1)), py(v), 3, color, false)
			}
		}
		for _, m := range s.Marks {
			if m.X < 1 || m.X > len(s.Y) || math.IsNaN(s.Y[m.X-1]) || math.IsInf(s.Y[m.X-1], 0) {
				continue
			}
			marker(bw, markers[i%len(markers)], px(float64(m.X)), py(s.Y[m.X-1]), 5.5, color, true)
		}
	}
	// Legend: an entry for every line drawn.
	ly := top + 10
	entry := func(draw func(x1, x2, y int), text string) {
		draw(width-right+12, width-right+40, ly)
		fmt.Fprintf(bw, `<text x="%d" y="%d">%s</text>`+"\n", width-right+46, ly+4, esc(text))
		ly += 20
	}
	for i, s := range p.Series {
		color := palette[i%len(palette)]
		dash := ""
		if d := dashes[i%len(dashes)]; d != "" {
			dash = ` stroke-dasharray="` + d + `"`
		}
		entry(func(x1, x2, y int) {
			fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%s"%s/>`+"\n", x1, y, x2, y, color, num(strokeWidth(i, ns)), dash)
			marker(bw, markers[i%len(markers)], float64(x1+x2)/2, float64(y), 3, color, false)
		}, s.Name)
		if len(s.Marks) > 0 {
			label := s.MarkLabel
			if label == "" {
				label = "event"
			}
			entry(func(x1, x2, y int) {
				marker(bw, markers[i%len(markers)], float64(x1+x2)/2, float64(y), 5.5, color, true)
			}, label)
		}
		if s.Level > 0 && !math.IsInf(s.Level, 0) {
			entry(func(x1, x2, y int) {
				fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="1" stroke-dasharray="3 3"/>`+"\n", x1, y, x2, y, color)
			}, s.LevelLabel)
		}
	}
	if p.Limit > 0 {
		entry(func(x1, x2, y int) {
			fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#555555" stroke-dasharray="6 4"/>`+"\n", x1, y, x2, y)
		}, p.LimitLabel)
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}
