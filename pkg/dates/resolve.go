package dates

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// Precision says how much of a date an annotation shows.
type Precision int

const (
	// PrecisionDay shows full dates: one day, or a first and a last day.
	PrecisionDay Precision = iota
	// PrecisionMonth shows the year and month (last month → 2023-04).
	PrecisionMonth
	// PrecisionYear shows the year (last year → 2022).
	PrecisionYear
)

// Span is one relative phrase found in a text, with the days it names.
type Span struct {
	// Start and End are the byte offsets of the phrase in the text.
	Start, End int
	// Phrase is text[Start:End], as written (a possessive "'s" included).
	Phrase string
	// First and Last are the first and last day the phrase names; they are
	// equal for a single day.
	First, Last Date
	// Precision is how the inline annotation shows the days.
	Precision Precision
}

// Label is the annotation text for the span, without the parentheses:
// "2023-05-19", "2023-05-13 to 2023-05-14", "2023-04" or "2022".
func (s Span) Label() string {
	return string(s.appendLabel(nil))
}

// appendLabel appends the label to b.
func (s Span) appendLabel(b []byte) []byte {
	switch s.Precision {
	case PrecisionYear:
		return appendDigits(b, s.First.Year, 4)
	case PrecisionMonth:
		b = appendDigits(b, s.First.Year, 4)
		b = append(b, '-')
		return appendDigits(b, int(s.First.Month), 2)
	}
	b = s.First.appendTo(b)
	if s.First != s.Last {
		b = append(b, " to "...)
		b = s.Last.appendTo(b)
	}
	return b
}

// CheckEvery is how many bytes of text [Find] and [Annotate] read
// between two checks of their context.
const CheckEvery = 64 << 10

// Annotate returns text with " (LABEL)" written right after each phrase
// that [Find] resolves, and those spans. Every other byte is copied as it
// is, so removing the annotations gives text back, and annotating the
// result again changes nothing.
//
// It stops once ctx is done, checking it every [CheckEvery] bytes of
// text, and then returns ctx's error and no text.
func Annotate(ctx context.Context, text string, saidOn Date) (string, []Span, error) {
	spans, err := Find(ctx, text, saidOn)
	if err != nil {
		return "", nil, err
	}
	return annotate(text, spans), spans, nil
}

// annotate writes each span's label after it.
func annotate(text string, spans []Span) string {
	if len(spans) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + len(spans)*27)
	var label [32]byte
	last := 0
	for _, s := range spans {
		b.WriteString(text[last:s.End])
		b.WriteString(" (")
		b.Write(s.appendLabel(label[:0]))
		b.WriteByte(')')
		last = s.End
	}
	b.WriteString(text[last:])
	return b.String()
}

// Find returns the relative phrases of text that name one day or one span
// counted from saidOn, in text order. Phrases that could mean more than one
// date, vague ones, and phrases already followed by a date are not
// returned; see the package documentation for the list. An invalid saidOn
// (such as the zero Date) finds nothing.
//
// It stops once ctx is done, checking it every [CheckEvery] bytes of
// text, and then returns ctx's error and no spans.
func Find(ctx context.Context, text string, saidOn Date) ([]Span, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !saidOn.valid() {
		return nil, nil
	}
	done := ctx.Done() // nil for a context that is never done
	var spans []Span
	var parens parenIndex
	starts := &words().startsPhrase
	i, check := 0, CheckEvery
	for i < len(text) {
		if done != nil && i >= check {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			check = i + CheckEvery
		}
		c := text[i]
		if !isAlnum(c) {
			i++
			continue
		}
		// i starts a run of ASCII letters and digits.
		end := i + 1
		for end < len(text) && isAlnum(text[end]) {
			end++
		}
		if n := end - i; (n < len(starts[0]) && starts[lower(c)][n]) || (n < 5 && isDigit(c)) || end < len(text) && text[end] == '-' {
			if wordStart(text, i) {
				if s, ok := match(text, i, saidOn, &parens); ok {
					if !shifted(text, s, &parens) && !dated(text, s.End, &parens) {
						spans = append(spans, s)
					}
					i = s.End
					continue
				}
			}
		}
		i = end
	}
	return spans, nil
}

// word is a word the phrases are made of.
type word uint8

const (
	wNone word = iota
	wToday
	wTonight
	wYesterday
	wTomorrow
	wThis
	wMorning
	wAfternoon
	wEvening
	wNight
	wThe
	wDay
	wBefore
	wAfter
	wLast
	wNext
	wWeek
	wWeekend
	wMonth
	wYear
	wAgo
	wA
	wCouple
	wOf
	wWeekday  // Monday … Sunday; the day is in wordInfo.n
	wNumber   // one … nineteen, and the tens; the value is in wordInfo.n
	wTens     // twenty … ninety, which a unit word may follow
	wPast     // "past 4 days", "the past week", "this past Sunday"
	wPrevious // read like "last", but a determiner before it is refused
	wOn       // "next week on Friday"
	wIn       // "the first Friday in this month"
	wNow      // "a week before now"
	wOrdinal  // first … thirty-first, 1st … 31st; the value is in wordInfo.n
)

type wordInfo struct {
	w      word
	n      int
	plural bool // "days", "weeks", "months", "years", "Fridays"
	abbr   bool // a short weekday name ("wed", "thurs"), read only after last, previous, this past
}

