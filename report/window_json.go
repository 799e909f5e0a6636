package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"

	"github.com/harpe-dev/harpe/pkg/window"
)

// Replay is the replay of one transcript, as harpe replay --format json
// writes it: the transcript, then each strategy's result.
type Replay struct {
	Transcript window.TranscriptInfo `json:"transcript"`
	Strategies []window.Result       `json:"strategies"`
}

// ReplayJSONWriter writes a [Replay]'s JSON as the replay goes:
// [ReplayJSONWriter.Begin] with the transcript, then every call and every
// result as [window.Replay] hands them to [window.ReplayOptions.OnCall]
// and [window.ReplayOptions.OnResult] ([ReplayJSONWriter.Hook] sets
// both), then [ReplayJSONWriter.End]. Nothing is held but the call being
// written, so memory does not grow with the calls.
//
// The bytes are those of encoding/json marshalling the whole Report with
// an indent of two spaces and no HTML escaping, followed by a newline:
// what a json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false)
// writes.
type ReplayJSONWriter struct {
	w          io.Writer
	strategies int  // strategies begun
	open       bool // a strategy's calls are being written
	calls      int  // calls written in the open strategy
	buf        bytes.Buffer
	err        error
	// nullCalls writes the open strategy's calls as null, as json does
	// for a Result whose Calls are nil ([ReplayJSONWriter.WriteReport]).
	nullCalls bool
}

// NewReplayJSONWriter returns a writer of one report to w.
func NewReplayJSONWriter(w io.Writer) *ReplayJSONWriter { return &ReplayJSONWriter{w: w} }

// errReplayJSONOrder is the error of a ReplayJSONWriter used out of order.
var errReplayJSONOrder = errors.New("report: ReplayJSONWriter: Begin, calls and results, End, in that order")

// Begin writes the report's start: the transcript replayed.
func (j *ReplayJSONWriter) Begin(t window.TranscriptInfo) error {
	if j.strategies != 0 || j.open {
		return errReplayJSONOrder
	}
	j.text("{\n  \"transcript\": ")
	j.value(t, "  ")
	j.text(",\n  \"strategies\": [")
	return j.flush()
}

// Hook sets opts.OnCall and opts.OnResult to write each call and result
// as the replay makes it, before calling the hooks opts held (when set).
func (j *ReplayJSONWriter) Hook(opts *window.ReplayOptions) {
	onCall, onResult := opts.OnCall, opts.OnResult
	opts.OnCall = func(s string, c *window.Call, ev *window.Event) error {
		if err := j.Call(s, c); err != nil {
			return err
		}
		if onCall != nil {
			return onCall(s, c, ev)
		}
		return nil
	}
	opts.OnResult = func(r *window.Result) error {
		if err := j.Result(r); err != nil {
			return err
		}
		if onResult != nil {
			return onResult(r)
		}
		return nil
	}
}

// Call writes one call of the named strategy; the calls of a strategy
// come before its [ReplayJSONWriter.Result].
func (j *ReplayJSONWriter) Call(strategy string, c *window.Call) error {
	if !j.open {
		j.openStrategy(strategy)
	}
	if j.calls > 0 {
		j.text(",")
	}
	j.calls++
	j.text("\n        ")
	j.call(c, "        ")
	return j.flush()
}

// call encodes c as [ReplayJSONWriter.value] does, its parts written
// here: a long session's windows make them most of its report (a part a
// run of each window), and encoding/json's indenting of them most of the
// time it took to write.
func (j *ReplayJSONWriter) call(c *window.Call, prefix string) {
	if len(c.Parts) == 0 || j.err != nil {
		j.value(c, prefix)
		return
	}
	bare := *c
	bare.Parts = nil
	start := j.buf.Len()
	j.value(&bare, prefix)
	if j.err != nil {
		return
	}
	// The key at the call's own depth: a string value shows no line
	// break unescaped, so this is the field, not text in a value.
	key := "\n" + prefix + "  \"parts\": "
	b := j.buf.Bytes()[start:]
	at := bytes.Index(b, []byte(key+"null"))
	if at < 0 {
		j.buf.Truncate(start)
		j.value(c, prefix)
		return
	}
	rest := slices.Clone(b[at+len(key)+len("null"):])
	j.buf.Truncate(start + at + len(key))
	j.writeParts(c.Parts, prefix+"  ")
	j.buf.Write(rest)
}

