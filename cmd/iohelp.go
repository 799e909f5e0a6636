package cmd

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/termtext"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/yamlout"
)

// stdinName is how standard input is named in messages and reports.
const stdinName = "stdin"

// utf8BOM is the byte order mark an input may begin with.
const utf8BOM = "\xef\xbb\xbf"

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
		// Reads stop once the run is interrupted (inputs.Reader), so a reader
		// in pkg/ ends at its next read.
		if arg == "-" {
			if err := fn(stdinName, inputs.Reader(a.ctx, a.io.In)); err != nil {
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
		err = fn(arg, inputs.Reader(a.ctx, f))
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

// writeFormatted writes v as JSON or YAML by format name.
func writeFormatted(w io.Writer, format string, v any) error {
	if format == "yaml" {
		return yamlout.Write(w, v)
	}
	return writeJSON(w, v)
}

// minTableWidth is the width tables are made to fit when standard output is
// not a terminal, and the least they get when it is.
const minTableWidth = table.MinWidth

// tableOut is an output that knows the options its tables are drawn with
// (the terminal's width when it goes to one; see app.tableOptions).
type tableOut interface{ tableOptions() table.Options }

// tableWriter is a buffered output with its table options.
type tableWriter struct {
	*bufio.Writer
	opts table.Options
}

func (w tableWriter) tableOptions() table.Options { return w.opts }

// tableOptionsOf is what tables written to w are drawn with: w's own
// options when it has them, else 80 columns.
func tableOptionsOf(w io.Writer) table.Options {
	if t, ok := w.(tableOut); ok {
		return t.tableOptions()
	}
	return table.Options{Width: minTableWidth}
}

// renderTable draws a table that fits w (80 columns when w does not go to
// a terminal). Control characters in cells are shown escaped (\x1b, \n,
// …), so no cell can move the cursor, set the title or change colours.
// Columns keep their natural width when the table fits; otherwise the
// widest columns are narrowed just enough and their cells wrapped at
// spaces, and a word (an id, a path) is cut only when the words alone
// cannot fit. Widths are display columns. footer may be nil. See
// internal/table.
func renderTable(w io.Writer, header []string, rows [][]string, footer []string) error {
	return table.Render(w, tableOptionsOf(w), header, rows, footer)
}

// escapeControl shows what a terminal would act on as visible text; see
// [termtext.Escape].
func escapeControl(s string) string { return termtext.Escape(s) }

// setMaxRecord applies --max-record to every JSON Lines reader of the run.
func (a *app) setMaxRecord() error {
	if a.maxRecord < 0 || a.maxRecord > 1<<20 {
		return usageErrorf("--max-record: must be between 0 (no limit) and 1048576 (MiB), got %d", a.maxRecord)
	}
	jsonl.SetDefaultMaxLine(int64(a.maxRecord) << 20)
	return nil
}