// wordList maps each lowercase word to what it is. Plurals of units map
// to the unit. It is built on first use, with the tables made from it
// (see words), not at start-up.
func wordList() map[string]wordInfo {
	return map[string]wordInfo{
		"today": {w: wToday}, "tonight": {w: wTonight}, "yesterday": {w: wYesterday}, "tomorrow": {w: wTomorrow},
		"this": {w: wThis}, "morning": {w: wMorning}, "afternoon": {w: wAfternoon}, "evening": {w: wEvening},
		"night": {w: wNight}, "the": {w: wThe}, "day": {w: wDay}, "days": {w: wDay, plural: true}, "before": {w: wBefore},
		"after": {w: wAfter}, "last": {w: wLast}, "next": {w: wNext}, "week": {w: wWeek}, "weeks": {w: wWeek, plural: true},
		"weekend": {w: wWeekend}, "weekends": {w: wWeekend, plural: true}, "month": {w: wMonth}, "months": {w: wMonth, plural: true}, "year": {w: wYear},
		"years": {w: wYear, plural: true}, "ago": {w: wAgo},
		// Short and other units: "2 wks ago", "a fortnight ago", "last yr".
		"wk": {w: wWeek, n: 1}, "wks": {w: wWeek, n: 1, plural: true}, "mo": {w: wMonth, n: 1},
		"mos": {w: wMonth, n: 1, plural: true}, "yr": {w: wYear, n: 1}, "yrs": {w: wYear, n: 1, plural: true},
		"fortnight": {w: wWeek, n: 2}, "fortnights": {w: wWeek, n: 2, plural: true},
		"decade": {w: wYear, n: 10}, "decades": {w: wYear, n: 10, plural: true}, "a": {w: wA, n: 1}, "an": {w: wA, n: 1},
		"couple": {w: wCouple, n: 2}, "of": {w: wOf},
		"monday": {w: wWeekday, n: int(time.Monday)}, "tuesday": {w: wWeekday, n: int(time.Tuesday)},
		"wednesday": {w: wWeekday, n: int(time.Wednesday)}, "thursday": {w: wWeekday, n: int(time.Thursday)},
		"friday": {w: wWeekday, n: int(time.Friday)}, "saturday": {w: wWeekday, n: int(time.Saturday)},
		"sunday":  {w: wWeekday, n: int(time.Sunday)},
		"mondays": {w: wWeekday, n: int(time.Monday), plural: true}, "tuesdays": {w: wWeekday, n: int(time.Tuesday), plural: true},
		"wednesdays": {w: wWeekday, n: int(time.Wednesday), plural: true}, "thursdays": {w: wWeekday, n: int(time.Thursday), plural: true},
		"fridays": {w: wWeekday, n: int(time.Friday), plural: true}, "saturdays": {w: wWeekday, n: int(time.Saturday), plural: true},
		"sundays": {w: wWeekday, n: int(time.Sunday), plural: true},
		// Short weekday names; "sat" and "sun" are left out ("I last sat there").
		"mon": {w: wWeekday, n: int(time.Monday), abbr: true}, "tue": {w: wWeekday, n: int(time.Tuesday), abbr: true},
		"tues": {w: wWeekday, n: int(time.Tuesday), abbr: true}, "wed": {w: wWeekday, n: int(time.Wednesday), abbr: true},
		"thu": {w: wWeekday, n: int(time.Thursday), abbr: true}, "thur": {w: wWeekday, n: int(time.Thursday), abbr: true},
		"thurs": {w: wWeekday, n: int(time.Thursday), abbr: true}, "fri": {w: wWeekday, n: int(time.Friday), abbr: true},
		"past": {w: wPast}, "current": {w: wThis, n: 1}, // "current" only before week, month, year
		"previous": {w: wPrevious}, "on": {w: wOn}, "in": {w: wIn}, "now": {w: wNow},
		"first": {w: wOrdinal, n: 1}, "second": {w: wOrdinal, n: 2}, "third": {w: wOrdinal, n: 3}, "fourth": {w: wOrdinal, n: 4},
		"fifth": {w: wOrdinal, n: 5}, "sixth": {w: wOrdinal, n: 6}, "seventh": {w: wOrdinal, n: 7}, "eighth": {w: wOrdinal, n: 8},
		"ninth": {w: wOrdinal, n: 9}, "tenth": {w: wOrdinal, n: 10}, "eleventh": {w: wOrdinal, n: 11}, "twelfth": {w: wOrdinal, n: 12},
		"thirteenth": {w: wOrdinal, n: 13}, "fourteenth": {w: wOrdinal, n: 14}, "fifteenth": {w: wOrdinal, n: 15},
		"sixteenth": {w: wOrdinal, n: 16}, "seventeenth": {w: wOrdinal, n: 17}, "eighteenth": {w: wOrdinal, n: 18},
		"nineteenth": {w: wOrdinal, n: 19}, "twentieth": {w: wOrdinal, n: 20}, "thirtieth": {w: wOrdinal, n: 30},
		"one": {w: wNumber, n: 1}, "two": {w: wNumber, n: 2}, "three": {w: wNumber, n: 3}, "four": {w: wNumber, n: 4},
		"five": {w: wNumber, n: 5}, "six": {w: wNumber, n: 6}, "seven": {w: wNumber, n: 7}, "eight": {w: wNumber, n: 8},
		"nine": {w: wNumber, n: 9}, "ten": {w: wNumber, n: 10}, "eleven": {w: wNumber, n: 11}, "twelve": {w: wNumber, n: 12},
		"thirteen": {w: wNumber, n: 13}, "fourteen": {w: wNumber, n: 14}, "fifteen": {w: wNumber, n: 15},
		"sixteen": {w: wNumber, n: 16}, "seventeen": {w: wNumber, n: 17}, "eighteen": {w: wNumber, n: 18},
		"nineteen": {w: wNumber, n: 19},
		"twenty":   {w: wTens, n: 20}, "thirty": {w: wTens, n: 30}, "forty": {w: wTens, n: 40}, "fifty": {w: wTens, n: 50},
		"sixty": {w: wTens, n: 60}, "seventy": {w: wTens, n: 70}, "eighty": {w: wTens, n: 80}, "ninety": {w: wTens, n: 90},
	}
}

