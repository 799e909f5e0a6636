// Package table draws the plain ASCII tables harpe prints:
//
//	+------+--------+
//	| ID   | TOKENS |
//	+------+--------+
//	| a    | 12     |
//	+------+--------+
//	| total| 12     |
//	+------+--------+
//
// A table is drawn for a width given as a value (the terminal's, or 80 for
// a file): there is no package state. Cells are escaped (see Escape), so no
// cell can move the cursor or change colours; columns keep their natural
// width when the table fits, otherwise the widest are narrowed and their
// cells wrapped at spaces (see Widths and Wrap). Widths are display
// columns: East Asian wide characters take two, and East Asian ambiguous
// ones take two too when [Options.EastAsian] is set.
package table

import (
	"github.com/harpe-dev/harpe/internal/termtext"

	"io"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/clipperhouse/displaywidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// Options says how a table is measured and drawn.
type Options struct {
	// Width is the number of columns the table is made to fit.
	Width int
	// EastAsian counts East Asian ambiguous-width characters as two
	// columns, as terminals in a CJK locale show them (see EastAsianFromEnv).
	EastAsian bool
}

// MinWidth is the fewest columns harpe's tables are drawn for: a report
// for a narrower terminal, or for none, fits MinWidth.
const MinWidth = 80

// AtLeastMin is o with its Width raised to [MinWidth] when below it (0
// included): how the reports of pkg/ draw their tables, whatever width
// their caller gives.
func (o Options) AtLeastMin() Options {
	o.Width = max(o.Width, MinWidth)
	return o
}

// Width is the display width of s: the sum of its runes' widths.
func (o Options) width(s string) int {
	dw := displaywidth.Options{EastAsianWidth: o.EastAsian}
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			n++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		n += dw.Rune(r)
		i += size - 1
	}
	return n
}

// StringWidth is the display width of s (see Options).
func (o Options) StringWidth(s string) int { return o.width(s) }

// Render writes the table of header, rows and footer (nil for none) to w.
// A row with fewer cells than the widest is padded with empty ones.
func Render(w io.Writer, o Options, header []string, rows [][]string, footer []string) error {
	header = escapeAll(header)
	esc := make([][]string, len(rows))
	for i, r := range rows {
		esc[i] = escapeAll(r)
	}
	rows = esc
	if footer != nil {
		footer = escapeAll(footer)
	}
	widths := o.Widths(header, rows, footer)
	// Cells past the header's count make columns of their own, unwrapped.
	for _, r := range rows {
		for len(widths) < len(r) {
			widths = append(widths, 0)
		}
	}
	for len(widths) < len(footer) {
		widths = append(widths, 0)
	}
	// Cells are wrapped to those widths, and each column is then as wide
	// as its widest wrapped line.
	wrapAll := func(cells []string) [][]string {
		if cells == nil {
			return nil
		}
		out := make([][]string, len(widths))
		for i := range widths {
			c := ""
			if i < len(cells) {
				c = o.Wrap(cells[i], widths[i])
			}
			// Each line is trimmed of spaces, as tablewriter did.
			out[i] = strings.Split(c, "\n")
			for j, l := range out[i] {
				out[i][j] = strings.TrimSpace(l)
			}
		}
		return out
	}
	wHeader, wFooter := wrapAll(header), wrapAll(footer)
	wRows := make([][][]string, 0, len(rows))
	for _, r := range rows {
		if len(r) > 0 { // a row of no cells is not drawn
			wRows = append(wRows, wrapAll(r))
		}
	}
	final := make([]int, len(widths))
	fit := func(cells [][]string) {
		for i, lines := range cells {
			for _, l := range lines {
				final[i] = max(final[i], o.width(l))
			}
		}
	}
	fit(wHeader)
	for _, r := range wRows {
		fit(r)
	}
	fit(wFooter)
	widths = final
	return drawWith(w, o, widths, wHeader, wRows, wFooter)
}

// drawing serializes tablewriter's drawings, which share its width setting.
var drawing sync.Mutex

// drawWith is draw; a test swaps in the reference drawing.
var drawWith = draw

// draw writes the table of cells already escaped and wrapped to widths
// with tablewriter: ASCII borders, every cell left-aligned, tablewriter's
// own formatting and wrapping off (harpe's are done). Cells are padded to
// their column's width here, measured as harpe measures them, so
// tablewriter's measure of a wide or ambiguous character never moves a
// border.
func draw(w io.Writer, o Options, widths []int, header [][]string, rows [][][]string, footer [][]string) error {
	cells := func(c [][]string) []any {
		out := make([]any, len(widths))
		for i, lines := range c {
			padded := make([]string, len(lines))
			for j, l := range lines {
				padded[j] = l + strings.Repeat(" ", widths[i]-o.width(l))
			}
			out[i] = strings.Join(padded, "\n")
		}
		return out
	}
	// tablewriter measures with a setting of its own package: the same
	// as harpe's here, for the length of the drawing.
	drawing.Lock()
	defer drawing.Unlock()
	twwidth.SetEastAsian(o.EastAsian)
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithFooterAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithFooterAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft}),
		tablewriter.WithTrimSpace(tw.Off),
	)
	t.Header(cells(header)...)
	for _, r := range rows {
		if err := t.Append(cells(r)...); err != nil {
			return err
		}
	}
	if footer != nil {
		t.Footer(cells(footer)...)
	}
	return t.Render()
}

