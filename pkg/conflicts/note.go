package conflicts

import (
	"strings"
	"unicode/utf8"
)

// notePrefix opens every note [Note] writes.
const notePrefix = " [note: conflicts with "

// maxQuote is how many characters of a statement a note quotes.
const maxQuote = 120

// Note returns the note written after a denial: ` [note: conflicts with
// "statement" (date)]`, without the date part when date is empty. A
// statement longer than 120 characters is cut with "…"; its line breaks
// become spaces.
func Note(statement, date string) string {
	q := strings.Join(strings.Fields(statement), " ")
	if utf8.RuneCountInString(q) > maxQuote {
		r := []rune(q)
		q = strings.TrimSpace(string(r[:maxQuote-1])) + "…"
	}
	var b strings.Builder
	b.WriteString(notePrefix)
	b.WriteByte('"')
	b.WriteString(q)
	b.WriteByte('"')
	if date != "" {
		b.WriteString(" (")
		b.WriteString(date)
		b.WriteByte(')')
	}
	b.WriteByte(']')
	return b.String()
}

// Annotate appends each note to text, skipping notes the text already
// carries, so annotating twice changes nothing the second time.
func Annotate(text string, notes []string) string {
	for _, n := range notes {
		if !strings.Contains(text, n) {
			text += n
		}
	}
	return text
}

// maskNotes blanks out the notes in text (keeping every byte offset), so a
// quoted statement inside a note is not read as part of the denial.
//
// Each of the strings a note is made of is looked for at most once per
// occurrence (a [finder] remembers where it was found next), so the work
// stays linear in the text however many notes, closed or not, it holds.
func maskNotes(text string) string {
	open := notePrefix[1:] + `"`
	if !strings.Contains(text, open) {
		return text
	}
	b := []byte(text)
	opens := finder{s: text, pat: open}
	ends := noteFinders{plain: finder{s: text, pat: `"]`}, dated: finder{s: text, pat: `" (`}, close: finder{s: text, pat: ")]"}}
	from := 0
	for {
		i := opens.next(from)
		if i < 0 {
			break
		}
		end := ends.noteEnd(i + len(open))
		if end < 0 {
			// No later note can close either: every later start sees less
			// of the same text.
			break
		}
		for k := i; k <= end; k++ {
			b[k] = ' '
		}
		from = end + 1
	}
	return string(b)
}

// finder finds pat in s at or after a position, remembering the last
// answer: asked for positions that only grow, it reads s once.
type finder struct {
	s, pat string
	at     int // where pat was last found (-1: nowhere after from)
	from   int // the position that answer was for
	asked  bool
}

func (f *finder) next(from int) int {
	if f.asked && from >= f.from && (f.at < 0 || f.at >= from) {
		return f.at
	}
	f.asked, f.from = true, from
	f.at = -1
	if from <= len(f.s) {
		if i := strings.Index(f.s[from:], f.pat); i >= 0 {
			f.at = from + i
		}
	}
	return f.at
}

// noteFinders find the ends of notes.
type noteFinders struct{ plain, dated, close finder }

// noteEnd finds the "]" that closes a note whose quoted statement starts at
// q: after `"]`, or after `" (date)]`, whichever comes first. It returns -1
// when the text from q does not close a note.
func (f *noteFinders) noteEnd(q int) int {
	plain := f.plain.next(q)
	dated := f.dated.next(q)
	if dated >= 0 && (plain < 0 || dated < plain) {
		if c := f.close.next(dated); c >= 0 {
			return c + 1
		}
	}
	if plain >= 0 {
		return plain + 1
	}
	return -1
}