// wordTables are the tables of the words of phrases, built once on first
// use (sync.Once), so that a process that reads no phrase (harpe count,
// harpe --version) does not build them at start-up.
type wordTables struct {
	// words maps each lowercase word to what it is (see wordList).
	words map[string]wordInfo
	// table is words in an open-addressing hash table, which reads a word
	// faster than the map: the scan looks up every word that may start a
	// phrase.
	table [512]struct {
		key  string
		info wordInfo
	}
	// startsPhrase[c][n] is true when a phrase may start with a word of n
	// letters whose first letter is c (lowercase), so most words are
	// passed over without a lookup.
	startsPhrase [256][13]bool
	// guard: see guardWordList.
	guard map[string]string
}

var (
	wordsOnce sync.Once
	wordsMade atomic.Pointer[wordTables]
)

// words returns the word tables, building them the first time (short, so
// that it is inlined: the scan calls it for every word).
func words() *wordTables {
	if t := wordsMade.Load(); t != nil {
		return t
	}
	return makeWords()
}

func makeWords() *wordTables {
	wordsOnce.Do(func() { wordsMade.Store(newWordTables()) })
	return wordsMade.Load()
}

func newWordTables() *wordTables {
	t := &wordTables{words: wordList(), guard: guardWordList()}
	for w, info := range t.words {
		h := wordHash([]byte(w))
		for t.table[h].key != "" {
			h = (h + 1) % uint(len(t.table))
		}
		t.table[h].key, t.table[h].info = w, info
		switch info.w {
		case wToday, wTonight, wYesterday, wTomorrow, wThis, wThe, wDay, wLast, wNext, wA, wCouple, wNumber, wTens,
			wPast, wPrevious, wWeekday, wOrdinal:
			t.startsPhrase[w[0]][len(w)] = true
		}
	}
	return t
}

func wordHash(w []byte) uint {
	return (uint(len(w))*31 + uint(w[0])*131 + uint(w[len(w)-1])*17 + uint(w[len(w)/2])*7) % 512
}

// lookup finds the lowercase word w.
func lookup(w []byte) (wordInfo, bool) {
	if len(w) == 0 {
		return wordInfo{}, false
	}
	t := &words().table
	for h := wordHash(w); t[h].key != ""; h = (h + 1) % uint(len(t)) {
		if t[h].key == string(w) {
			return t[h].info, true
		}
	}
	return wordInfo{}, false
}

// determiners before "last", "next" or "this" turn a calendar phrase into
// a stretch of time or an ordinal: "in the last week" (the past seven
// days), "my last week at work", "the last Friday of the month".
var determiners = map[string]bool{
	"the": true, "this": true, "that": true, "these": true, "those": true, "every": true, "each": true,
	"my": true, "our": true, "your": true, "his": true, "her": true, "their": true, "its": true, "whose": true,
	"one's": true, "first": true, "very": true,
}

// scanner reads the words of one phrase.
type scanner struct {
	text string
	pos  int // just after the last word read
}

// next reads the word after the white space at s.pos. The white space must
// be there (words are separated) and hold at most one line break. It
// returns the word, its value, and whether there was one; s.pos moves past
// it only when the caller accepts it with s.pos = end.
func (s *scanner) next() (info wordInfo, digits int, end int, ok bool) {
	j := s.pos
	breaks := 0
	for j < len(s.text) {
		c := s.text[j]
		if c == ' ' || c == '\t' || c == '\r' {
			j++
		} else if c == '\n' {
			breaks++
			j++
		} else if c == 0xC2 && j+1 < len(s.text) && s.text[j+1] == 0xA0 { // no-break space
			j += 2
		} else {
			break
		}
	}
	if j == s.pos || breaks > 1 {
		return wordInfo{}, 0, 0, false
	}
	if info, digits, end, ok = readWord(s.text, j); ok {
		return info, digits, end, true
	}
	// "twenty-one" and "twenty-first", joined by a hyphen.
	info, end, ok = readCompound(s.text, j)
	return info, 0, end, ok
}

// readWord reads the word starting at j: a run of ASCII letters (a known
// word) or of digits (a number), ending at a word boundary.
func readWord(text string, j int) (info wordInfo, digits int, end int, ok bool) {
	k := j
	for k < len(text) && isAlnum(text[k]) {
		k++
	}
	if k == j || !wordEnd(text, k) {
		return wordInfo{}, 0, 0, false
	}
	if isDigit(text[j]) {
		n, p := 0, j
		for ; p < k && isDigit(text[p]); p++ {
			if p-j >= 4 {
				return wordInfo{}, 0, 0, false
			}
			n = n*10 + int(text[p]-'0')
		}
		if p == k {
			return wordInfo{w: wNumber, n: n}, k - j, k, true
		}
		// "15th", "1st", "22nd", "3rd": an ordinal day.
		if p-j <= 2 && k-p == 2 {
			switch string([]byte{lower(text[p]), lower(text[p+1])}) {
			case "st", "nd", "rd", "th":
				return wordInfo{w: wOrdinal, n: n}, 0, k, true
			}
		}
		return wordInfo{}, 0, 0, false
	}
	if k-j > 12 {
		return wordInfo{}, 0, 0, false
	}
	var buf [12]byte
	for p := j; p < k; p++ {
		buf[p-j] = lower(text[p])
	}
	info, ok = lookup(buf[:k-j])
	return info, 0, k, ok
}

