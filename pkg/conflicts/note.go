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
func maskNotes(text string) string {
	open := notePrefix[1:] + `"`
	if !strings.Contains(text, open) {
		return text
	}
	b := []byte(text)
	from := 0
	for {
		i := strings.Index(text[from:], open)
		if i < 0 {
			break
		}
		i += from
		end := noteEnd(text[i+len(open):])
		if end < 0 {
			from = i + len(open)
			continue
		}
		end += i + len(open)
		for k := i; k <= end; k++ {
			b[k] = ' '
		}
		from = end + 1
	}
	return string(b)
}

// noteEnd finds the "]" that closes a note whose quoted statement starts s:
// after `"]`, or after `" (date)]`, whichever comes first. It returns -1
// when s does not close a note.
func noteEnd(s string) int {
	plain := strings.Index(s, `"]`)
	dated := strings.Index(s, `" (`)
	if dated >= 0 && (plain < 0 || dated < plain) {
		if c := strings.Index(s[dated:], ")]"); c >= 0 {
			return dated + c + 1
		}
	}
	if plain >= 0 {
		return plain + 1
	}
	return -1
}
