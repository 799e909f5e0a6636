// Package svgplot draws line charts as hand-written SVG: one polyline per
// series over a shared x axis (1, 2, 3, …), labelled axes with round ticks,
// and a legend. The output depends only on the input: no clock, no
// randomness, numbers printed with fixed precision.
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
	width, height            = 800, 480
	left, right, top, bottom = 80, 170, 50, 60
)

// palette holds distinguishable colours, used in series order.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"}

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
	// Lines and legend.
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
		fmt.Fprintf(bw, `<polyline fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n", color, pts.String())
		ly := top + 10 + 20*i
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>`+"\n", width-right+15, ly, width-right+40, ly, color)
		fmt.Fprintf(bw, `<text x="%d" y="%d">%s</text>`+"\n", width-right+46, ly+4, esc(s.Name))
	}
	bw.WriteString("</svg>\n")
	return bw.Flush()
}
