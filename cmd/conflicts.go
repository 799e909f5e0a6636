package cmd

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/conflicts"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/spf13/cobra"
)

// conflictsOptions are the flags of harpe conflicts.
type conflictsOptions struct {
	lines    bool
	annotate bool
	minScore float64
	maxPairs int
	format   string
	output   string
	args     []string
}

func newConflictsCmd(a *app) *cobra.Command {
	opts := &conflictsOptions{}
	c := &cobra.Command{
		Use:   "conflicts [FILE...]",
		Short: "Find texts that deny what another text states (experimental)",
		Long: `Find pairs of texts where one denies what another states, such as
"I live in Boston" and "I no longer live in Boston".

Input is context items (JSONL with "content", and optionally "id" and
"timestamp"), or one text per line with --lines. The report lists each pair
with the statement, the denial, the negation cue, the content words they
share and a score up to 1 (2 x shared words / words of both; pairs under
--min-score are dropped); ids are the items' "id", else L<line>.

Precision comes first: questions, conditionals ("if it doesn't rain"),
texts that are negated the same way, texts about different subjects, and
denials that say more than the statement are not reported. The command is
experimental.

--annotate writes the input back instead, every line as it came in except
that each denial's content gets a note naming the statement it contradicts
and the statement's date when it has a timestamp:
  I no longer live in Boston. [note: conflicts with "I live in Boston" (2023-05-01)]
Running --annotate on its own output changes nothing.
` + exitStatusHelp,
		Example: `  harpe conflicts items.jsonl
  harpe conflicts --lines --format table notes.txt
  harpe conflicts --annotate -o annotated.jsonl items.jsonl`,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.minScore < 0 || opts.minScore > 1 || math.IsNaN(opts.minScore) {
				return usageErrorf("--min-score: must be between 0 and 1, got %v", opts.minScore)
			}
			if opts.maxPairs < 1 {
				return usageErrorf("--max-pairs: must be at least 1, got %d", opts.maxPairs)
			}
			opts.format = a.reportFormat(opts.format, toStdout(opts.output) && !opts.annotate)
			if err := checkFormat(opts.format, "json", "yaml", "table"); err != nil {
				return err
			}
			if opts.annotate && c.Flags().Changed("format") {
				return usageErrorf("--format: --annotate writes the input back, not a report")
			}
			opts.args = args
			return runConflicts(a, opts)
		},
	}
	f := c.Flags()
	f.BoolVar(&opts.lines, "lines", false, "read one text per line instead of items JSONL")
	f.BoolVar(&opts.annotate, "annotate", false, "write the input back with a note after each denial")
	f.Float64Var(&opts.minScore, "min-score", conflicts.DefaultMinScore, "drop pairs scoring below `S` (0 to 1)")
	f.IntVar(&opts.maxPairs, "max-pairs", conflicts.DefaultMaxPairs, "report at most `N` pairs; the rest are counted on stderr")
	f.StringVarP(&opts.format, "format", "f", "", formatFlagHelp("table, json or yaml"))
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}

func runConflicts(a *app, opts *conflictsOptions) error {
	texts, lines, err := readConflictTexts(a, opts)
	if err != nil {
		return err
	}

	contents := make([]string, len(texts))
	for i, t := range texts {
		contents[i] = t.Content
	}
	minScore := opts.minScore
	if minScore == 0 {
		minScore = -1 // keep everything the rules accept
	}
	pairs, st, err := conflicts.Find(a.ctx, contents, conflicts.Options{MinScore: minScore, MaxPairs: opts.maxPairs})
	if err != nil {
		return err
	}
	if st.Cut > 0 {
		fmt.Fprintf(a.io.Err, "harpe: note: %d of %d pairs reported; the other %d are left out (--max-pairs %d)\n",
			len(pairs), st.Found, st.Cut, opts.maxPairs)
	}

	if opts.annotate {
		return a.writeAnnotated(opts, texts, lines, pairs)
	}

	rep := conflicts.NewReport(texts, pairs)
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			header, rows, footer := rep.Table()
			return renderTable(w, header, rows, footer)
		}
		return writeFormatted(w, opts.format, rep)
	})
}

