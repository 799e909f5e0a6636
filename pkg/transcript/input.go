package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/spool"
)

// The reading machine: how [Read] and [Scan] take one input, in a few
// steps, each a method of [input]:
//
//  1. open: the input is made readable twice when it can be (a file, or a
//     pipe whose first line is long, held once), and a file that cannot
//     be a transcript is refused before it is read (see [seekable]);
//  2. longFirstLine: a JSON document on a first line longer than the
//     buffer is read without that line being held ([streamLongLine],
//     [checkedSequence], [input.longFirstDocument]);
//  3. readFirstLine, then tell: the first line that is not blank is read
//     and, unless the format is named, tells the format (past records no
//     format claims, see [headFormat]);
//  4. one reader by the input's shape: text (a format that is no JSON,
//     whole), jsonLines (a record a line, streamed) or document (one or
//     more JSON documents: streamed element by element, [streamDocument];
//     else, when not one valid document, checked and read document by
//     document, [checkedSequence]; else held whole, [wholeDocuments]).
//
// Each format's value (formats.go) says which of these apply to it; the
// steps name no format.

// input is one input being read: where it comes from, what was read of it
// so far, and where its messages go.
type input struct {
	ctx    context.Context
	name   string
	format Format // named, or told by the first line; "" until told
	named  bool   // the caller named format
	fn     func(t *Transcript, m *Message) error
	done   func(t *Transcript) error

	// file is the input when it can be read again (a file, a pipe held
	// once), at where it starts there; nil otherwise.
	file    io.ReadSeeker
	at      int64
	held    *spool.Spool  // a pipe held once, let go by close
	br      *bufio.Reader // the input from its start
	bufSize int           // br's buffer

	head  []byte // every byte read so far: up to and including first
	first []byte // the first line that is not blank
}

// readInput is read without the fallback to a harness's layout.
func readInput(ctx context.Context, r io.Reader, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) ([]*Transcript, error) {
	in, err := openInput(ctx, r, name, format, fn, done)
	if err != nil {
		return nil, err
	}
	defer in.close()
	if ts, err, ok := in.longFirstLine(); ok {
		return ts, err
	}
	if err := in.readFirstLine(); err != nil {
		return nil, err
	}
	if len(in.first) == 0 {
		if in.format == "" {
			in.format = FormatHarpe
		}
		return []*Transcript{newBuilder(in.format).finish()}, nil
	}
	l := parseFirstLine(in.head, in.first)
	claim := in.tell(l)
	if tf := textFormat(in.format, l.isValue, in.head); tf != nil {
		return in.text(tf)
	}
	// Codex rollouts and bare Responses items are JSONL; a Responses array
	// or request body is a document.
	if f := formatOf(in.format); f != nil && f.readsLines(claim) {
		if !l.isRecord() {
			return nil, l.notARecord(in.name, in.format)
		}
		return in.jsonLines(f, l.obj)
	}
	return in.document(in.format, l.detect)
}

// openInput checks ctx and the format named, and makes r readable twice
// when it can be (see [input]).
func openInput(ctx context.Context, r io.Reader, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) (*input, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if _, err := ParseFormat(string(format)); err != nil {
		return nil, err
	}
	in := &input{ctx: ctx, name: name, format: format, named: format != "", fn: fn, done: done}
	var err error
	if in.file, in.at, err = seekable(r, name, in.named); err != nil {
		return nil, err
	}
	// A pipe gets a buffer of longLine, to tell a long first line.
	in.bufSize = 64 << 10
	if in.file == nil {
		in.bufSize = longLine
	}
	in.br = bufio.NewReaderSize(r, in.bufSize)
	if in.file == nil && firstLineLong(in.br, longLine) {
		// One JSON document on one long line (a request body as an SDK
		// dumps it) from a pipe: held once (spool.Hold), so that it can be
		// read twice like a file, rather than as one line that grows.
		held, err := spool.Hold(nil, in.br, 0)
		if err != nil {
			return nil, &Error{Name: name, Err: err}
		}
		held.Ctx = ctx
		in.held, in.file, in.at = held, held, 0
		in.br.Reset(held)
	}
	return in, nil
}

