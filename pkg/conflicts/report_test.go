package conflicts

import (
	"slices"
	"testing"
	"time"
)

func at(day int) *time.Time {
	t := time.Date(2023, 5, day, 12, 0, 0, 0, time.UTC)
	return &t
}

// Pairs built by hand (not by Find), so the report's and the notes' rules
// are tested alone.
func TestNewReportLater(t *testing.T) {
	texts := []Text{{ID: "s", Content: "I live in Boston.", At: at(9)}, {ID: "d", Content: "I no longer live in Boston.", At: at(1)}}
	pairs := []Pair{{Statement: 0, Denial: 1, StatementSentence: "I live in Boston.", DenialSentence: "I no longer live in Boston.", Cue: "no longer", Shared: []string{"live", "boston"}, Score: 0.8}}
	rep := NewReport(texts, pairs)
	if rep.Texts != 2 || len(rep.Pairs) != 1 {
		t.Fatalf("report %+v", rep)
	}
	p := rep.Pairs[0]
	// The statement (May 9) came after the denial (May 1).
	if p.StatementID != "s" || p.DenialID != "d" || p.Later != "statement" || p.Denial != texts[1].Content {
		t.Errorf("pair %+v", p)
	}
	// Later, the statement bears the note, naming the denial and its day.
	notes := Notes(texts, pairs)
	want := ` [note: conflicts with "I no longer live in Boston." (2023-05-01)]`
	if notes[1] != nil || len(notes[0]) != 1 || notes[0][0] != want {
		t.Errorf("notes %q, want [[%q] []]", notes, want)
	}
	texts[0].At = nil // no longer known to be later: Later is omitted
	if rep := NewReport(texts, pairs); rep.Pairs[0].Later != "" {
		t.Errorf("Later = %q without the statement's timestamp", rep.Pairs[0].Later)
	}
}

// The same sentence said twice: the denial's one note names the later
// time it was said, whichever order the pairs come in.
func TestNotesOneNotePerSentence(t *testing.T) {
	texts := []Text{{ID: "a", Content: "I live in Boston.", At: at(3)}, {ID: "b", Content: "I live in Boston.", At: at(2)}, {ID: "d", Content: "I no longer live in Boston.", At: at(20)}}
	pair := func(s int) Pair {
		return Pair{Statement: s, Denial: 2, StatementSentence: "I live in Boston.", DenialSentence: "I no longer live in Boston."}
	}
	notes := Notes(texts, []Pair{pair(0), pair(1)})
	want := []string{` [note: conflicts with "I live in Boston." (2023-05-03)]`}
	if !slices.Equal(notes[2], want) || notes[0] != nil || notes[1] != nil {
		t.Errorf("notes %q, want %q on the denial alone", notes, want)
	}
}

func TestReportTable(t *testing.T) {
	rep := Report{Texts: 1, Pairs: []ReportPair{{DenialID: "d", StatementID: "s", Cue: "not", Score: 0.5,
		Shared: []string{"aaaaaaaaaa", "bbbbbbbbbb", "cccccccccc", "dddddddddd"}}}}
	header, rows, footer := rep.Table()
	if len(header) != 5 || header[0] != "DENIAL" {
		t.Errorf("header %q", header)
	}
	// 43 characters of shared words cut to 34: the first 33 are three
	// words and a space, trimmed, then "…".
	want := []string{"d", "s", "not", "aaaaaaaaaa bbbbbbbbbb cccccccccc…", "0.50"}
	if len(rows) != 1 || !slices.Equal(rows[0], want) {
		t.Errorf("rows %q, want [%q]", rows, want)
	}
	if footer[3] != "1 pair in 1 text" {
		t.Errorf("footer %q", footer)
	}
}
