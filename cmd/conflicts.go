package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/conflicts"
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
	f.StringVarP(&opts.format, "format", "f", "json", "report format: json, yaml or table")
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
	var texts []conflictText
	// lines has a slot per input line, blank lines included, so that
	// --annotate writes every line back.
	var lines []int   // index into texts, or -1 for a blank line
	var raws [][]byte // the lines as read, with --annotate
	seen := map[string]string{}
	several := len(opts.args) > 1
	err := a.eachInput(opts.args, func(name string, r io.Reader) error {
		rd := jsonl.NewReader(r)
		for {
			line, n, err := rd.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return inputError(fmt.Errorf("%s: %w", name, err))
			}
			var raw []byte // kept only to write the line back
			if opts.annotate {
				raw = bytes.Clone(line)
				raws = append(raws, raw)
			}
			defID := "L" + strconv.Itoa(n)
			if several {
				defID = name + ":" + defID
			}
			if off := jsonl.InvalidUTF8(line); off >= 0 {
				return inputError(fmt.Errorf("%s:%d: %s", name, n, jsonl.UTF8Message(line, off)))
			}
			if opts.lines {
				lines = append(lines, len(texts))
				texts = append(texts, conflictText{id: defID, content: strings.TrimSuffix(string(line), "\r"), raw: raw})
				continue
			}
			if len(bytes.TrimSpace(line)) == 0 {
				lines = append(lines, -1)
				continue
			}
			t, err := decodeConflictItem(line, defID)
			if err != nil {
				return inputError(fmt.Errorf("%s:%d%w", name, n, err))
			}
			where := fmt.Sprintf("line %d", n)
			if several {
				where = fmt.Sprintf("%s:%d", name, n)
			}
			if first, dup := seen[t.id]; dup {
				return inputError(fmt.Errorf("%s:%d: duplicate \"id\" %q (first on %s)", name, n, t.id, first))
			}
			seen[t.id] = where
			t.raw = raw
			lines = append(lines, len(texts))
			texts = append(texts, t)
		}
	})
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
	pairs := conflicts.Find(contents, conflicts.Options{MinScore: minScore})

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
		for li, ti := range lines {
			if ti < 0 || notes[ti] == nil {
				out.Write(raws[li])
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

// decodeConflictItem reads the three fields conflicts needs from an item
// line: "content" (required string), "id" (string, else defID) and
// "timestamp" (RFC 3339 string, date, or Unix seconds). Other fields are
// left alone. The error starts with ":" and the column or ": " so the
// caller prefixes file and line.
func decodeConflictItem(line []byte, defID string) (conflictText, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return conflictText{}, fmt.Errorf(":%d: invalid JSON: %v", max(se.Offset, 1), se)
		}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return conflictText{}, fmt.Errorf(": not a JSON object (found %s)", te.Value)
		}
		return conflictText{}, fmt.Errorf(": invalid JSON: %v", err)
	}
	if fields == nil {
		return conflictText{}, fmt.Errorf(": not a JSON object (found null)")
	}
	t := conflictText{id: defID}
	raw, ok := fields["content"]
	if !ok {
		return t, fmt.Errorf(`: missing "content"`)
	}
	if err := json.Unmarshal(raw, &t.content); err != nil || raw[0] != '"' {
		return t, fmt.Errorf(`: "content" must be a string, got %s`, jsonl.Kind(raw))
	}
	if raw, ok := fields["id"]; ok {
		if err := json.Unmarshal(raw, &t.id); err != nil || raw[0] != '"' {
			return t, fmt.Errorf(`: "id" must be a string, got %s`, jsonl.Kind(raw))
		}
	}
	if raw, ok := fields["timestamp"]; ok && string(raw) != "null" {
		d, err := timestampDate(raw)
		if err != nil {
			return t, fmt.Errorf(`: "timestamp" %v`, err)
		}
		t.date = d
	}
	return t, nil
}

// timestampDate returns the calendar day a timestamp names: in its own
// offset for RFC 3339, in UTC for Unix seconds.
func timestampDate(raw json.RawMessage) (string, error) {
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t.Format("2006-01-02"), nil
		}
		if t, err := time.Parse("2006-01-02", s); err == nil {
			return t.Format("2006-01-02"), nil
		}
		return "", fmt.Errorf("must be RFC 3339 (2023-05-01T14:03:00Z) or Unix seconds, got %s", raw)
	default:
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || raw[0] == '-' && f == 0 {
			return "", fmt.Errorf("must be RFC 3339 or Unix seconds, got %s", jsonl.Kind(raw))
		}
		if math.Abs(f) > 1e13 {
			return "", fmt.Errorf("out of range: %s", raw)
		}
		return time.Unix(int64(math.Floor(f)), 0).UTC().Format("2006-01-02"), nil
	}
}