// readCompound reads a number such as "twenty-one" starting at j.
func readCompound(text string, j int) (wordInfo, int, bool) {
	k := j
	for k < len(text) && isLetter(text[k]) {
		k++
	}
	if k-j > 7 || k+1 >= len(text) || text[k] != '-' || !isLetter(text[k+1]) {
		return wordInfo{}, 0, false
	}
	var buf [7]byte
	for p := j; p < k; p++ {
		buf[p-j] = lower(text[p])
	}
	tens, ok := lookup(buf[:k-j])
	if !ok || tens.w != wTens {
		return wordInfo{}, 0, false
	}
	unit, digits, end, ok := readWord(text, k+1)
	if !ok || digits > 0 || (unit.w != wNumber && unit.w != wOrdinal) || unit.n > 9 {
		return wordInfo{}, 0, false
	}
	return wordInfo{w: unit.w, n: tens.n + unit.n}, end, true
}

// match reads the phrase that starts at i, if any, with its optional
// parts (the "the" of "the day before yesterday", "yesterday morning").
func match(text string, i int, on Date, parens *parenIndex) (Span, bool) {
	w1, _, e1, ok := readWord(text, i)
	if !ok {
		// "twenty-one": the hyphen joins the words, so readWord refused it.
		if w1, e1, ok = readCompound(text, i); !ok {
			return Span{}, false
		}
	}
	s := &scanner{text: text, pos: e1}
	day := func(d Date, end int) (Span, bool) { return span(text, i, end, d, d, PrecisionDay) }
	switch w1.w {
	case wToday, wTonight:
		if e, ok := partOfDay(s); ok && w1.w == wToday {
			return day(on, e) // "today evening"
		}
		return day(on, e1)
	case wYesterday, wTomorrow:
		d := on.AddDays(-1)
		if w1.w == wTomorrow {
			d = on.AddDays(1)
		}
		if e, ok := partOfDay(s); ok {
			return day(d, e)
		}
		return day(d, e1)
	case wDay:
		if w1.plural {
			return Span{}, false // "3 days before yesterday" is read from the 3
		}
		return matchDayBefore(text, i, s, on)
	case wThe:
		w2, _, e2, ok := s.next()
		if !ok {
			return Span{}, false
		}
		s.pos = e2
		switch w2.w {
		case wDay:
			if !w2.plural {
				return matchDayBefore(text, i, s, on)
			}
		case wWeek, wWeekend, wMonth, wYear, wNight:
			if !w2.plural && w2.n == 0 {
				return matchBeforeLast(text, i, s, w2.w, on)
			}
		case wOrdinal, wTens:
			return matchOrdinal(text, i, s, w2, on)
		case wPast:
			return matchPast(text, i, s, on)
		case wLast:
			return matchTheLast(text, i, s, on)
		}
		return Span{}, false
	case wOrdinal:
		return matchOrdinal(text, i, s, w1, on)
	case wWeekday:
		if w1.abbr || w1.plural {
			return Span{}, false
		}
		return matchWeekdayOfWeek(text, i, s, w1.n, on)
	case wPast:
		if determinerBefore(text, i) {
			return Span{}, false // "the past week" is read from "the"
		}
		return matchPast(text, i, s, on)
	case wThis, wLast, wNext, wPrevious:
		if w1.n == 1 {
			// "current week", "current month", "current year" only.
			if w2, _, _, ok := s.next(); !ok || (w2.w != wWeek && w2.w != wMonth && w2.w != wYear) {
				return Span{}, false
			}
		}
		return matchRelative(text, i, s, w1.w, on)
	case wTens:
		// "twenty first of last month".
		if u, digits, _, ok := s.next(); ok && digits == 0 && u.w == wOrdinal && u.n <= 9 {
			return matchOrdinal(text, i, s, w1, on)
		}
		return matchAgo(text, i, s, w1, on, parens)
	case wA, wNumber, wCouple:
		return matchAgo(text, i, s, w1, on, parens)
	}
	return Span{}, false
}

// partOfDay reads "morning", "afternoon", "evening" or "night" after a
// day word, and returns where it ends.
func partOfDay(s *scanner) (int, bool) {
	w, _, e, ok := s.next()
	if ok && (w.w == wMorning || w.w == wAfternoon || w.w == wEvening || w.w == wNight) {
		return e, true
	}
	return 0, false
}

// matchDayBefore reads "before yesterday" or "after tomorrow" after "(the)
// day".
func matchDayBefore(text string, i int, s *scanner, on Date) (Span, bool) {
	w3, _, e3, ok := s.next()
	if !ok || (w3.w != wBefore && w3.w != wAfter) {
		return Span{}, false
	}
	s.pos = e3
	w4, _, e4, ok := s.next()
	switch {
	case ok && w3.w == wBefore && w4.w == wYesterday:
		d := on.AddDays(-2)
		return span(text, i, e4, d, d, PrecisionDay)
	case ok && w3.w == wAfter && w4.w == wTomorrow:
		d := on.AddDays(2)
		return span(text, i, e4, d, d, PrecisionDay)
	}
	return Span{}, false
}