// close lets go of a pipe held.
func (in *input) close() {
	if in.held != nil {
		in.held.Close()
	}
}

// longFirstLine reads an input that can be read again whose first line
// is longer than the buffer, without holding that line, when it is a JSON
// document: streamed from the file (see stream.go), unless that line is a
// JSON Lines record; said what is wrong with it when it is not valid JSON
// (see checked.go); read as the first of a sequence of documents. ok is
// false when it leaves the input to the steps that read its first line,
// with br back at the input's start.
func (in *input) longFirstLine() (ts []*Transcript, err error, ok bool) {
	if in.file == nil || !firstLineLong(in.br, in.bufSize) {
		return nil, nil, false
	}
	if ts, err, ok := streamLongLine(in.ctx, in.file, in.at, in.name, in.format, in.fn, in.done); ok {
		return ts, err, true
	}
	if f := formatOf(in.format); f == nil || f.text == nil && !f.readsLines(nil) {
		// Not valid JSON from its first document: said without
		// reading that line whole (see checked.go).
		if ts, err, ok := checkedSequence(in.ctx, in.file, in.at, in.name, in.format, nil, in.fn, true); ok {
			return ts, err, true
		}
	}
	if ts, err, ok := in.longFirstDocument(); ok {
		return ts, err, true
	}
	if _, err := in.file.Seek(in.at, io.SeekStart); err != nil {
		return nil, &Error{Name: in.name, Err: err}, true
	}
	in.br.Reset(in.file)
	return nil, nil, false
}

// readFirstLine reads up to and including the first line that is not
// blank (see [firstLine]).
func (in *input) readFirstLine() error {
	var err error
	if in.head, in.first, err = firstLine(in.br); err != nil {
		return &Error{Name: in.name, Err: err}
	}
	return nil
}

// firstLineOf is what an input's first line that is not blank is.
type firstLineOf struct {
	no      int    // its line number
	line    []byte // as read
	trimmed []byte // without white space and a byte order mark
	isValue bool   // it is one JSON value
	obj     map[string]json.RawMessage
}

func parseFirstLine(head, first []byte) *firstLineOf {
	l := &firstLineOf{line: first}
	l.no = bytes.Count(head, []byte("\n")) - bytes.Count(first, []byte("\n")) + 1
	l.trimmed = bytes.TrimSpace(bytes.TrimPrefix(first, bom))
	l.isValue = json.Valid(l.trimmed)
	if l.isValue && len(l.trimmed) > 0 && l.trimmed[0] == '{' {
		_ = json.Unmarshal(l.trimmed, &l.obj)
	}
	return l
}

// isRecord reports whether the line is a JSON object, as a record of a
// JSON Lines format is.
func (l *firstLineOf) isRecord() bool { return l.isValue && l.obj != nil }

// detect is the format the line tells as a JSON object, "" when it is
// none.
func (l *firstLineOf) detect() Format {
	if l.obj == nil {
		return ""
	}
	return detectLine(l.obj)
}

// notARecord is the error for a first line that is no JSON object, in an
// input named as the JSON Lines format format.
func (l *firstLineOf) notARecord(name string, format Format) error {
	if !utf8.Valid(l.line) {
		return utf8Error(name, l.no, l.line)
	}
	if !l.isValue {
		err := json.Unmarshal(l.trimmed, new(any))
		if strings.Contains(err.Error(), "unexpected end") && (l.trimmed[0] == '{' || l.trimmed[0] == '[') {
			return &Error{Name: name, Err: fmt.Errorf("a %s transcript is JSON Lines, one object a line; this input is one JSON document over several lines", format)}
		}
		return jsonError(name, l.no, l.line, err, "")
	}
	return &Error{Name: name, Line: l.no, Err: fmt.Errorf("not a JSON object (found %s)", jsonl.Kind(l.trimmed))}
}

