package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/internal/termtext"
	"io"
	"os"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"gopkg.in/yaml.v3"
)

// stdinName is how standard input is named in messages and reports.
const stdinName = "stdin"

// eachInput calls fn for every input in order: the named files, or standard
// input when there are none or the name is "-". The name passed to fn is the
// one to use in error messages ("items.jsonl", or "stdin").
func (a *app) eachInput(args []string, fn func(name string, r io.Reader) error) error {
	if len(args) == 0 {
		args = []string{"-"}
	}
	if err := inputs.StdinOnce(args); err != nil {
		return usageErrorf("%v", err)
	}
	for _, arg := range args {
		if err := a.ctx.Err(); err != nil {
			return err
		}
		// Reads stop once the run is interrupted (ctxReader), so a reader
		// in pkg/ ends at its next read.
		if arg == "-" {
			if err := fn(stdinName, ctxReader{a.ctx, a.io.In}); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(arg)
		if err != nil {
			return inputError(fmt.Errorf("%s: %w", escapeControl(arg), pathErr(err)))
		}
		// A directory opens but cannot be read; say so once, by name.
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			return inputError(fmt.Errorf("%s: is a directory", escapeControl(arg)))
		}
		err = fn(arg, ctxReader{a.ctx, f})
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// pathErr drops the operation and path from an *os.PathError, since callers
// name the file themselves.
func pathErr(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// checkFormat validates --format against the formats a command offers.
func checkFormat(format string, valid ...string) error {
	for _, v := range valid {
		if format == v {
			return nil
		}
	}
	return usageErrorf("--format: unknown format %q; valid: %s", format, strings.Join(valid, ", "))
}

// writeJSON writes v as indented JSON followed by a newline. HTML
// characters are not escaped: reports quote user text as it is.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeJSONLine writes v as one compact JSON line.
func writeJSONLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// writeYAML writes v as YAML with the same field names and order as its
// JSON form: v is encoded to JSON first, so the json struct tags are the one
// description of the output.
func writeYAML(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	var node yaml.Node
	if err := yaml.Unmarshal(buf.Bytes(), &node); err != nil {
		return err
	}
	plainStyle(&node)
	ye := yaml.NewEncoder(w)
	ye.SetIndent(2)
	if err := ye.Encode(&node); err != nil {
		return err
	}
	return ye.Close()
}

// plainStyle drops the flow and quoting styles a JSON document carries, so
// the YAML reads as block YAML; the encoder still quotes where needed.
func plainStyle(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		n.Style = 0
		// Keep strings that would read back as another type quoted.
		var probe any
		if err := yaml.Unmarshal([]byte(n.Value), &probe); err != nil || fmt.Sprint(probe) != n.Value {
			n.Style = yaml.DoubleQuotedStyle
		}
		if _, isStr := probe.(string); !isStr {
			n.Style = yaml.DoubleQuotedStyle
		}
	} else {
		n.Style = 0
	}
	for _, c := range n.Content {
		plainStyle(c)
	}
}

// writeFormatted writes v as JSON or YAML by format name.
func writeFormatted(w io.Writer, format string, v any) error {
	if format == "yaml" {
		return writeYAML(w, v)
	}
	return writeJSON(w, v)
}

// minTableWidth is the width tables are made to fit when standard output is
// not a terminal, and the least they get when it is.
const minTableWidth = 80

// terminalColumns is the width of the terminal the report is written to, 0
// when it goes elsewhere (a pipe, a file named by -o). It is set once per
// run, before the command runs, from [IO.OutColumns].
var terminalColumns int

// tableWidth is the width tables are made to fit: the terminal's when
// standard output is one and wider than 80 columns, else 80.
func tableWidth() int { return max(minTableWidth, terminalColumns) }

// renderTable draws a table that fits the terminal (80 columns when
// standard output is not a terminal). Control characters in cells are
// shown escaped (\x1b, \n, …), so no cell can move the cursor, set the
// title or change colours. Columns keep their natural width when the table
// fits; otherwise the widest columns are narrowed just enough and their
// cells wrapped at spaces, and a word (an id, a path) is cut only when the
// words alone cannot fit. Widths are display columns, as tablewriter
// measures them. footer may be nil.
func renderTable(w io.Writer, header []string, rows [][]string, footer []string) error {
	return renderTableWidth(w, tableWidth(), header, rows, footer)
}

// renderTableWidth is renderTable for a given terminal width.
func renderTableWidth(w io.Writer, width int, header []string, rows [][]string, footer []string) error {
	header = escapeCells(header)
	esc := make([][]string, len(rows))
	for i, r := range rows {
		esc[i] = escapeCells(r)
	}
	rows = esc
	if footer != nil {
		footer = escapeCells(footer)
	}
	widths := columnWidths(width, header, rows, footer)
	wrap := func(cells []string) []any {
		out := make([]any, len(cells))
		for i, c := range cells {
			if i < len(widths) {
				c = wrapCell(c, widths[i])
			}
			out[i] = c
		}
		return out
	}
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Symbols: tw.NewSymbols(tw.StyleASCII),
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithFooterAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithFooterAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft}),
	)
	t.Header(wrap(header)...)
	for _, r := range rows {
		if err := t.Append(wrap(r)...); err != nil {
			return err
		}
	}
	if footer != nil {
		t.Footer(wrap(footer)...)
	}
	return t.Render()
}

// escapeCells returns cells with escapeControl applied to each.
func escapeCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = escapeControl(c)
	}
	return out
}

// escapeControl shows what a terminal would act on as visible text; see
// [termtext.Escape].
func escapeControl(s string) string { return termtext.Escape(s) }

// columnWidths returns each column's width: its widest cell, unless the
// table would then be wider than width, in which case the widest columns
// are capped at the largest width that makes it fit, wrapping their cells
// at spaces. No column is capped below the longest word it must keep whole
// (a run without spaces: an id, a path, a number). Every word is kept
// whole when all columns' longest words fit together; otherwise words are
// kept up to the largest length F for which the columns' longest words of
// at most F columns fit, and only words longer than F are cut.
func columnWidths(width int, header []string, rows [][]string, footer []string) []int {
	widths := make([]int, len(header))
	words := make([][]int, len(header)) // each column's word widths
	measure := func(cells []string) {
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			for _, line := range strings.Split(c, "\n") {
				widths[i] = max(widths[i], twwidth.Width(line))
				for _, word := range strings.Fields(line) {
					words[i] = append(words[i], twwidth.Width(word))
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
	room := width - (3*len(widths) + 1)
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

// wrapCell wraps s at spaces so no line is wider than width columns (wide
// East Asian characters take two); a word wider than width is cut.
func wrapCell(s string, width int) string {
	if width <= 0 || twwidth.Width(s) <= width && !strings.Contains(s, "\n") {
		return s
	}
	var b strings.Builder
	for li, para := range strings.Split(s, "\n") {
		if li > 0 {
			b.WriteByte('\n')
		}
		lineLen := 0
		for wi, word := range strings.Fields(para) {
			wl := twwidth.Width(word)
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
			// A word wider than the column: break it after a '/' (paths)
			// or '+' (strategy specs), else after a '_', '-', '.' or ':',
			// else cut it.
			var parts []string
			for _, p := range splitAfterAny(word, "/+") {
				if twwidth.Width(p) > width {
					parts = append(parts, splitAfterAny(p, "_-.:")...)
				} else {
					parts = append(parts, p)
				}
			}
			for _, part := range parts {
				pw := twwidth.Width(part)
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
					rw := twwidth.Width(string(r))
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
