package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/harpe-dev/harpe/pkg/usage"
)

// WriteTranscriptSummaryJSON writes s as `harpe transcript --format json`
// does: indented by two spaces, with no HTML escaping, and a newline;
// byte for byte what an indenting json.Encoder writes of it, but with the
// sessions encoded one at a time instead of the whole document built in
// memory first.
func WriteTranscriptSummaryJSON(w io.Writer, s *usage.Summary) error {
	bw := bufio.NewWriter(w)
	if err := transcriptSummaryJSON(bw, s, ""); err != nil {
		return err
	}
	if _, err := bw.WriteString("\n"); err != nil {
		return err
	}
	return bw.Flush()
}

// transcriptSummaryHead is what a [usage.Summary] writes around its
// sessions: they go where Sessions is. Its fields are the summary's
// (TestTranscriptSummaryJSONOracle holds them to its JSON).
type transcriptSummaryHead struct {
	By       string                `json:"by"`
	Sessions *struct{}             `json:"sessions,omitempty"`
	Groups   []*usage.SummaryGroup `json:"groups,omitempty"`
	Totals   usage.SummaryGroup    `json:"totals"`
	// What the report leaves out (see [usage.Summary]).
	Skipped     []usage.SkippedFile `json:"skipped,omitempty"`
	BrokenLines int                 `json:"broken_lines,omitempty"`
	BrokenAt    []string            `json:"broken_at,omitempty"`
}

// transcriptSummaryJSON writes s as a json.Encoder indenting with prefix
// and two spaces would, without the newline.
func transcriptSummaryJSON(w io.Writer, s *usage.Summary, prefix string) error {
	head := transcriptSummaryHead{By: s.By, Groups: s.Groups, Totals: s.Totals, Skipped: s.Skipped, BrokenLines: s.BrokenLines, BrokenAt: s.BrokenAt}
	if s.Sessions.Len() > 0 {
		head.Sessions = &struct{}{}
	}
	doc, err := jsonEncodeIndented(&head, prefix)
	if err != nil {
		return err
	}
	if head.Sessions == nil {
		_, err := w.Write(doc)
		return err
	}
	return jsonSpliceArray(w, doc, "sessions", "{}", prefix, s.Sessions.Len(), func(i int) any { return s.Sessions.At(i) })
}

// WriteTranscriptBreakdownJSON writes b as `harpe transcript --breakdown
// --format json` does: indented by two spaces, with no HTML escaping, and
// a newline.
func WriteTranscriptBreakdownJSON(w io.Writer, b *usage.Breakdown) error {
	return jsonWriteIndented(w, b)
}

// jsonWriteIndented writes v indented by two spaces, with no HTML
// escaping, and a newline.
func jsonWriteIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonEncodeIndented is v as a json.Encoder indenting with prefix and two
// spaces (no HTML escaping) writes it, without the newline.
func jsonEncodeIndented(v any, prefix string) ([]byte, error) {
	return newJSONIndenter(prefix).encode(v)
}

// jsonIndenter encodes values as jsonEncodeIndented does, into one buffer that
// each encoding reuses.
type jsonIndenter struct {
	buf bytes.Buffer
	enc *json.Encoder
}

func newJSONIndenter(prefix string) *jsonIndenter {
	d := &jsonIndenter{}
	d.enc = json.NewEncoder(&d.buf)
	d.enc.SetEscapeHTML(false)
	d.enc.SetIndent(prefix, "  ")
	return d
}

// encode is v encoded, valid until the next call.
func (d *jsonIndenter) encode(v any) ([]byte, error) {
	d.buf.Reset()
	if err := d.enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(d.buf.Bytes(), []byte("\n")), nil
}

// WriteTranscriptListingsJSON writes one listing as an indented JSON object, or
// several as an array of them, as `harpe transcript --messages --format
// json` does: byte for byte what an indenting json.Encoder (no HTML
// escaping) writes, but with the messages encoded one at a time instead
// of the whole document built in memory first.
func WriteTranscriptListingsJSON(w io.Writer, ls []*usage.Listing) error {
	if len(ls) == 1 {
		return transcriptListingJSON(w, ls[0], "", "\n")
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
		if err := transcriptListingJSON(w, l, "  ", end); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]\n")
	return err
}

// transcriptListingJSON writes l as a json.Encoder indenting with prefix and
// two spaces would (the first line without the prefix), then end.
func transcriptListingJSON(w io.Writer, l *usage.Listing, prefix, end string) error {
	head := *l
	head.Messages = nil
	doc, err := jsonEncodeIndented(&head, prefix)
	if err != nil {
		return err
	}
	if err := jsonSpliceArray(w, doc, "messages", "null", prefix, len(l.Messages), func(i int) any { return &l.Messages[i] }); err != nil {
		return err
	}
	_, err = io.WriteString(w, end)
	return err
}

// jsonSpliceArray writes doc, a top-level object encoded as jsonEncodeIndented
// does with prefix, with its field name (encoded as placeholder) given
// the array of n elements elem(i), each encoded in turn, as the same
// encoder would have written them there.
func jsonSpliceArray(w io.Writer, doc []byte, name, placeholder, prefix string, n int, elem func(i int) any) error {
	// A key inside a JSON string would have its quotes escaped, so the
	// first match is the field itself.
	marker := []byte(`"` + name + `": ` + placeholder)
	at := bytes.Index(doc, marker)
	if at < 0 {
		return errors.New("no " + name + " field")
	}
	ew := &jsonErrWriter{w: w}
	ew.write(doc[:at])
	ew.writeString(`"` + name + `": `)
	if n == 0 {
		ew.writeString("[]")
	} else {
		ew.writeString("[\n")
		inner := prefix + "    "
		d := newJSONIndenter(inner)
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

// jsonErrWriter writes until the first error, and keeps it.
type jsonErrWriter struct {
	w   io.Writer
	err error
}

func (e *jsonErrWriter) write(p []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(p)
	}
}

func (e *jsonErrWriter) writeString(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}
