package play

import (
	"context"
	"fmt"
	"strings"

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

// Span is one relative phrase and the days it names, as `harpe dates`
// reports it, with the annotation written after the phrase.
type Span struct {
	dates.ReportSpan
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
	day, err := dates.ParseDay(s)
	if err != nil {
		return nil, fmt.Errorf("said_on: %v; accepted: YYYY-MM-DD such as 2023-05-20", err)
	}
	text, spans, err := dates.Annotate(context.Background(), a.Text, day)
	if err != nil {
		return nil, err
	}
	out := &DatesResult{SaidOn: day.String(), Spans: make([]Span, len(spans)), Text: text}
	for i, rs := range dates.ReportSpans(spans) {
		out.Spans[i] = Span{ReportSpan: rs, Label: spans[i].Label()}
	}
	return out, nil
}
