package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// WriteJSON writes the report as harpe prints it: indented by two spaces,
// with a final newline, no HTML escaping, byte for byte what
// encoding/json's Encoder (SetIndent("", "  "), SetEscapeHTML(false))
// writes for it. The lists of kept and dropped items, which hold one
// entry per input item, are written directly, without a reflective pass
// and a re-indenting one; w is written in pieces of about 64 KiB.
func (r *Report) WriteJSON(w io.Writer) error {
	// The fields before the lists: few, written by encoding/json itself.
	head := *r
	head.Kept, head.Dropped, head.Skipped = nil, nil, nil
	var hb bytes.Buffer
	enc := json.NewEncoder(&hb)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	const lists = "\n  \"kept\": null,\n  \"dropped\": null,\n  \"skipped\": null\n}\n"
	h := hb.Bytes()
	if !bytes.HasSuffix(h, []byte(lists)) {
		return fmt.Errorf("engine: report head does not end in its lists")
	}
	bw := reportWriter{w: w, b: make([]byte, 0, 64<<10)}
	bw.b = append(bw.b, h[:len(h)-len(lists)]...)
	bw.b = append(bw.b, "\n  \"kept\": "...)
	if r.Kept == nil {
		bw.b = append(bw.b, "null"...)
	} else if len(r.Kept) == 0 {
		bw.b = append(bw.b, "[]"...)
	} else {
		bw.b = append(bw.b, '[')
		for i := range r.Kept {
			if i > 0 {
				bw.b = append(bw.b, ',')
			}
			bw.b = r.Kept[i].appendIndented(bw.b)
			if err := bw.flushIfFull(); err != nil {
				return err
			}
		}
		bw.b = append(bw.b, "\n  ]"...)
	}
	bw.b = append(bw.b, ",\n  \"dropped\": "...)
	if r.Dropped == nil {
		bw.b = append(bw.b, "null"...)
	} else if len(r.Dropped) == 0 {
		bw.b = append(bw.b, "[]"...)
	} else {
		bw.b = append(bw.b, '[')
		for i := range r.Dropped {
			if i > 0 {
				bw.b = append(bw.b, ',')
			}
			bw.b = r.Dropped[i].appendIndented(bw.b)
			if err := bw.flushIfFull(); err != nil {
				return err
			}
		}
		bw.b = append(bw.b, "\n  ]"...)
	}
	// The skipped lines are few: encoding/json again.
	var sk bytes.Buffer
	enc = json.NewEncoder(&sk)
	enc.SetEscapeHTML(false)
	enc.SetIndent("  ", "  ")
	if err := enc.Encode(r.Skipped); err != nil {
		return err
	}
	bw.b = append(bw.b, ",\n  \"skipped\": "...)
	bw.b = append(bw.b, bytes.TrimSuffix(sk.Bytes(), []byte("\n"))...)
	bw.b = append(bw.b, "\n}\n"...)
	_, err := w.Write(bw.b)
	return err
}

// reportWriter collects the report in a buffer written out when full.
type reportWriter struct {
	w io.Writer
	b []byte
}

func (bw *reportWriter) flushIfFull() error {
	if len(bw.b) < cap(bw.b)-512 {
		return nil
	}
	_, err := bw.w.Write(bw.b)
	bw.b = bw.b[:0]
	return err
}

// appendIndented appends k as an element of the report's "kept" list.
func (k *Kept) appendIndented(b []byte) []byte {
	b = append(b, "\n    {\n      \"id\": "...)
	b = appendJSONString(b, k.ID)
	b = append(b, ",\n      \"tokens\": "...)
	b = strconv.AppendInt(b, int64(k.Tokens), 10)
	b = append(b, ",\n      \"priority\": "...)
	b = strconv.AppendInt(b, int64(k.Priority), 10)
	b = append(b, ",\n      \"reason\": "...)
	b = appendJSONString(b, string(k.Reason))
	return append(b, "\n    }"...)
}

// appendIndented appends d as an element of the report's "dropped" list,
// with the fields [Dropped.MarshalJSON] writes.
func (d *Dropped) appendIndented(b []byte) []byte {
	b = append(b, "\n    {\n      \"id\": "...)
	b = appendJSONString(b, d.ID)
	if d.Reason != ReasonConfidential {
		b = append(b, ",\n      \"tokens\": "...)
		b = strconv.AppendInt(b, int64(d.Tokens), 10)
		b = append(b, ",\n      \"priority\": "...)
		b = strconv.AppendInt(b, int64(d.Priority), 10)
	}
	b = append(b, ",\n      \"reason\": "...)
	b = appendJSONString(b, string(d.Reason))
	if d.Reason == ReasonDidNotFit || d.Reason == ReasonDimensionCap {
		b = append(b, ",\n      \"needed\": "...)
		b = strconv.AppendInt(b, int64(d.Needed), 10)
		b = append(b, ",\n      \"left\": "...)
		b = strconv.AppendInt(b, int64(d.Left), 10)
	}
	return append(b, "\n    }"...)
}
