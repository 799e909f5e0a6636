package dates

import "strings"

// This file decides whether a phrase already carries a date, so that it is
// left alone and annotating twice changes nothing.

// dated reports whether a date already follows the phrase ending at k: a
// parenthesised date such as an earlier annotation, "(May 19)" or
// "(Friday)", or, after a comma or a space, a written date such as
// "2023-05-19", "19 May" or "May 19".
func dated(text string, k int, parens *parenIndex) bool {
	j := k
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	if j < len(text) && text[j] == '(' {
		return parens.dated(text, j)
	}
	if j < len(text) && text[j] == ',' {
		j++
		for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
			j++
		}
	} else if j == k {
		return false
	}
	if len(text)-j > 4 && strings.EqualFold(text[j:j+4], "the ") {
		j += 4
	}
	return writtenDateAt(text, j)
}

// parenIndex knows, for each parenthesised group that closes on its own
// line, where it closes and whether it holds a date: a run of four digits
// (a year), numbers written as 5/19 or 19.5.23, a weekday name, a month
// name with a number, or a month name alone. Nested groups count toward
// the groups around them, so an annotation written inside a group never
// changes whether the group is a date. The index is built on first use in
// one pass, so any number of groups costs one scan of the text.
type parenIndex struct {
	built  bool
	groups map[int]parenGroup // by the position of "("
	opens  map[int]int        // the position of "(" by that of ")"
}

type parenGroup struct {
	close int
	date  bool
}

// dateSigns are the parts of a date found in a stretch of text.
type dateSigns struct {
	year, numeric, weekday, month, digit bool
}

func (d *dateSigns) add(e dateSigns) {
	d.year = d.year || e.year
	d.numeric = d.numeric || e.numeric
	d.weekday = d.weekday || e.weekday
	d.month = d.month || e.month
	d.digit = d.digit || e.digit
}

func (p *parenIndex) build(text string) {
	p.built = true
	p.groups = map[int]parenGroup{}
	p.opens = map[int]int{}
	type frame struct {
		open, seg int // the "(", and where the text not in an inner group resumes
		signs     dateSigns
		nested    bool
	}
	var stack []frame
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(':
			if n := len(stack); n > 0 {
				stack[n-1].signs.add(signsOf(text[stack[n-1].seg:i]))
				stack[n-1].nested = true
			}
			stack = append(stack, frame{open: i, seg: i + 1})
		case ')':
			n := len(stack)
			if n == 0 {
				continue
			}
			f := stack[n-1]
			stack = stack[:n-1]
			f.signs.add(signsOf(text[f.seg:i]))
			g := f.signs
			date := g.year || g.numeric || g.weekday || (g.month && g.digit)
			if !f.nested {
				if _, ok := monthName(strings.TrimSpace(text[f.open+1 : i])); ok {
					date = true
				}
			}
			p.groups[f.open] = parenGroup{close: i, date: date}
			p.opens[i] = f.open
			if n > 1 {
				stack[n-2].signs.add(f.signs)
				stack[n-2].seg = i + 1
			}
		case '\n':
			stack = stack[:0]
		}
	}
}

// dated reports whether the "(" at open starts a group that closes on its
// line and holds a date.
func (p *parenIndex) dated(text string, open int) bool {
	if !p.built {
		p.build(text)
	}
	return p.groups[open].date
}

// openOf returns the "(" that the ")" at close closes.
func (p *parenIndex) openOf(text string, close int) (int, bool) {
	if !p.built {
		p.build(text)
	}
	open, ok := p.opens[close]
	return open, ok
}

// signsOf finds the parts of a date in s, which holds no parentheses.
func signsOf(s string) dateSigns {
	var d dateSigns
	run := 0
	for p := 0; p < len(s); p++ {
		c := s[p]
		if isDigit(c) {
			d.digit = true
			run++
			if run >= 4 {
				d.year = true
			}
			if p+2 < len(s) && !isDigit(s[p+1]) && isDigit(s[p+2]) {
				sep := s[p+1]
				if sep == '/' {
					d.numeric = true
				}
				q := p + 2
				for q < len(s) && isDigit(s[q]) {
					q++
				}
				if (sep == '-' || sep == '.') && q+1 < len(s) && s[q] == sep && isDigit(s[q+1]) {
					d.numeric = true
				}
			}
			continue
		}
		run = 0
		if isLetter(c) && (p == 0 || !isLetter(s[p-1])) {
			q := p
			for q < len(s) && isLetter(s[q]) {
				q++
			}
			if _, ok := weekdayName(s[p:q]); ok {
				d.weekday = true
			}
			if _, ok := monthName(s[p:q]); ok {
				d.month = true
			}
		}
	}
	return d
}

// writtenDateAt reports whether a written date starts at j: YYYY-MM-DD,
// "19 May", "19th of May" or "May 19".
func writtenDateAt(text string, j int) bool {
	p := j
	for p < len(text) && isDigit(text[p]) {
		p++
	}
	switch n := p - j; {
	case n == 4:
		return p+5 < len(text) && text[p] == '-' && isDigit(text[p+1]) && isDigit(text[p+2]) && text[p+3] == '-' && isDigit(text[p+4])
	case n == 1 || n == 2:
		rest := text[p:min(len(text), p+16)]
		if len(rest) >= 2 && isLetter(rest[0]) && isLetter(rest[1]) {
			switch lower(rest[0]) {
			case 's', 'n', 'r', 't':
				if suf := string([]byte{lower(rest[0]), lower(rest[1])}); suf == "st" || suf == "nd" || suf == "rd" || suf == "th" {
					rest = rest[2:]
				}
			}
		}
		rest = strings.TrimLeft(rest, " ")
		if len(rest) >= 3 && strings.EqualFold(rest[:3], "of ") {
			rest = rest[3:]
		}
		q := 0
		for q < len(rest) && isLetter(rest[q]) {
			q++
		}
		_, ok := monthName(rest[:q])
		return ok
	case n == 0:
		q := p
		for q < len(text) && isLetter(text[q]) {
			q++
		}
		if _, ok := monthName(text[p:q]); !ok {
			return false
		}
		if q < len(text) && text[q] == '.' {
			q++
		}
		for q < len(text) && text[q] == ' ' {
			q++
		}
		return q < len(text) && isDigit(text[q])
	}
	return false
}
