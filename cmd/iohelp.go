package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/olekukonko/tablewriter"
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
		if arg == "-" {
			if err := fn(stdinName, a.io.In); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(arg)
		if err != nil {
			return inputError(fmt.Errorf("%s: %w", arg, pathErr(err)))
		}
		err = fn(arg, f)
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

// writeOutput runs fn against the destination: standard output when path is
// "" or "-", else a temporary file beside path that is renamed over it only
// when fn succeeds, so a failed run never leaves a half-written file.
// Commands compute their whole result before calling it, so nothing
// half-written reaches standard output either.
func (a *app) writeOutput(path string, fn func(w io.Writer) error) error {
	if path == "" || path == "-" {
		bw := bufio.NewWriterSize(a.io.Out, 64<<10)
		if err := fn(bw); err != nil {
			return err
		}
		return bw.Flush()
	}
	return writeFileAtomic(path, fn)
}

// writeFileAtomic writes path through a temporary file and a rename.
func writeFileAtomic(path string, fn func(w io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp*")
	if err != nil {
		return usageErrorf("%s: %v", path, pathErr(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 64<<10)
	if err = fn(bw); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	if err = f.Close(); err != nil {
		return usageErrorf("%s: %v", path, err)
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return usageErrorf("%s: %v", path, pathErr(err))
	}
	return nil
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

// renderTable draws a table that fits an 80-column terminal: cells wrap
// when the widest row would not fit. footer may be nil.
func renderTable(w io.Writer, header []string, rows [][]string, footer []string) error {
	opts := []tablewriter.Option{
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Symbols: tw.NewSymbols(tw.StyleASCII),
		})),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithFooterAutoFormat(tw.Off),
		tablewriter.WithRowAutoWrap(tw.WrapBreak),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithFooterAlignmentConfig(tw.CellAlignment{Global: tw.AlignLeft}),
	}
	// Cap the width only when the table would not fit: with a cap,
	// tablewriter wraps every column at an even share of it, even when the
	// natural widths would fit.
	if naturalWidth(header, rows, footer) > 80 {
		opts = append(opts, tablewriter.WithMaxWidth(80))
	}
	t := tablewriter.NewTable(w, opts...)
	hdr := make([]any, len(header))
	for i, h := range header {
		hdr[i] = h
	}
	t.Header(hdr...)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	if footer != nil {
		ft := make([]any, len(footer))
		for i, f := range footer {
			ft[i] = f
		}
		t.Footer(ft...)
	}
	return t.Render()
}

// naturalWidth is the width of the table drawn without wrapping: the widest
// cell of each column plus one space of padding on each side and the
// borders. Wide (East Asian) characters count two columns.
func naturalWidth(header []string, rows [][]string, footer []string) int {
	widths := make([]int, len(header))
	measure := func(r []string) {
		for i, cell := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			for _, line := range strings.Split(cell, "\n") {
				n := 0
				for _, c := range line {
					n++
					if c >= 0x1100 {
						n++
					}
				}
				widths[i] = max(widths[i], n)
			}
		}
	}
	measure(header)
	for _, r := range rows {
		measure(r)
	}
	measure(footer)
	total := 1
	for _, w := range widths {
		total += w + 3
	}
	return total
}