func escapeAll(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = Escape(c)
	}
	return out
}

// Escape shows what a terminal would act on as visible text; see
// [termtext.Escape], which every message harpe prints uses too.
func Escape(s string) string { return termtext.Escape(s) }

// Widths returns each column's width: its widest cell, unless the table
// would then be wider than o.Width, in which case the widest columns are
// capped at the largest width that makes it fit, wrapping their cells at
// spaces. No column is capped below the longest word it must keep whole
// (a run without spaces: an id, a path, a number). Every word is kept
// whole when all columns' longest words fit together; otherwise words are
// kept up to the largest length F for which the columns' longest words of
// at most F columns fit, and only words longer than F are cut.
func (o Options) Widths(header []string, rows [][]string, footer []string) []int {
	widths := make([]int, len(header))
	words := make([][]int, len(header)) // each column's word widths
	measure := func(cells []string) {
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			for _, line := range strings.Split(c, "\n") {
				widths[i] = max(widths[i], o.width(line))
				for _, word := range strings.Fields(line) {
					words[i] = append(words[i], o.width(word))
				}
			}
		}
	}
	measure(header)
	for _, r := range rows {
		measure(r)
	}
	measure(footer)
	// Borders and padding: "| " before each column, " |" after the last,
	// " | " between.
	room := o.Width - (3*len(widths) + 1)
	if sumOf(widths) <= room {
		return widths
	}
	// longestUpTo(i, f) is column i's longest word of at most f columns.
	longestUpTo := func(i, f int) int {
		best := 0
		for _, w := range words[i] {
			if w <= f && w > best {
				best = w
			}
		}
		return best
	}
	floorsAt := func(f int) []int {
		fl := make([]int, len(widths))
		for i := range fl {
			fl[i] = max(1, longestUpTo(i, f))
		}
		return fl
	}
	// The largest F whose kept words fit.
	lo, hi := 0, 0
	for _, w := range widths {
		hi = max(hi, w)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if sumOf(floorsAt(mid)) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	floors := floorsAt(lo)
	capped := func(c int) int {
		sum := 0
		for i, w := range widths {
			sum += min(w, max(c, floors[i]))
		}
		return sum
	}
	// Find the largest cap whose capped total fits.
	lo, hi = 1, 0
	for _, w := range widths {
		hi = max(hi, w)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if capped(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for i := range widths {
		widths[i] = min(widths[i], max(lo, floors[i]))
	}
	return widths
}

func sumOf(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// Wrap wraps s at spaces so no line is wider than width columns (wide East
// Asian characters take two); a word wider than width is broken after a
// '/' or '+', else after a '_', '-', '.' or ':', else cut.
func (o Options) Wrap(s string, width int) string {
	if width <= 0 || o.width(s) <= width && !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for li, para := range strings.Split(s, "\n") {
		if li > 0 {
			b.WriteByte('\n')
		}
		lineLen := 0
		for wi, word := range strings.Fields(para) {
			wl := o.width(word)
			if wi > 0 {
				if lineLen+1+wl <= width {
					b.WriteByte(' ')
					lineLen++
				} else {
					b.WriteByte('\n')
					lineLen = 0
				}
			}
			if wl <= width-lineLen {
				b.WriteString(word)
				lineLen += wl
				continue
			}
			var parts []string
			for _, p := range splitAfterAny(word, "/+") {
				if o.width(p) > width {
					parts = append(parts, splitAfterAny(p, "_-.:")...)
				} else {
					parts = append(parts, p)
				}
			}
			for _, part := range parts {
				pw := o.width(part)
				if lineLen+pw > width && lineLen > 0 && pw <= width {
					b.WriteByte('\n')
					lineLen = 0
				}
				if lineLen+pw <= width {
					b.WriteString(part)
					lineLen += pw
					continue
				}
				for _, r := range part {
					rw := o.width(string(r))
					if lineLen+rw > width && lineLen > 0 {
						b.WriteByte('\n')
						lineLen = 0
					}
					b.WriteRune(r)
					lineLen += rw
				}
			}
		}
	}
	return b.String()
}

// splitAfterAny splits s after every byte that is one of seps.
func splitAfterAny(s, seps string) []string {
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(seps, s[i]) >= 0 {
			parts = append(parts, s[start:i+1])
			start = i + 1
		}
	}
	if start < len(s) {
		parts = append(parts, s[start:])
	}
	return parts
}
