package dates

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseDay reads a day written YYYY-MM-DD (such as 2023-05-20), the one
// form a day the text was said is given in; surrounding white space is
// ignored. Session timestamps in other forms are [ParseAnchor]'s.
func ParseDay(s string) (Date, error) {
	t := strings.TrimSpace(s)
	digits := func(t string) bool {
		return strings.Trim(t, "0123456789") == ""
	}
	if len(t) != 10 || t[4] != '-' || t[7] != '-' || !digits(t[:4]) || !digits(t[5:7]) || !digits(t[8:]) {
		return Date{}, fmt.Errorf("%q is not a date", s)
	}
	y, _ := strconv.Atoi(t[:4])
	m, _ := strconv.Atoi(t[5:7])
	d, _ := strconv.Atoi(t[8:])
	day, err := NewDate(y, time.Month(m), d)
	if err != nil {
		return Date{}, fmt.Errorf("%q: %v", s, err)
	}
	return day, nil
}

// AnchorTime reads a timestamp as [ParseAnchor] does and returns
// midnight UTC of the day it names, so that the day read back in the
// time's own location is that day.
func AnchorTime(s string) (time.Time, error) {
	d, err := ParseAnchor(s)
	if err != nil {
		return time.Time{}, err
	}
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, time.UTC), nil
}

// ReportSpan is a [Span] as harpe dates reports it in JSON: byte offsets
// into the text, and always full days ("date" the first, "end_date" the
// last).
type ReportSpan struct {
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Phrase  string `json:"phrase"`
	Date    string `json:"date"`
	EndDate string `json:"end_date"`
}

// ReportSpans is spans as [ReportSpan]s, never nil.
func ReportSpans(spans []Span) []ReportSpan {
	out := make([]ReportSpan, len(spans))
	for i, s := range spans {
		out[i] = ReportSpan{Start: s.Start, End: s.End, Phrase: s.Phrase, Date: s.First.String(), EndDate: s.Last.String()}
	}
	return out
}

// TextReport is the report on one text annotated by [Annotate]: the
// file it came from, the day it was said, the spans and the annotated
// text.
type TextReport struct {
	File   string       `json:"file"`
	SaidOn string       `json:"said_on"`
	Spans  []ReportSpan `json:"spans"`
	Text   string       `json:"text"`
}

// ItemReport is the report on one context item dated by [AnnotateItem].
// SaidOn is null for an item with no day to count from.
type ItemReport struct {
	File   string          `json:"file"`
	Line   int             `json:"line"`
	ID     json.RawMessage `json:"id"`
	SaidOn *string         `json:"said_on"`
	Spans  []ReportSpan    `json:"spans"`
}

// AnnotateItem dates the content of one context item: by the calendar
// day of its timestamp at in at's own offset, else by def when def is not
// nil; with neither, nothing is dated. It returns the annotated content
// (content itself when nothing changed) and the item's report, whose
// File, Line and ID are the caller's to fill.
func AnnotateItem(ctx context.Context, content string, at *time.Time, def *Date) (string, ItemReport, error) {
	rep := ItemReport{Spans: []ReportSpan{}}
	var day Date
	switch {
	case at != nil:
		day = DateOf(*at)
	case def != nil:
		day = *def
	default:
		return content, rep, nil
	}
	s := day.String()
	rep.SaidOn = &s
	annotated, spans, err := Annotate(ctx, content, day)
	if err != nil {
		return "", ItemReport{}, err
	}
	rep.Spans = ReportSpans(spans)
	return annotated, rep, nil
}
