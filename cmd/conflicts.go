package cmd

import (
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/harpe-dev/harpe/internal/inputs"
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
	src, err := readConflictTexts(a, opts)
	if err != nil {
		return err
	}
	texts := src.Texts
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

	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.annotate {
			return inputError(src.WriteAnnotated(w, pairs))
		}
		rep := conflicts.NewReport(texts, pairs)
		if opts.format == "table" {
			header, rows, footer := rep.Table()
			return renderTable(w, header, rows, footer)
		}
		return writeFormatted(w, opts.format, rep)
	})
}

// readConflictTexts reads the inputs: items through the engine's reader
// (the rules every command shares: ids, blank lines, a byte order mark,
// timestamps), or one text a line with --lines. With --annotate it keeps
// every line to write back.
func readConflictTexts(a *app, opts *conflictsOptions) (*conflicts.Source, error) {
	src := &conflicts.Source{KeepLines: opts.annotate}
	if opts.lines {
		err := a.eachInput(opts.args, func(name string, r io.Reader) error {
			prefix := ""
			if len(opts.args) > 1 {
				prefix = name + ":"
			}
			return inputError(src.ReadLines(a.ctx, r, name, prefix))
		})
		return src, err
	}
	rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	err := a.eachInput(opts.args, func(name string, r io.Reader) error {
		head := &inputs.HeadReader{R: r}
		err := rd.ReadEach(a.ctx, head, name, func(l engine.Line) error {
			if it := l.Item; it != nil {
				src.AddItem(conflicts.Text{ID: it.ID, Content: it.Content, At: it.Timestamp}, it.Raw, l.BOM)
			} else if opts.annotate {
				src.AddOther(bytes.Clone(l.Raw), l.BOM)
			}
			return nil
		})
		if err != nil {
			return inputError(plainTextHint(name, head.Head(), err, "For one statement a line:\n  harpe conflicts --lines FILE"))
		}
		return nil
	})
	return src, err
}
