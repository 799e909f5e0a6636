package dates

import "strings"

// This file decides whether the words around a phrase change what it
// means, so that it is left alone rather than dated wrong: in "3 days
// before yesterday", "end of last week" or "1 month 21 days ago", the
// phrase the scan found is only part of the expression.

// shifted reports whether the words just before or just after the phrase s
// turn it into part of a longer expression that names another day or a
// part of its span.
func shifted(text string, s Span, parens *parenIndex) bool {
	isSpan := s.First != s.Last
	p := strings.TrimRight(s.Phrase, "'s\u2019")
	ago := len(p) >= 3 && strings.EqualFold(p[len(p)-3:], "ago")
	w1, j1, comma := prevWord(text, s.Start, parens)
	if comma {
		// A list ("last wed, last yr", "three weeks ago, 2 wks ago"), but
		// "2 years, 21 days ago" is one duration.
		switch words().words[w1].w {
		case wDay, wWeek, wMonth, wYear, wWeekday:
			if !ago {
				w1 = "" // but "Friday, two weeks ago" is that week's Friday
			}
		default:
			w1 = ""
		}
	}
	switch w1 {
	case "ago":
		return true // "a week ago yesterday"
	case "than", "over", "least", "under", "within", "half", "quarter":
		if ago {
			// "more than two weeks ago" is any day before that one; "half a
			// year ago" is not "a year ago".
			return true
		}
	case "and":
		if w2, _, _ := prevWord(text, j1, parens); ago {
			switch words().words[w2].w {
			case wDay, wWeek, wMonth, wYear:
				return true // "1 month and 21 days ago"
			}
		}
	case "before", "after", "from", "of", "in", "to", "till", "until", "through":
		// "the week before last week", "end of last week", "the first
		// Friday in this month", "1 month and 21 days ago".
		if w2, _, _ := prevWord(text, j1, parens); measure(w2) {
			return true
		}
	case "early", "earlier", "late", "later", "mid", "end", "rest", "start", "beginning", "middle", "remainder":
		// "late last week" names part of the week; "late last night" is
		// still that day.
		if isSpan {
			return true
		}
	}
	if info, ok := words().words[w1]; ok {
		switch info.w {
		case wDay, wWeek, wWeekend, wMonth, wYear:
			// A duration or a period just before: "2 years 21 days ago",
			// "a week yesterday", "this month last year"; but "all day
			// yesterday" is still yesterday.
			w2, _, _ := prevWord(text, j1, parens)
			switch words().words[w2].w {
			case wNumber, wTens, wA, wCouple:
				return true
			case wThis, wLast, wNext, wPrevious, wPast:
				if !comma {
					return true
				}
			}
			if isDigits(w2) || (ago && !comma) {
				return true
			}
		case wWeekday:
			if isSpan || ago {
				return true // "Friday, next week", "Friday, two weeks ago"
			}
			if int(s.First.Weekday()) != info.n {
				return true // "Saturday the 13th of last month" when the 13th was a Thursday
			}
		}
	}
	if isSpan && measure(w1) {
		// "from 4 to 22 this month", "june next year", "the 20th next
		// month", "the third quarter this year".
		return true
	}

	n1, k1 := nextWord(text, s.End)
	if !isSpan && (n1 == "week" || n1 == "fortnight") {
		return true // "tomorrow week", "last Friday week": a week after that day
	}
	if lastCount(s.Phrase) {
		switch n1 {
		case "at", "before", "after", "until", "till", "in", "prior", "leading":
			// "the last two years at school" may be any two years.
			return true
		}
	}
	switch n1 {
	case "of":
		return true // "last week of May", "last Friday of the month"
	case "between":
		return isSpan // "last week between Friday and Sunday"
	case "from":
		if n2, _ := nextWord(text, k1); isSpan && words().words[n2].w == wWeekday {
			return true // "this week from Tue to Thur"
		}
	case "last", "next", "this", "previous", "past":
		switch n2, _ := nextWord(text, k1); words().words[n2].w {
		case wDay, wWeek, wWeekend, wMonth, wYear:
			return true // "this month last year"
		}
	}
	if ago {
		switch n1 {
		case "yesterday", "today", "tomorrow", "tonight", "last", "next", "this", "previous":
			return true // "two weeks ago yesterday", "a week ago last Friday"
		case "on":
			// "a week ago on Friday", "a month ago on the 3rd" (and, to be
			// safe, "a week ago on the beach" too).
			n2, _ := nextWord(text, k1)
			if _, month := monthName(n2); month || n2 == "the" || words().words[n2].w == wWeekday {
				return true
			}
		case "in", "at", "around", "during", "over", "by":
			// "3 years ago in May", "a year ago at Christmas": that month or
			// feast, not the same day of the month.
			n2, k2 := nextWord(text, k1)
			if n2 == "the" {
				n2, _ = nextWord(text, k2) // "in the summer"
			}
			if _, month := monthName(n2); month || season[n2] {
				return true
			}
		}
		if words().words[n1].w == wWeekday {
			return true // "a week ago Monday"
		}
	}
	return false
}

// season holds the seasons and feasts that, after "N years ago in" or
// "at", name a time of that year rather than the same day.
var season = map[string]bool{
	"spring": true, "summer": true, "fall": true, "autumn": true, "winter": true, "christmas": true,
	"easter": true, "thanksgiving": true, "halloween": true, "new": true,
}

