package cmd

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

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

// conflictText is one input text: an item's id, content and date, or a
// line of --lines input.
type conflictText struct {
	id      string
	content string
	date    string     // the timestamp's calendar day, "" when unknown
	at      *time.Time // the timestamp, nil when unknown
	raw     []byte     // the line as read, for --annotate
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
	// Later is "statement" when the timestamps show the statement was
	// made after the denial (the statement then revises the denial);
	// omitted otherwise.
	Later string `json:"later,omitempty"`
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
			Later:             laterOf(texts[p.Statement], texts[p.Denial]),
		})
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return conflictsTable(w, rep)
		}
		return writeFormatted(w, opts.format, rep)
	})
}

// laterOf is "statement" when both texts have a timestamp and the
// statement's is after the denial's, else "".
func laterOf(statement, denial conflictText) string {
	if statement.at != nil && denial.at != nil && statement.at.After(*denial.at) {
		return "statement"
	}
	return ""
}

// writeAnnotated writes the input back with a note after each text that
// contradicts an earlier one: the denial, naming the statement, or, when
// the timestamps show the statement came after the denial, the statement,
// naming the denial.
func (a *app) writeAnnotated(opts *conflictsOptions, texts []conflictText, lines []conflictLine, pairs []conflicts.Pair) error {
	// One note per quoted sentence: when the same sentence was said
	// several times, the note names the last time (by timestamp, else in
	// input order; pairs come in statement order within a denial).
	notes := make([][]string, len(texts))
	quoted := make([][]string, len(texts))
	from := make([][]int, len(texts)) // the text each note quotes
	for _, p := range pairs {
		bearer, other, sentence := p.Denial, p.Statement, p.StatementSentence
		if laterOf(texts[p.Statement], texts[p.Denial]) != "" {
			bearer, other, sentence = p.Statement, p.Denial, p.DenialSentence
		}
		n := conflicts.Note(sentence, texts[other].date)
		if i := slices.Index(quoted[bearer], sentence); i >= 0 {
			prev := texts[from[bearer][i]].at
			if prev == nil || texts[other].at == nil || !texts[other].at.Before(*prev) {
				notes[bearer][i], from[bearer][i] = n, other
			}
			continue
		}
		quoted[bearer] = append(quoted[bearer], sentence)
		notes[bearer] = append(notes[bearer], n)
		from[bearer] = append(from[bearer], other)
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
			head := &inputs.HeadReader{R: r}
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
					t.at = it.Timestamp
				}
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
