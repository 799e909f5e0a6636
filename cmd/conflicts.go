package cmd

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
	f.StringVarP(&opts.format, "format", "f", "", formatFlagHelp("table, json or yaml"))
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}

// conflictText is one input text: an item's id, content and date, or a
// line of --lines input.
type conflictText struct {
	id      string
	content string
	date    string // the timestamp's calendar day, "" when unknown
	raw     []byte // the line as read, for --annotate
}

// conflictReport is the JSON report of harpe conflicts.
type conflictReport struct {
	Texts int            `json:"texts"`
	Pairs []conflictPair `json:"pairs"`
}

type conflictPair struct {
	Statement         string   `json:"statement"`
	Denial            string   `json:"denial"`
	Cue               string   `json:"cue"`
	Shared            []string `json:"shared"`
	Score             float64  `json:"score"`
	StatementID       string   `json:"statement_id"`
	DenialID          string   `json:"denial_id"`
	StatementSentence string   `json:"statement_sentence"`
	DenialSentence    string   `json:"denial_sentence"`
}

func runConflicts(a *app, opts *conflictsOptions) error {
	texts, lines, err := readConflictTexts(a, opts)
	if err != nil {
		return err
	}

	contents := make([]string, len(texts))
	for i, t := range texts {
		contents[i] = t.content
	}
	minScore := opts.minScore
	if minScore == 0 {
		minScore = -1 // keep everything the rules accept
	}
	pairs, _, err := conflicts.FindStatsContext(a.ctx, contents, conflicts.Options{MinScore: minScore})
	if err != nil {
		return err
	}

	if opts.annotate {
		// One note per statement sentence: when the same sentence was
		// stated several times, the note names the last time (pairs come
		// in statement order within a denial).
		notes := make([][]string, len(texts))
		quoted := make([][]string, len(texts))
		for _, p := range pairs {
			n := conflicts.Note(p.StatementSentence, texts[p.Statement].date)
			if i := slices.Index(quoted[p.Denial], p.StatementSentence); i >= 0 {
				notes[p.Denial][i] = n
				continue
			}
			quoted[p.Denial] = append(quoted[p.Denial], p.StatementSentence)
			notes[p.Denial] = append(notes[p.Denial], n)
		}
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
			content := conflicts.Annotate(t.content, notes[ti])
			if opts.lines {
				out.WriteString(content)
			} else {
				updated, err := jsonl.SetField(t.raw, "content", jsonl.String(content))
				if err != nil {
					return inputError(fmt.Errorf("%s: %w", t.id, err))
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

	rep := conflictReport{Texts: len(texts), Pairs: make([]conflictPair, 0, len(pairs))}
	for _, p := range pairs {
		rep.Pairs = append(rep.Pairs, conflictPair{
			Statement:         texts[p.Statement].content,
			Denial:            texts[p.Denial].content,
			Cue:               p.Cue,
			Shared:            p.Shared,
			Score:             p.Score,
			StatementID:       texts[p.Statement].id,
			DenialID:          texts[p.Denial].id,
			StatementSentence: p.StatementSentence,
			DenialSentence:    p.DenialSentence,
		})
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return conflictsTable(w, rep)
		}
		return writeFormatted(w, opts.format, rep)
	})
}

// conflictsTable writes one row per pair: the denial's id, the id of the
// statement it contradicts, the cue, the shared words and the score. The
// JSON report has the texts and sentences; a table that fits 80 columns has
// no room for them.
func conflictsTable(w io.Writer, rep conflictReport) error {
	rows := make([][]string, 0, len(rep.Pairs))
	for _, p := range rep.Pairs {
		rows = append(rows, []string{
			p.DenialID,
			p.StatementID,
			p.Cue,
			clip(strings.Join(p.Shared, " "), 34),
			strconv.FormatFloat(p.Score, 'f', 2, 64),
		})
	}
	noun := "pairs"
	if len(rep.Pairs) == 1 {
		noun = "pair"
	}
	footer := []string{"", "", "", fmt.Sprintf("%d %s in %s", len(rep.Pairs), noun, plural(rep.Texts, "text")), ""}
	return renderTable(w, []string{"DENIAL", "DENIES", "CUE", "SHARED", "SCORE"}, rows, footer)
}

// clip shortens s to n characters, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
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
func readConflictTexts(a *app, opts *conflictsOptions) ([]conflictText, []conflictLine, error) {
	var texts []conflictText
	var lines []conflictLine
	if !opts.lines {
		rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
		err := a.eachInput(opts.args, func(name string, r io.Reader) error {
			head := &headReader{r: r}
			err := rd.ReadEach(a.ctx, head, name, func(l engine.Line) error {
				if l.Item == nil {
					if opts.annotate {
						lines = append(lines, conflictLine{text: -1, raw: bytes.Clone(l.Raw), bom: l.BOM})
					}
					return nil
				}
				it := l.Item
				t := conflictText{id: it.ID, content: it.Content, raw: it.Raw}
				if it.Timestamp != nil {
					// The calendar day in the timestamp's own offset (UTC
					// for Unix time).
					t.date = it.Timestamp.Format("2006-01-02")
				}
				if opts.annotate {
					lines = append(lines, conflictLine{text: len(texts), raw: it.Raw, bom: l.BOM})
				}
				texts = append(texts, t)
				return nil
			})
			if err != nil {
				return inputError(plainTextHint(name, head.head, err, "For one statement a line:\n  harpe conflicts --lines FILE"))
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
			t := conflictText{id: defID, content: strings.TrimSuffix(string(line), "\r")}
			if opts.annotate {
				l.raw = bytes.Clone(line)
				t.raw = l.raw
				lines = append(lines, l)
			}
			texts = append(texts, t)
		}
	})
	return texts, lines, err
}