// writeParts writes parts (not empty) as encoding/json indents them, the
// array's lines after the first starting with prefix.
func (j *ReplayJSONWriter) writeParts(parts []window.Part, prefix string) {
	in := prefix + "    "
	var num []byte
	field := func(name string, v int, last bool) {
		j.buf.WriteString(in)
		j.buf.WriteString(name)
		num = strconv.AppendInt(num[:0], int64(v), 10)
		j.buf.Write(num)
		if !last {
			j.buf.WriteByte(',')
		}
		j.buf.WriteByte('\n')
	}
	j.buf.WriteString("[\n")
	for i := range parts {
		p := &parts[i]
		j.buf.WriteString(prefix)
		j.buf.WriteString("  {\n")
		field(`"from": `, p.From, false)
		field(`"to": `, p.To, false)
		j.buf.WriteString(in)
		j.buf.WriteString(`"sent": `)
		j.jsonString(string(p.Sent))
		j.buf.WriteString(",\n")
		field(`"chars": `, p.Chars, false)
		field(`"tokens": `, p.Tokens, true)
		j.buf.WriteString(prefix)
		if i < len(parts)-1 {
			j.buf.WriteString("  },\n")
		} else {
			j.buf.WriteString("  }\n")
		}
	}
	j.buf.WriteString(prefix)
	j.buf.WriteByte(']')
}

// jsonString writes s as a JSON string: quoted as it is when no byte of
// it needs escaping (printable ASCII but the quote and backslash), else
// through [ReplayJSONWriter.value].
func (j *ReplayJSONWriter) jsonString(s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			j.value(s, "")
			return
		}
	}
	j.buf.WriteByte('"')
	j.buf.WriteString(s)
	j.buf.WriteByte('"')
}

// Result writes the rest of a strategy's result: its events, totals and
// plan (its calls, if any, were written by [ReplayJSONWriter.Call]; r.Calls
// is not read).
func (j *ReplayJSONWriter) Result(r *window.Result) error {
	if !j.open {
		j.openStrategy(r.Strategy)
	}
	if j.calls > 0 {
		j.text("\n      ")
	}
	if j.nullCalls {
		j.text("null,\n      \"events\": ")
	} else {
		j.text("],\n      \"events\": ")
	}
	j.value(r.Events, "      ")
	j.text(",\n      \"totals\": ")
	j.value(r.Totals, "      ")
	if len(r.Plan) > 0 {
		j.text(",\n      \"plan\": ")
		j.value(r.Plan, "      ")
	}
	if len(r.PlanUnfit) > 0 {
		j.text(",\n      \"plan_unfit\": ")
		j.value(r.PlanUnfit, "      ")
	}
	j.text("\n    }")
	j.open, j.nullCalls = false, false
	return j.flush()
}

// End closes the report. A strategy begun by its calls and given no
// result is an error.
func (j *ReplayJSONWriter) End() error {
	if j.open {
		return errReplayJSONOrder
	}
	if j.strategies == 0 {
		j.text("]\n}\n")
	} else {
		j.text("\n  ]\n}\n")
	}
	return j.flush()
}

// WriteReport writes a whole report, its calls included.
func (j *ReplayJSONWriter) WriteReport(rep *Replay) error {
	if rep.Strategies == nil {
		// "strategies": null, which nothing streamed writes.
		j.value(rep, "")
		j.text("\n")
		j.strategies = -1 // done
		return j.flush()
	}
	if err := j.Begin(rep.Transcript); err != nil {
		return err
	}
	for i := range rep.Strategies {
		r := &rep.Strategies[i]
		if r.Calls == nil {
			j.nullCalls = true
			j.openStrategy(r.Strategy)
		}
		for k := range r.Calls {
			if err := j.Call(r.Strategy, &r.Calls[k]); err != nil {
				return err
			}
		}
		if err := j.Result(r); err != nil {
			return err
		}
	}
	return j.End()
}

func (j *ReplayJSONWriter) openStrategy(name string) {
	if j.strategies > 0 {
		j.text(",")
	}
	j.strategies++
	j.open, j.calls = true, 0
	j.text("\n    {\n      \"strategy\": ")
	j.value(name, "")
	if j.nullCalls {
		j.text(",\n      \"calls\": ")
	} else {
		j.text(",\n      \"calls\": [")
	}
}

func (j *ReplayJSONWriter) text(s string) {
	if j.err == nil {
		j.buf.WriteString(s)
	}
}

// value encodes v as the whole report's encoder would at this depth: its
// lines after the first start with prefix.
func (j *ReplayJSONWriter) value(v any, prefix string) {
	if j.err != nil {
		return
	}
	enc := json.NewEncoder(&j.buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		j.err = err
		return
	}
	j.buf.Truncate(j.buf.Len() - 1) // the encoder's newline
}

// flush writes what was built, or returns the first error met.
func (j *ReplayJSONWriter) flush() error {
	if j.err != nil {
		return j.err
	}
	_, err := j.w.Write(j.buf.Bytes())
	j.buf.Reset()
	if err != nil {
		j.err = err
	}
	return err
}
