package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// WriteJSON writes s as `harpe transcript --format json` does: indented
// by two spaces, with no HTML escaping, and a newline; byte for byte what
// an indenting json.Encoder writes of it, but with the sessions encoded
// one at a time instead of the whole document built in memory first.
func (s *Summary) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if err := s.writeJSON(bw, ""); err != nil {
		return err
	}
	if _, err := bw.WriteString("\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// MarshalJSON is the JSON of s, as [Summary.WriteJSON] writes it
// (encoding/json compacts it); a value receiver, so that a Summary
// inside another value encodes so too.
func (s Summary) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	err := s.writeJSON(&b, "")
	return b.Bytes(), err
}

// summaryHead is what a [Summary] writes around its sessions: they go
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

// writeJSON writes s as a json.Encoder indenting with prefix and two
// spaces would, without the newline.
func (s *Summary) writeJSON(w io.Writer, prefix string) error {
	head := summaryHead{By: s.By, Groups: s.Groups, Totals: s.Totals, Skipped: s.Skipped, BrokenLines: s.BrokenLines, BrokenAt: s.BrokenAt}
	if s.Sessions.Len() > 0 {
		head.Sessions = &struct{}{}
	}
	doc, err := encodeIndented(&head, prefix)
	if err != nil {
		return err
	}
	if head.Sessions == nil {
		_, err := w.Write(doc)
		return err
	}
	return spliceArray(w, doc, "sessions", "{}", prefix, s.Sessions.Len(), func(i int) any { return s.Sessions.At(i) })
}

// WriteJSON writes b as `harpe transcript --breakdown --format json`
// does: indented by two spaces, with no HTML escaping, and a newline.
func (b *Breakdown) WriteJSON(w io.Writer) error { return writeIndented(w, b) }

func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// encodeIndented is v as a json.Encoder indenting with prefix and two
// spaces (no HTML escaping) writes it, without the newline.
func encodeIndented(v any, prefix string) ([]byte, error) {
	return newIndenter(prefix).encode(v)
}

// indenter encodes values as encodeIndented does, into one buffer that
// each encoding reuses.
type indenter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newIndenter(prefix string) *indenter {
	d := &indenter{}
	d.enc = json.NewEncoder(&d.buf)
	d.enc.SetEscapeHTML(false)
	d.enc.SetIndent(prefix, "  ")
	return d
}

// encode is v encoded, valid until the next call.
func (d *indenter) encode(v any) ([]byte, error) {
	d.buf.Reset()
	if err := d.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(d.buf.Bytes(), []byte("\n")), nil
}

// WriteListingsJSON writes one listing as an indented JSON object, or
// several as an array of them, as `harpe transcript --messages --format
// json` does: byte for byte what an indenting json.Encoder (no HTML
// escaping) writes, but with the messages encoded one at a time instead
// of the whole document built in memory first.
func WriteListingsJSON(w io.Writer, ls []*Listing) error {
	if len(ls) == 1 {
		return writeListingJSON(w, ls[0], "", "\n")
	}
	if len(ls) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	if _, err := io.WriteString(w, "[\n"); err != nil {
		return err
	}
	for i, l := range ls {
		end := ",\n"
		if i == len(ls)-1 {
			end = "\n"
		}
		if _, err := io.WriteString(w, "  "); err != nil {
			return err
		}
		if err := writeListingJSON(w, l, "  ", end); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]\n")
	return err
}

// writeListingJSON writes l as a json.Encoder indenting with prefix and two
// spaces would (the first line without the prefix), then end.
func writeListingJSON(w io.Writer, l *Listing, prefix, end string) error {
	head := *l
	head.Messages = nil
	doc, err := encodeIndented(&head, prefix)
	if err != nil {
		return err
	}
	if err := spliceArray(w, doc, "messages", "null", prefix, len(l.Messages), func(i int) any { return &l.Messages[i] }); err != nil {
		return err
	}
	_, err = io.WriteString(w, end)
	return err
}

// spliceArray writes doc, a top-level object encoded as encodeIndented
// does with prefix, with its field name (encoded as placeholder) given
// the array of n elements elem(i), each encoded in turn, as the same
// encoder would have written them there.
func spliceArray(w io.Writer, doc []byte, name, placeholder, prefix string, n int, elem func(i int) any) error {
	// A key inside a JSON string would have its quotes escaped, so the
	// first match is the field itself.
	marker := []byte(`"` + name + `": ` + placeholder)
	at := bytes.Index(doc, marker)
	if at < 0 {
		return errors.New("no " + name + " field")
	}
	ew := &errWriter{w: w}
	ew.write(doc[:at])
	ew.writeString(`"` + name + `": `)
	if n == 0 {
		ew.writeString("[]")
	} else {
		ew.writeString("[\n")
		inner := prefix + "    "
		d := newIndenter(inner)
		for i := range n {
			b, err := d.encode(elem(i))
			if err != nil {
				return err
			}
			ew.writeString(inner)
			ew.write(b)
			if i < n-1 {
				ew.writeString(",\n")
			} else {
				ew.writeString("\n")
			}
			if ew.err != nil {
				return ew.err
			}
		}
		ew.writeString(prefix + "  ]")
	}
	ew.write(doc[at+len(marker):])
	return ew.err
}

// errWriter writes until the first error, and keeps it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

func (e *errWriter) writeString(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}