// matchBeforeLast reads "before last" or "after next" after "the week",
// "the weekend", "the month", "the year" or "the night" (unit u): two of
// them back or ahead. "the week before last Friday" is not read.
func matchBeforeLast(text string, i int, s *scanner, u word, on Date) (Span, bool) {
	w, _, e, ok := s.next()
	if !ok || (w.w != wBefore && w.w != wAfter) {
		return Span{}, false
	}
	s.pos = e
	if the, _, et, ok := s.next(); ok && the.w == wThe {
		s.pos = et // "the month after the next"
	}
	w2, _, e2, ok := s.next()
	if !ok || (w.w == wBefore && w2.w != wLast) || (w.w == wAfter && w2.w != wNext) {
		return Span{}, false
	}
	s.pos = e2
	if after, _, _, ok := s.next(); ok && after.w != wNone && after.w != wOn && after.w != wIn && after.w != wOf && after.w != wA && after.w != wThe {
		return Span{}, false // "the week before last Friday", "the year after next year"
	}
	shift := -2
	if w.w == wAfter {
		shift = 2
	}
	mon := on.monday()
	switch u {
	case wWeek:
		m := mon.AddDays(7 * shift)
		return span(text, i, e2, m, m.AddDays(6), PrecisionDay)
	case wWeekend:
		m := mon.AddDays(7 * shift)
		return span(text, i, e2, m.AddDays(5), m.AddDays(6), PrecisionDay)
	case wMonth:
		return monthSpan(text, i, e2, on.AddMonths(shift))
	case wYear:
		return yearSpan(text, i, e2, on.Year+shift)
	case wNight:
		if shift < 0 {
			d := on.AddDays(-2) // "the night before last": the evening two days back
			return span(text, i, e2, d, d, PrecisionDay)
		}
	}
	return Span{}, false
}

// relMonth reads "last month", "this month", "next month" or "previous
// month" and returns the first day of that month and where it ends.
func relMonth(s *scanner, on Date) (Date, int, bool) {
	w, _, e, ok := s.next()
	if !ok || (w.w != wLast && w.w != wThis && w.w != wNext && w.w != wPrevious) {
		return Date{}, 0, false
	}
	s.pos = e
	m, _, em, ok := s.next()
	if !ok || m.w != wMonth || m.plural {
		return Date{}, 0, false
	}
	d := Date{on.Year, on.Month, 1}
	switch w.w {
	case wLast, wPrevious:
		d = d.AddMonths(-1)
	case wNext:
		d = d.AddMonths(1)
	}
	return d, em, true
}

// relWeek reads "last week", "this week", "next week" or "previous week"
// and returns the Monday of that week and where it ends.
func relWeek(s *scanner, on Date) (Date, int, bool) {
	w, _, e, ok := s.next()
	if !ok || (w.w != wLast && w.w != wThis && w.w != wNext && w.w != wPrevious) {
		return Date{}, 0, false
	}
	s.pos = e
	u, _, eu, ok := s.next()
	if !ok || u.w != wWeek || u.plural || u.n > 1 {
		return Date{}, 0, false
	}
	mon := on.monday()
	switch w.w {
	case wLast, wPrevious:
		mon = mon.AddDays(-7)
	case wNext:
		mon = mon.AddDays(7)
	}
	return mon, eu, true
}

// inWeek is the day of the week wd (time.Weekday) in the week starting on
// Monday mon.
func inWeek(mon Date, wd int) Date { return mon.AddDays((wd + 6) % 7) }

// nthWeekday is the n-th weekday wd of the month starting on first, or the
// last one for n = -1; false when the month has no such day.
func nthWeekday(first Date, wd, n int) (Date, bool) {
	last := daysIn(first.Year, first.Month)
	if n == -1 {
		end := Date{first.Year, first.Month, last}
		return Date{first.Year, first.Month, last - (int(end.Weekday())-wd+7)%7}, true
	}
	d := 1 + (wd-int(first.Weekday())+7)%7 + 7*(n-1)
	if n < 1 || d > last {
		return Date{}, false
	}
	return Date{first.Year, first.Month, d}, true
}

// matchOrdinal reads "(the) 15th of last month" and "(the) second Friday
// of last month" (also "in", and this/next month), from the ordinal w.
func matchOrdinal(text string, i int, s *scanner, w wordInfo, on Date) (Span, bool) {
	n := w.n
	if w.w == wTens {
		u, digits, e, ok := s.next()
		if !ok || digits > 0 || u.w != wOrdinal || u.n > 9 {
			return Span{}, false
		}
		n += u.n
		s.pos = e
	}
	w2, _, e2, ok := s.next()
	if !ok {
		return Span{}, false
	}
	s.pos = e2
	switch {
	case w2.w == wOf:
		first, end, ok := relMonth(s, on)
		if !ok || n < 1 || n > daysIn(first.Year, first.Month) {
			return Span{}, false // "the 31st of this month" in November
		}
		d := Date{first.Year, first.Month, n}
		return span(text, i, end, d, d, PrecisionDay)
	case w2.w == wWeekday && !w2.plural && !w2.abbr && n <= 5:
		return matchWeekdayOfMonth(text, i, s, w2.n, n, on)
	}
	return Span{}, false
}

// matchWeekdayOfMonth reads "of last month" (or "in") after "second
// Friday", for the n-th weekday wd (n = -1: the last one).
func matchWeekdayOfMonth(text string, i int, s *scanner, wd, n int, on Date) (Span, bool) {
	w, _, e, ok := s.next()
	if !ok || (w.w != wOf && w.w != wIn) {
		return Span{}, false
	}
	s.pos = e
	first, end, ok := relMonth(s, on)
	if !ok {
		return Span{}, false
	}
	d, ok := nthWeekday(first, wd, n)
	if !ok {
		return Span{}, false // "the fifth Monday of last month" when it had four
	}
	return span(text, i, end, d, d, PrecisionDay)
}

// matchWeekdayOfWeek reads "Thursday next week" and "Monday of last week"
// from the weekday wd.
func matchWeekdayOfWeek(text string, i int, s *scanner, wd int, on Date) (Span, bool) {
	if w, _, e, ok := s.next(); ok && w.w == wOf {
		s.pos = e
	}
	mon, end, ok := relWeek(s, on)
	if !ok {
		return Span{}, false
	}
	d := inWeek(mon, wd)
	return span(text, i, end, d, d, PrecisionDay)
}

