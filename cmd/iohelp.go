package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
			return inputError(fmt.Errorf("%s: %w", arg, pathErr(err)))
		}
		// A directory opens but cannot be read; say so once, by name.
		if fi, err := f.Stat(); err == nil && fi.IsDir() {
			f.Close()
			return inputError(fmt.Errorf("%s: is a directory", arg))
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

// tableWidth is the terminal width tables are made to fit.
const tableWidth = 80

// renderTable draws a table that fits an 80-column terminal. Columns keep
// their natural width when the table fits; otherwise the widest columns are
// narrowed just enough and their cells wrapped at spaces (a word wider
// than its column is cut). Widths are display columns, as tablewriter
// measures them. footer may be nil.
func renderTable(w io.Writer, header []string, rows [][]string, footer []string) error {
	widths := columnWidths(header, rows, footer)
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

// columnWidths returns each column's width: its widest cell, unless the
// table would then be wider than tableWidth, in which case the widest
// columns are capped at the largest width that makes it fit.
func columnWidths(header []string, rows [][]string, footer []string) []int {
	widths := make([]int, len(header))
	measure := func(cells []string) {
		for i, c := range cells {
			if i >= len(widths) {
				break
			}
			for _, line := range strings.Split(c, "\n") {
				widths[i] = max(widths[i], twwidth.Width(line))
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
	room := tableWidth - (3*len(widths) + 1)
	total := 0
	for _, w := range widths {
		total += w
	}
	if total <= room {
		return widths
	}
	// Find the largest cap whose capped total fits.
	lo, hi := 1, 0
	for _, w := range widths {
		hi = max(hi, w)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		sum := 0
		for _, w := range widths {
			sum += min(w, mid)
		}
		if sum <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	for i := range widths {
		widths[i] = min(widths[i], lo)
	}
	return widths
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
			// A word wider than the column: break it after a '/' (paths),
			// else after a '_', '-' or '.', else cut it.
			var parts []string
			for _, p := range splitAfterAny(word, "/") {
				if twwidth.Width(p) > width {
					parts = append(parts, splitAfterAny(p, "_-.")...)
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
