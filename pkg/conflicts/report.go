package conflicts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Text is one text searched for conflicts, as a [Report] names it: its
// id, its content and, when known, when it was said.
type Text struct {
	ID      string
	Content string
	At      *time.Time // nil when unknown
}

// date is the calendar day of t's timestamp in its own offset, "" when
// unknown.
func (t Text) date() string {
	if t.At == nil {
		return ""
	}
	return t.At.Format("2006-01-02")
}

// Report is the report of harpe conflicts: how many texts were searched
// and the pairs found, in the order [Find] returns them.
type Report struct {
	Texts int          `json:"texts"`
	Pairs []ReportPair `json:"pairs"`
}

// ReportPair is one pair of a [Report]: both texts, by content and id,
// and the [Pair]'s findings.
type ReportPair struct {
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

// NewReport reports pairs, found by [Find] among the contents of texts.
func NewReport(texts []Text, pairs []Pair) Report {
	rep := Report{Texts: len(texts), Pairs: make([]ReportPair, 0, len(pairs))}
	for _, p := range pairs {
		s, d := texts[p.Statement], texts[p.Denial]
		rp := ReportPair{
			Statement:         s.Content,
			Denial:            d.Content,
			Cue:               p.Cue,
			Shared:            p.Shared,
			Score:             p.Score,
			StatementID:       s.ID,
			DenialID:          d.ID,
			StatementSentence: p.StatementSentence,
			DenialSentence:    p.DenialSentence,
		}
		if statementLater(s, d) {
			rp.Later = "statement"
		}
		rep.Pairs = append(rep.Pairs, rp)
	}
	return rep
}

// statementLater reports whether both texts have a timestamp and the
// statement's is after the denial's.
func statementLater(statement, denial Text) bool {
	return statement.At != nil && denial.At != nil && statement.At.After(*denial.At)
}

// Notes returns, for each of texts, the notes (see [Note]) to write after
// it with [Annotate], nil for a text that contradicts nothing. The note
// goes after the denial, naming the statement; or, when the timestamps
// show the statement came after the denial, after the statement, naming
// the denial. A text gets one note per sentence it contradicts: when the
// same sentence was said several times, the note names the last time (by
// timestamp, else the last of pairs, which come in statement order within
// a denial).
func Notes(texts []Text, pairs []Pair) [][]string {
	notes := make([][]string, len(texts))
	quoted := make([][]string, len(texts))
	from := make([][]int, len(texts)) // the text each note quotes
	for _, p := range pairs {
		bearer, other, sentence := p.Denial, p.Statement, p.StatementSentence
		if statementLater(texts[p.Statement], texts[p.Denial]) {
			bearer, other, sentence = p.Statement, p.Denial, p.DenialSentence
		}
		n := Note(sentence, texts[other].date())
		if i := slices.Index(quoted[bearer], sentence); i >= 0 {
			prev := texts[from[bearer][i]].At
			if prev == nil || texts[other].At == nil || !texts[other].At.Before(*prev) {
				notes[bearer][i], from[bearer][i] = n, other
			}
			continue
		}
		quoted[bearer] = append(quoted[bearer], sentence)
		notes[bearer] = append(notes[bearer], n)
		from[bearer] = append(from[bearer], other)
	}
	return notes
}

// Table is the report as table cells, a row per pair: the denial's id,
// the id of the statement it contradicts, the cue, the shared words (cut
// to 34 characters) and the score; the footer counts pairs and texts. The
// texts and sentences are left to the JSON form: a table that fits 80
// columns has no room for them.
func (r Report) Table() (header []string, rows [][]string, footer []string) {
	rows = make([][]string, 0, len(r.Pairs))
	for _, p := range r.Pairs {
		rows = append(rows, []string{
			p.DenialID,
			p.StatementID,
			p.Cue,
			clip(strings.Join(p.Shared, " "), 34),
			strconv.FormatFloat(p.Score, 'f', 2, 64),
		})
	}
	pairs, texts := "pairs", "texts"
	if len(r.Pairs) == 1 {
		pairs = "pair"
	}
	if r.Texts == 1 {
		texts = "text"
	}
	footer = []string{"", "", "", fmt.Sprintf("%d %s in %d %s", len(r.Pairs), pairs, r.Texts, texts), ""}
	return []string{"DENIAL", "DENIES", "CUE", "SHARED", "SCORE"}, rows, footer
}

// clip shortens s to n characters, ending with "…" when cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