// matchTheLast reads what follows "the last": a count ("the last two
// years") or "Friday of last month".
func matchTheLast(text string, i int, s *scanner, on Date) (Span, bool) {
	w, _, e, ok := s.next()
	if !ok {
		return Span{}, false
	}
	switch w.w {
	case wNumber, wTens:
		s.pos = e
		return matchCount(text, i, s, w, on)
	case wWeekday:
		if w.plural || w.abbr {
			return Span{}, false
		}
		s.pos = e
		return matchWeekdayOfMonth(text, i, s, w.n, -1, on)
	}
	return Span{}, false
}

// matchPast reads what follows "past" or "the past": a count ("past 4
// days"), week, month, year or weekend.
func matchPast(text string, i int, s *scanner, on Date) (Span, bool) {
	w, _, e, ok := s.next()
	if !ok {
		return Span{}, false
	}
	if w.w == wNumber || w.w == wTens {
		s.pos = e
		return matchCount(text, i, s, w, on)
	}
	return pastSpan(text, i, e, w, on)
}

// pastSpan is "the past week/month/year" (the week, month or year that
// ends the day before on) or "the past weekend" (last weekend) for the unit
// w that ends at e.
func pastSpan(text string, i, e int, w wordInfo, on Date) (Span, bool) {
	if w.plural || w.n > 1 {
		return Span{}, false
	}
	last := on.AddDays(-1)
	switch w.w {
	case wWeek:
		return span(text, i, e, on.AddDays(-7), last, PrecisionDay)
	case wMonth:
		return span(text, i, e, on.AddMonths(-1), last, PrecisionDay)
	case wYear:
		return span(text, i, e, on.AddMonths(-12), last, PrecisionDay)
	case wWeekend:
		mon := on.monday()
		return span(text, i, e, mon.AddDays(-2), mon.AddDays(-1), PrecisionDay)
	}
	return Span{}, false
}

// readCount reads a number from its first word w (digits, one … ninety-nine,
// "twenty one"); 0 when it is not one.
func readCount(s *scanner, w wordInfo) int {
	n := w.n
	switch w.w {
	case wNumber:
	case wTens:
		if u, digits, e, ok := s.next(); ok && digits == 0 && u.w == wNumber && u.n <= 9 {
			n += u.n
			s.pos = e
		}
	default:
		return 0
	}
	return n
}

// matchCount reads "N days/weeks/months/years" after "last", "past" or
// "previous" (w is the number's first word): the N units that end the day
// before on.
func matchCount(text string, i int, s *scanner, w wordInfo, on Date) (Span, bool) {
	n := readCount(s, w)
	if n < 1 {
		return Span{}, false
	}
	unit, _, eu, ok := s.next()
	if !ok {
		return Span{}, false
	}
	if unit.n > 1 {
		n *= unit.n
	}
	var first Date
	switch unit.w {
	case wDay:
		first = on.AddDays(-n)
	case wWeek:
		first = on.AddDays(-7 * n)
	case wMonth:
		first = on.AddMonths(-n)
	case wYear:
		first = on.AddMonths(-12 * n)
	default:
		return Span{}, false
	}
	return span(text, i, eu, first, on.AddDays(-1), PrecisionDay)
}

// weekSpan is the week starting on Monday mon for a phrase ending at e, or
// one day of it when a weekday follows: "last week Sunday", "next week on
// Friday", "last week's Monday".
func weekSpan(text string, i, e int, mon Date) (Span, bool) {
	k := e
	for _, poss := range []string{"'s", "\u2019s"} {
		if strings.HasPrefix(text[e:], poss) && wordEnd(text, e+len(poss)) {
			k = e + len(poss)
			break
		}
	}
	s := &scanner{text: text, pos: k}
	if w, _, ew, ok := s.next(); ok && w.w == wOn && k == e {
		s.pos = ew
	}
	if w, _, ew, ok := s.next(); ok && w.w == wWeekday && !w.plural && !w.abbr {
		d := inWeek(mon, w.n)
		return span(text, i, ew, d, d, PrecisionDay)
	}
	return span(text, i, e, mon, mon.AddDays(6), PrecisionDay)
}

// matchRelative reads "this …", "last …", "previous …" and "next …".
func matchRelative(text string, i int, s *scanner, first word, on Date) (Span, bool) {
	w2, _, e2, ok := s.next()
	if !ok || (first != wThis && determinerBefore(text, i)) {
		return Span{}, false
	}
	switch w2.w {
	case wNumber, wTens:
		if first == wLast || first == wPrevious {
			s.pos = e2
			return matchCount(text, i, s, w2, on) // "last 3 weeks"
		}
		return Span{}, false // "next 3 days", "this 5"
	case wPast:
		if first != wThis {
			return Span{}, false
		}
		// "this past Sunday", "this past weekend", "this past week".
		s.pos = e2
		w3, _, e3, ok := s.next()
		if !ok {
			return Span{}, false
		}
		if w3.w == wWeekday && !w3.plural {
			return lastWeekday(text, i, e3, w3.n, on)
		}
		return pastSpan(text, i, e3, w3, on)
	}
	if w2.plural || (w2.n > 1 && w2.w != wWeekday) {
		return Span{}, false // "last decade", "next fortnight"
	}
	mon := on.monday()
	switch first {
	case wThis:
		switch w2.w {
		case wMorning, wAfternoon, wEvening, wNight:
			return span(text, i, e2, on, on, PrecisionDay)
		case wWeek:
			return weekSpan(text, i, e2, mon)
		case wMonth:
			return monthSpan(text, i, e2, on)
		case wYear:
			return yearSpan(text, i, e2, on.Year)
		}
	case wLast, wPrevious:
		switch w2.w {
		case wNight, wEvening:
			// "last night", "last evening": the evening of the day before.
			if first == wLast {
				return span(text, i, e2, on.AddDays(-1), on.AddDays(-1), PrecisionDay)
			}
		case wWeek:
			return weekSpan(text, i, e2, mon.AddDays(-7))
		case wWeekend:
			return span(text, i, e2, mon.AddDays(-2), mon.AddDays(-1), PrecisionDay)
		case wMonth:
			return monthSpan(text, i, e2, on.AddMonths(-1))
		case wYear:
			return yearSpan(text, i, e2, on.Year-1)
		case wWeekday:
			if !w2.abbr {
				// "last Friday of last month": the last Friday in it.
				s.pos = e2
				if sp, ok := matchWeekdayOfMonth(text, i, s, w2.n, -1, on); ok {
					return sp, true
				}
			}
			return lastWeekday(text, i, e2, w2.n, on)
		}
	case wNext:
		switch w2.w {
		case wWeek:
			return weekSpan(text, i, e2, mon.AddDays(7))
		case wMonth:
			return monthSpan(text, i, e2, on.AddMonths(1))
		case wYear:
			return yearSpan(text, i, e2, on.Year+1)
		}
	}
	return Span{}, false
}