// writeAnnotated writes the input back with the notes of
// [conflicts.Notes] after the texts that contradict another.
func (a *app) writeAnnotated(opts *conflictsOptions, texts []conflicts.Text, lines []conflictLine, pairs []conflicts.Pair) error {
	notes := conflicts.Notes(texts, pairs)
	var out bytes.Buffer
	for _, l := range lines {
		if l.bom {
			out.WriteString(utf8BOM)
		}
		ti := l.text
		if ti < 0 || notes[ti] == nil {
			out.Write(l.raw)
			out.WriteByte('\n')
			continue
		}
		t := texts[ti]
		content := conflicts.Annotate(t.Content, notes[ti])
		if opts.lines {
			out.WriteString(content)
		} else {
			updated, err := jsonl.SetField(l.raw, "content", jsonl.String(content))
			if err != nil {
				return inputError(fmt.Errorf("%s: %w", t.ID, err))
			}
			out.Write(updated)
		}
		out.WriteByte('\n')
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}

// conflictLine is one input line as --annotate writes it back: the text
// it holds (-1 for a blank line), its bytes, and whether a byte order mark
// came before it.
type conflictLine struct {
	text int
	raw  []byte
	bom  bool
}

// utf8BOM is the byte order mark an input may begin with.
const utf8BOM = "\xef\xbb\xbf"

// readConflictTexts reads the inputs: items through the engine's reader
// (the rules every command shares: ids, blank lines, a byte order mark,
// timestamps), or one text a line with --lines. With --annotate it keeps
// every line to write back.
func readConflictTexts(a *app, opts *conflictsOptions) ([]conflicts.Text, []conflictLine, error) {
	var texts []conflicts.Text
	var lines []conflictLine
	if !opts.lines {
		rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
		err := a.eachInput(opts.args, func(name string, r io.Reader) error {
			head := &inputs.HeadReader{R: r}
			err := rd.ReadEach(a.ctx, head, name, func(l engine.Line) error {
				if l.Item == nil {
					if opts.annotate {
						lines = append(lines, conflictLine{text: -1, raw: bytes.Clone(l.Raw), bom: l.BOM})
					}
					return nil
				}
				it := l.Item
				t := conflicts.Text{ID: it.ID, Content: it.Content, At: it.Timestamp}
				if opts.annotate {
					lines = append(lines, conflictLine{text: len(texts), raw: it.Raw, bom: l.BOM})
				}
				texts = append(texts, t)
				return nil
			})
			if err != nil {
				return inputError(plainTextHint(name, head.Head(), err, "For one statement a line:\n  harpe conflicts --lines FILE"))
			}
			return nil
		})
		return texts, lines, err
	}
	several := len(opts.args) > 1
	err := a.eachInput(opts.args, func(name string, r io.Reader) error {
		rd := jsonl.NewReader(r)
		for {
			if err := a.ctx.Err(); err != nil {
				return err
			}
			line, n, err := rd.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return inputError(fmt.Errorf("%s: %w", name, err))
			}
			l := conflictLine{text: len(texts)}
			if n == 1 && bytes.HasPrefix(line, []byte(utf8BOM)) {
				line, l.bom = line[len(utf8BOM):], true
			}
			if off := jsonl.InvalidUTF8(line); off >= 0 {
				return inputError(fmt.Errorf("%s:%d: %s", name, n, jsonl.UTF8Message(line, off)))
			}
			defID := "L" + strconv.Itoa(n)
			if several {
				defID = name + ":" + defID
			}
			t := conflicts.Text{ID: defID, Content: strings.TrimSuffix(string(line), "\r")}
			if opts.annotate {
				l.raw = bytes.Clone(line)
				lines = append(lines, l)
			}
			texts = append(texts, t)
		}
	})
	return texts, lines, err
}
