package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// WriteJSON writes s as `harpe transcript --format json` does: indented
// by two spaces, with no HTML escaping, and a newline.
func (s *Summary) WriteJSON(w io.Writer) error { return writeIndented(w, s) }

// WriteJSON writes b as `harpe transcript --breakdown --format json`
// does: indented by two spaces, with no HTML escaping, and a newline.
func (b *Breakdown) WriteJSON(w io.Writer) error { return writeIndented(w, b) }

func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	doc := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	// A key inside a JSON string would have its quotes escaped, so the
	// first match is the field itself.
	marker := []byte(`"messages": null`)
	at := bytes.Index(doc, marker)
	if at < 0 {
		return errors.New("listing: no messages field")
	}
	ew := &errWriter{w: w}
	ew.write(doc[:at])
	ew.writeString(`"messages": `)
	if len(l.Messages) == 0 {
		ew.writeString("[]")
	} else {
		ew.writeString("[\n")
		inner := prefix + "    "
		var mb bytes.Buffer
		menc := json.NewEncoder(&mb)
		menc.SetEscapeHTML(false)
		menc.SetIndent(inner, "  ")
		for i := range l.Messages {
			mb.Reset()
			if err := menc.Encode(&l.Messages[i]); err != nil {
				return err
			}
			ew.writeString(inner)
			ew.write(bytes.TrimSuffix(mb.Bytes(), []byte("\n")))
			if i < len(l.Messages)-1 {
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
	ew.writeString(end)
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