// tell sets the format, when not named, from the first line when it is a
// JSON object: the format that claims it, else the one whose line sniff
// claims a later record (see [headFormat]). claim is the record whose
// format's sniff claimed the input (the first line's object, unless a
// later record told).
func (in *input) tell(l *firstLineOf) (claim map[string]json.RawMessage) {
	claim = l.obj
	if in.format == "" && l.obj != nil {
		in.format = detectLine(l.obj)
		if in.format == "" {
			// Look past records no format claims (see headFormat).
			in.format, claim = headFormat(peekHead(in.file, in.at, in.br, in.head))
		}
	}
	return claim
}

// text reads an input of the text format f (see format.text) whole.
// Named as f, an input f does not claim reads as the format found in it,
// if any.
func (in *input) text(f *format) ([]*Transcript, error) {
	size := int64(-1)
	if in.file != nil {
		// Its size, when the file tells it.
		if n, err := left(in.file); err == nil && n >= 0 {
			size = n + int64(len(in.head)+in.br.Buffered())
		}
	}
	data, ts, err := f.readText(io.MultiReader(bytes.NewReader(in.head), in.br), size, in.name)
	if data == nil {
		return nil, err
	}
	if in.named && !f.text(data) {
		if found, _ := Detect(data); found != "" {
			err = noRecords(in.name, f.name, found)
		}
	}
	return scanAll(in.ctx, in.name, ts, err, in.fn)
}

// jsonLines reads an input of the JSON Lines format f, a record a line,
// whose first line is the object obj. Named as f, an input of none of its
// records reads as the format its first line tells (unless its path chose
// the format).
func (in *input) jsonLines(f *format, obj map[string]json.RawMessage) ([]*Transcript, error) {
	b := newBuilder(f.name)
	if in.fn != nil {
		b.sink = func(m *Message) error { return in.fn(b.t, m) }
		b.name, b.ctx = in.name, in.ctx
	}
	d := &lineDecoder{r: jsonl.NewReader(io.MultiReader(bytes.NewReader(in.head), in.br)), name: in.name, b: b, strict: strictLines(in.ctx)}
	err := f.lines(d, b)
	if err == nil {
		b.finish()
		err = b.sinkErr
	}
	if err == nil && in.named && b.count() == 0 && in.ctx.Value(byLayoutKey{}) == nil {
		err = noRecords(in.name, f.name, detectLine(obj))
	}
	if err != nil {
		return nil, err
	}
	return []*Transcript{b.t}, nil
}

// document reads a JSON document as format (detected when ""): streamed
// from the file, or from the input held once in memory; checked streamed
// where the stream reader refuses it; read whole where neither takes it.
// firstFormat is what its first line tells ("" when that line is no
// object).
func (in *input) document(format Format, firstFormat func() Format) ([]*Transcript, error) {
	src, start := in.file, in.at
	if in.file != nil {
		if _, err := in.file.Seek(in.at, io.SeekStart); err != nil {
			return nil, &Error{Name: in.name, Err: err}
		}
	} else {
		held, err := spool.Hold(in.head, in.br, 0)
		if err != nil {
			return nil, &Error{Name: in.name, Err: err}
		}
		defer held.Close()
		held.Ctx = in.ctx
		src, start = held, 0
	}
	if ts, err, ok := streamDocument(in.ctx, src, in.name, format, in.fn, in.done); ok {
		return ts, err
	}
	if ts, err, ok := checkedSequence(in.ctx, src, start, in.name, format, firstFormat, in.fn, false); ok {
		return ts, err
	}
	if _, err := src.Seek(start, io.SeekStart); err != nil {
		return nil, &Error{Name: in.name, Err: err}
	}
	data, err := readLimited(src, in.name, 0, maxWhole, false)
	if err != nil {
		return nil, err
	}
	if src != in.file {
		src.(*spool.Spool).Close() // let go before decoding
	}
	return wholeDocuments(in.ctx, data, in.name, format, in.fn)
}