// lastWeekday is the most recent weekday wd strictly before on.
func lastWeekday(text string, i, end, wd int, on Date) (Span, bool) {
	back := (int(on.Weekday()) - wd + 7) % 7
	if back == 0 {
		back = 7
	}
	d := on.AddDays(-back)
	return span(text, i, end, d, d, PrecisionDay)
}

// matchAgo reads "N days/weeks/months/years ago" with N in digits, in
// words (one … twenty, up to ninety-nine), "a", "an", "a couple (of)";
// also "N Fridays ago", "N days before yesterday", "N days after
// tomorrow" and "N days before now".
func matchAgo(text string, i int, s *scanner, w1 wordInfo, on Date, parens *parenIndex) (Span, bool) {
	if rangeBefore(text, i, parens) || determinerBefore(text, i) {
		return Span{}, false // "the 3 days before yesterday" may be all three
	}
	n := w1.n
	switch w1.w {
	case wA:
		// "a couple of days ago" or "a day ago".
		if w2, _, e2, ok := s.next(); ok && w2.w == wCouple {
			s.pos = e2
			n = 2
			if w3, _, e3, ok := s.next(); ok && w3.w == wOf {
				s.pos = e3
			}
		}
	case wCouple:
		if w2, _, e2, ok := s.next(); ok && w2.w == wOf {
			s.pos = e2
		} else {
			return Span{}, false
		}
	case wTens:
		n = readCount(s, w1)
	}
	if n < 1 {
		return Span{}, false
	}
	unit, _, eu, ok := s.next()
	if !ok {
		return Span{}, false
	}
	s.pos = eu
	w3, _, e3, ok := s.next()
	if !ok {
		return Span{}, false
	}
	base := on
	sign := -1
	end := e3
	switch w3.w {
	case wAgo:
	case wBefore, wAfter:
		// "3 days before yesterday", "2 days after tomorrow".
		s.pos = e3
		w4, _, e4, ok := s.next()
		if !ok {
			return Span{}, false
		}
		switch w4.w {
		case wYesterday:
			base = on.AddDays(-1)
		case wTomorrow:
			base = on.AddDays(1)
		case wToday:
		case wNow:
			if w3.w == wAfter {
				return Span{}, false // "3 days after now": a future count from now
			}
		default:
			return Span{}, false
		}
		if w3.w == wAfter {
			sign = 1
		}
		end = e4
	default:
		return Span{}, false
	}
	if unit.n > 1 && unit.w != wWeekday {
		n *= unit.n // a fortnight is two weeks, a decade ten years
	}
	var d Date
	switch unit.w {
	case wDay:
		d = base.AddDays(sign * n)
	case wWeek:
		d = base.AddDays(sign * 7 * n)
	case wMonth:
		d = base.AddMonths(sign * n)
	case wYear:
		d = base.AddMonths(sign * 12 * n)
	case wWeekend:
		// "two weekends ago": the weekend of the week N weeks back, the
		// latest being "last weekend".
		if !unit.plural || w3.w != wAgo {
			return Span{}, false
		}
		m := on.monday().AddDays(-7 * n)
		return span(text, i, end, m.AddDays(5), m.AddDays(6), PrecisionDay)
	case wWeekday:
		// "four Fridays ago": the fourth Friday back, the latest being
		// "last Friday".
		if !unit.plural || w3.w != wAgo || unit.abbr {
			return Span{}, false
		}
		back := (int(on.Weekday()) - unit.n + 7) % 7
		if back == 0 {
			back = 7
		}
		d = on.AddDays(-back - 7*(n-1))
	default:
		return Span{}, false
	}
	return span(text, i, end, d, d, PrecisionDay)
}

// monthSpan is the whole month holding d.
func monthSpan(text string, i, end int, d Date) (Span, bool) {
	first := Date{d.Year, d.Month, 1}
	return span(text, i, end, first, Date{d.Year, d.Month, daysIn(d.Year, d.Month)}, PrecisionMonth)
}

// yearSpan is the whole year y.
func yearSpan(text string, i, end int, y int) (Span, bool) {
	return span(text, i, end, Date{y, time.January, 1}, Date{y, time.December, 31}, PrecisionYear)
}

// span builds the Span for text[i:end], taking in a possessive "'s" that
// follows, when the phrase ends at a word boundary and its days exist.
func span(text string, i, end int, first, last Date, p Precision) (Span, bool) {
	if !first.valid() || !last.valid() {
		return Span{}, false
	}
	for _, poss := range []string{"'s", "\u2019s"} {
		if strings.HasPrefix(text[end:], poss) && wordEnd(text, end+len(poss)) {
			end += len(poss)
			break
		}
	}
	return Span{Start: i, End: end, Phrase: text[i:end], First: first, Last: last, Precision: p}, true
}