// measure reports whether w (lowercase) counts or places time, so that a
// "before", "after", "of" or "in" after it shifts the phrase that follows:
// a unit, a number, an ordinal, a weekday, a month name, or a word such as
// "end" or "rest".
func measure(w string) bool {
	if w == "" {
		return false
	}
	if isDigit(w[0]) {
		return true // "4 till 23 of this month", "the 15th of"
	}
	if info, ok := words().words[w]; ok {
		switch info.w {
		case wDay, wWeek, wWeekend, wMonth, wYear, wWeekday, wNumber, wTens, wOrdinal, wMorning, wAfternoon, wEvening, wNight, wLast:
			return true
		}
	}
	switch w {
	case "end", "start", "beginning", "middle", "rest", "remainder", "half", "part", "quarter", "close",
		"hour", "hours", "minute", "minutes", "mid", "same":
		return true
	}
	_, month := monthName(w)
	return month
}

// isDigits reports whether w is a run of ASCII digits.
func isDigits(w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) {
			return false
		}
	}
	return true
}

// prevWord returns the word before position i, as canonical gives it, and
// where it starts; for a joined word, its last part ("23" for "4-23").
// White space, one comma (comma says so) and a parenthesised date (an
// earlier annotation) are passed over, so that annotating a text does not
// change what a later phrase reads before it. It is "" when no word is
// there.
func prevWord(text string, i int, parens *parenIndex) (w string, start int, comma bool) {
	j := skipSpaceBack(text, i)
	if j > 0 && text[j-1] == ',' {
		j = skipSpaceBack(text, j-1)
		comma = true
	}
	if j > 0 && text[j-1] == ')' {
		if k := skipDateBefore(text, j, parens); k != j {
			j = skipSpaceBack(text, k)
		}
	}
	k := j
	for k > 0 && (isAlnum(text[k-1]) || text[k-1] == '\'') && j-k < 12 {
		k--
	}
	if k == j {
		return "", i, false
	}
	return canonical(text[k:j]), k, comma
}

// guardWordList gives the words, besides those of the phrases, that the guards
// look for, so that canonical finds them without allocating.
func guardWordList() map[string]string {
	m := map[string]string{}
	for _, w := range []string{"from", "and", "to", "till", "until", "through", "early", "earlier", "late",
		"later", "mid", "end", "rest", "start", "beginning", "middle", "remainder", "between", "at", "prior",
		"leading", "half", "part", "quarter", "close", "hour", "hours", "minute", "minutes", "same",
		"than", "over", "least", "under", "within", "around", "during", "by",
		"spring", "summer", "fall", "autumn", "winter", "christmas", "easter", "thanksgiving", "halloween", "new"} {
		m[w] = w
	}
	return m
}

// canonical returns the lowercase form of the word w when the guards may
// look for it (a phrase word, a guard word), w itself when it starts with a
// digit or is a month name, and "" otherwise. It does not allocate.
func canonical(w string) string {
	if w == "" || isDigit(w[0]) {
		return w
	}
	if _, ok := monthName(w); ok {
		return w
	}
	if len(w) > 12 {
		return ""
	}
	var buf [12]byte
	for i := 0; i < len(w); i++ {
		buf[i] = lower(w[i])
	}
	lw := buf[:len(w)]
	t := words()
	for h := wordHash(lw); t.table[h].key != ""; h = (h + 1) % uint(len(t.table)) {
		if t.table[h].key == string(lw) {
			return t.table[h].key
		}
	}
	return t.guard[string(lw)]
}

// skipSpaceBack returns where the white space that ends at i starts.
func skipSpaceBack(text string, i int) int {
	for i > 0 {
		switch {
		case text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n' || text[i-1] == '\r':
			i--
		case i >= 2 && text[i-2] == 0xC2 && text[i-1] == 0xA0:
			i -= 2
		default:
			return i
		}
	}
	return i
}

// nextWord returns the word of ASCII letters after the white space at k, as
// canonical gives it, and where it ends; "" when the next thing is not a
// word.
func nextWord(text string, k int) (string, int) {
	j := k
	for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == '\r') {
		j++
	}
	if j == k && k < len(text) {
		return "", k
	}
	e := j
	for e < len(text) && isLetter(text[e]) && e-j < 12 {
		e++
	}
	if e == j || !wordEnd(text, e) {
		return "", k
	}
	return canonical(text[j:e]), e
}

// lastCount reports whether phrase is a count after "last" ("last 3
// weeks", "the last two years"), which can also be the last units of
// another stretch of time.
func lastCount(phrase string) bool {
	p := phrase
	if len(p) > 3 && strings.EqualFold(p[:3], "the") {
		p = p[3:]
	}
	p = strings.TrimLeft(p, " \t\r\n\u00a0")
	if len(p) < 4 || !strings.EqualFold(p[:4], "last") {
		return false
	}
	p = strings.TrimLeft(p[4:], " \t\r\n\u00a0")
	if p == "" {
		return false
	}
	if isDigit(p[0]) {
		return true
	}
	k := 0
	for k < len(p) && isLetter(p[k]) {
		k++
	}
	w := words().words[canonical(p[:k])].w
	return w == wNumber || w == wTens
}
