package play

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/dates"
)

// DatesArgs are the arguments of "dates".
type DatesArgs struct {
	Text string `json:"text"`
	// SaidOn is the day the text was said, YYYY-MM-DD (required).
	SaidOn string `json:"said_on"`
}

// DatesResult is the answer of "dates", the JSON form of `harpe dates`.
type DatesResult struct {
	SaidOn string `json:"said_on"`
	Spans  []Span `json:"spans"`
	// Text is the text with each phrase's dates written after it.
	Text string `json:"text"`
}

// Span is one relative phrase and the days it names.
type Span struct {
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Phrase  string `json:"phrase"`
	Date    string `json:"date"`
	EndDate string `json:"end_date"`
	// Label is the annotation written after the phrase.
	Label string `json:"label"`
}

func datesFn(raw []byte) (any, error) {
	var a DatesArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return Dates(a)
}

// Dates resolves the relative dates of the text, as `harpe dates
// --said-on` does.
func Dates(a DatesArgs) (*DatesResult, error) {
	s := strings.TrimSpace(a.SaidOn)
	if s == "" {
		return nil, fmt.Errorf("said_on: required: the day the text was said (YYYY-MM-DD)")
	}
	y, m, d, ok := isoDate(s)
	if !ok {
		return nil, fmt.Errorf("said_on: %q is not a date (YYYY-MM-DD)", s)
	}
	day, err := dates.NewDate(y, time.Month(m), d)
	if err != nil {
		return nil, fmt.Errorf("said_on: %q: %v", s, err)
	}
	text, spans, err := dates.Annotate(context.Background(), a.Text, day)
	if err != nil {
		return nil, err
	}
	out := &DatesResult{SaidOn: day.String(), Spans: make([]Span, len(spans)), Text: text}
	for i, sp := range spans {
		out.Spans[i] = Span{Start: sp.Start, End: sp.End, Phrase: sp.Phrase, Date: sp.First.String(), EndDate: sp.Last.String(), Label: sp.Label()}
	}
	return out, nil
}

// isoDate reads YYYY-MM-DD without judging the ranges (dates.NewDate does,
// with a message naming the part that is wrong).
func isoDate(s string) (y, m, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	num := func(t string) (int, bool) {
		n := 0
		for _, c := range []byte(t) {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	var oy, om, od bool
	y, oy = num(s[:4])
	m, om = num(s[5:7])
	d, od = num(s[8:])
	return y, m, d, oy && om && od
}