// determinerBefore reports whether the word before position i is one of
// the determiners.
func determinerBefore(text string, i int) bool {
	w, _ := wordBefore(text, i)
	var buf [8]byte
	if len(w) > len(buf) {
		return false
	}
	for k := 0; k < len(w); k++ {
		buf[k] = lower(w[k])
	}
	return determiners[string(buf[:len(w)])] // no allocation
}

// rangeBefore reports whether "N or", "N to" or "<unit> to" comes before
// position i, as in "two or three weeks ago" or "a week to ten days ago":
// a vague span, left alone.
func rangeBefore(text string, i int, parens *parenIndex) bool {
	w, j := wordBefore(text, i)
	if !strings.EqualFold(w, "or") && !strings.EqualFold(w, "to") {
		return false
	}
	n, _ := wordBefore(text, skipDateBefore(text, j, parens))
	if n == "" {
		return false
	}
	if isDigit(n[0]) {
		return true
	}
	info, ok := words().words[strings.ToLower(n)]
	switch info.w {
	case wNumber, wTens, wA, wDay, wWeek, wMonth, wYear:
		return ok
	}
	return false
}

// skipDateBefore returns where a parenthesised date that ends, after
// white space, just before position j starts ("this week (2023-05-15 to
// 2023-05-21) to"), so an earlier annotation does not change what a phrase
// reads before it; j when there is none.
func skipDateBefore(text string, j int, parens *parenIndex) int {
	k := j
	for k > 0 && (text[k-1] == ' ' || text[k-1] == '\t') {
		k--
	}
	if k == 0 || text[k-1] != ')' {
		return j
	}
	if open, ok := parens.openOf(text, k-1); ok && parens.groups[open].date {
		return open
	}
	return j
}

// wordBefore returns the word (up to 6 letters, digits or apostrophes)
// that ends just before the white space before position i, and where it
// starts; "" when there is none.
func wordBefore(text string, i int) (string, int) {
	j := i
	for j > 0 && (text[j-1] == ' ' || text[j-1] == '\t' || text[j-1] == '\n' || text[j-1] == '\r') {
		j--
	}
	if j == i {
		return "", i
	}
	k := j
	for k > 0 && (isAlnum(text[k-1]) || text[k-1] == '\'') && j-k < 7 {
		k--
	}
	if k == j || j-k > 6 || !wordStart(text, k) {
		return "", i
	}
	return text[k:j], k
}

// wordStart reports whether a word may start at i: the text before it is
// not a letter, digit or mark, nor a hyphen or apostrophe joined to one.
func wordStart(text string, i int) bool {
	if i == 0 {
		return true
	}
	c := text[i-1]
	if (c == '.' || c == ',') && isDigit(text[i]) && i >= 2 && isDigit(text[i-2]) {
		return false // the decimals of "1.5 years ago"
	}
	switch c {
	case '_', '/', '\\', '@', '#', '=', '&', '~', '$', '%':
		return false // part of a name, a path or a URL
	case '.':
		return !joins(text, i-1) // "www.today.com", "1.5 years ago"
	case '-', '\'':
		return !joins(text, i-1)
	}
	if c < utf8.RuneSelf {
		return !isAlnum(c)
	}
	r, _ := utf8.DecodeLastRuneInString(text[:i])
	if r == '\u2019' {
		return !joins(text, i-3)
	}
	return !isWordRune(r)
}

// startsWord reports whether a letter or digit starts at k.
func startsWord(text string, k int) bool {
	if text[k] < utf8.RuneSelf {
		return isAlnum(text[k])
	}
	r, _ := utf8.DecodeRuneInString(text[k:])
	return isWordRune(r)
}

// joins reports whether the character before position j is part of a word.
func joins(text string, j int) bool {
	if j <= 0 {
		return false
	}
	c := text[j-1]
	if c < utf8.RuneSelf {
		return isAlnum(c) || c == '_'
	}
	r, _ := utf8.DecodeLastRuneInString(text[:j])
	return isWordRune(r)
}

// wordEnd reports whether a word may end at k: what follows is not a
// letter, digit or mark, nor a hyphen joined to one ("last-minute").
func wordEnd(text string, k int) bool {
	if k >= len(text) {
		return true
	}
	c := text[k]
	switch c {
	case '_', '/', '\\', '@', '=', '&':
		return false // part of a name, a path or a URL
	case '.':
		return k+1 >= len(text) || !startsWord(text, k+1) // "today.txt"
	case '\'':
		return apostropheEnds(text, k+1)
	}
	if c == '-' {
		if k+1 >= len(text) {
			return true
		}
		n := text[k+1]
		if n < utf8.RuneSelf {
			return !isAlnum(n) && n != '_'
		}
		r, _ := utf8.DecodeRuneInString(text[k+1:])
		return !isWordRune(r)
	}
	if c < utf8.RuneSelf {
		return !isAlnum(c)
	}
	r, _ := utf8.DecodeRuneInString(text[k:])
	if r == '\u2019' {
		return apostropheEnds(text, k+3)
	}
	return !isWordRune(r)
}

// apostropheEnds reports whether a word ends before an apostrophe whose
// next byte is at k: when no letter follows it, or only the "s" of a
// possessive.
func apostropheEnds(text string, k int) bool {
	if k >= len(text) || !startsWord(text, k) {
		return true
	}
	return (text[k] == 's' || text[k] == 'S') && (k+1 >= len(text) || !startsWord(text, k+1))
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r))
}

func isAlnum(c byte) bool { return alnum[c] }

var alnum = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = isLetter(byte(c)) || isDigit(byte(c))
	}
	return t
}()

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
