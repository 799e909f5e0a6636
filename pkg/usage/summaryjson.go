package usage

import (
	"bytes"
	"encoding/json"
	"errors"
)

// MarshalJSON is the JSON of s: its fields, with the sessions built from
// their rows one at a time ([SessionSummaries.At]) where Sessions is; a
// value receiver, so that a Summary inside another value encodes so too.
func (s Summary) MarshalJSON() ([]byte, error) {
	head := summaryHead{By: s.By, Groups: s.Groups, Totals: s.Totals, Skipped: s.Skipped, BrokenLines: s.BrokenLines, BrokenAt: s.BrokenAt}
	n := s.Sessions.Len()
	if n > 0 {
		head.Sessions = &struct{}{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // encoding/json escapes what it compacts
	if err := enc.Encode(&head); err != nil {
		return nil, err
	}
	doc := bytes.Clone(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	if n == 0 {
		return doc, nil
	}
	// A key inside a JSON string has its quotes escaped: the first match
	// is the field itself.
	const marker = `"sessions":{}`
	at := bytes.Index(doc, []byte(marker))
	if at < 0 {
		return nil, errors.New("transcript: no sessions field")
	}
	b.Reset()
	b.Write(doc[:at])
	b.WriteString(`"sessions":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(s.Sessions.At(i)); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // the newline Encode ends with
	}
	b.WriteByte(']')
	b.Write(doc[at+len(marker):])
	return b.Bytes(), nil
}

// summaryHead is what a [Summary] encodes around its sessions: they go
// where Sessions is.
type summaryHead struct {
	By       string          `json:"by"`
	Sessions *struct{}       `json:"sessions,omitempty"`
	Groups   []*SummaryGroup `json:"groups,omitempty"`
	Totals   SummaryGroup    `json:"totals"`
	// What the report leaves out (see [Summary]).
	Skipped     []SkippedFile `json:"skipped,omitempty"`
	BrokenLines int           `json:"broken_lines,omitempty"`
	BrokenAt    []string      `json:"broken_at,omitempty"`
}
