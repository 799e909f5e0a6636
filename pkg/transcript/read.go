package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Error is bad input: it names the input and where in it the problem is.
type Error struct {
	Name string // the input's name ("chat.jsonl", "stdin")
	Line int    // 1-based line, 0 when unknown
	Col  int    // 1-based byte column within the line, 0 when unknown
	Path string // JSON path inside a document ("messages[3].content"), "" when none
	Err  error
}

// Error renders the error as name:line:col: path: message, leaving out
// the parts that are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Name)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Read reads the transcripts in r, named name in errors. format is one of
// [Formats], or "" to detect it from the content (never from the name).
// Most inputs hold one transcript; ShareGPT and JSONL files of OpenAI
// {"messages": …} objects may hold several, one per conversation.
//
// JSONL formats are read line by line: memory grows with the messages
// kept, not with the size of the input. An empty input is one empty
// transcript (format "harpe" when detecting).
func Read(r io.Reader, name string, format Format) ([]*Transcript, error) {
	return read(context.Background(), r, name, format, nil, nil)
}

// Scan reads like [Read] but hands each message to fn once it is settled
// (its turn numbered, an abort of its turn known) and does not keep it,
// then each transcript, once read, to done (when not nil) and does not
// keep that either: the transcripts done gets have no Messages, only
// their counts, pairs, warnings and skipped records, and an input of many
// conversations costs one at a time. For the JSONL formats memory then
// holds about one turn at a time, whatever the size of the input;
// JSON documents are read one element (message, conversation, record)
// at a time, their messages handed on as turns settle or conversations
// end; a document that is not valid JSON, or several in a row, is read
// whole first (so its error names its line and column). fn
// gets the transcript being read (for its Format and ID) and the
// message; done gets the transcripts in input order, each after the last
// of its messages went to fn. An error from fn or done stops the reading
// and is returned. Usage that a format records only after the next turn
// has opened is not seen.
//
// An [*engine.TokenOverflowError] from fn (such as usage.Listing.Add returns) comes back
// as an [*Error] naming the line the message was read from (the line of
// its usage, when that came later), or for JSON documents the message.
//
// Scan stops once ctx is done: it checks ctx before each line of a JSONL
// input and before each message it hands to fn, and returns ctx's error.
// fn and done are not called after that.
func Scan(ctx context.Context, r io.Reader, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) error {
	if fn == nil {
		return errors.New("transcript.Scan: nil fn")
	}
	ts, err := read(ctx, r, name, format, fn, done)
	if err != nil || done == nil {
		return err
	}
	// The transcripts read were not handed to done as they came.
	for _, t := range ts {
		if err := done(t); err != nil {
			return err
		}
	}
	return nil
}

// seekable returns r as a file that can be read again, and where it
// stands, when r can seek (nil otherwise). A file is read twice when its
// format is to be told (named unset): first its start, keeping nothing,
// to tell whether it can be a transcript at all (a walk then skips a
// large JSON file that is not one without holding it), then as usual. A
// JSON document in a file is read from the file again, element by
// element (see stream.go).
func seekable(r io.Reader, name string, named bool) (io.ReadSeeker, int64, error) {
	s, ok := r.(io.ReadSeeker)
	if !ok {
		return nil, 0, nil
	}
	at, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, 0, nil
	}
	if !named {
		may := mayBeTranscript(r)
		if _, err := s.Seek(at, io.SeekStart); err != nil {
			return nil, 0, &Error{Name: name, Err: err}
		}
		if !may {
			return nil, 0, &Error{Name: name, Err: undetectable()}
		}
	}
	return s, at, nil
}

// read reads r; with fn set (from [Scan]) it hands the messages to fn
// and drops them, and the transcripts it streams one at a time (ShareGPT
// conversations) to done, returning only those it did not. Under
// [WithHarnessLayouts], an input whose format cannot be told and whose
// name is a path in a harness's layout is read again as that harness's
// format, when it can seek.
func read(ctx context.Context, r io.Reader, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) ([]*Transcript, error) {
	layout := Format("")
	if format == "" && harnessLayouts(ctx) {
		layout = LayoutFormat(name)
	}
	s, ok := r.(io.ReadSeeker)
	if layout == "" || !ok {
		return readInput(ctx, r, name, format, fn, done)
	}
	at, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return readInput(ctx, r, name, format, fn, done)
	}
	ts, err := readInput(ctx, r, name, format, fn, done)
	if !errors.Is(err, ErrUnknownFormat) {
		return ts, err
	}
	// Nothing was handed to fn: detection failed before any message.
	if _, serr := s.Seek(at, io.SeekStart); serr != nil {
		return ts, err
	}
	// A session of no message yet, only records harpe does not know, is
	// that harness's all the same: no "no records" error.
	return readInput(context.WithValue(ctx, byLayoutKey{}, true), r, name, layout, fn, done)
}

type layoutsKey struct{}

// byLayoutKey marks a read whose format the input's path chose.
type byLayoutKey struct{}

// WithHarnessLayouts returns a context under which [Read], [Scan] and
// usage.Collect read a file whose format cannot be told from its content, and
// whose name is a path in a harness's own layout ([LayoutFormat]), as that
// harness's format rather than fail: a session that opens with records no
// format's sniff knows (a harness release newer than harpe) is still read,
// its unknown records counted in Skipped.
func WithHarnessLayouts(ctx context.Context) context.Context {
	return context.WithValue(ctx, layoutsKey{}, true)
}

func harnessLayouts(ctx context.Context) bool {
	v, _ := ctx.Value(layoutsKey{}).(bool)
	return v
}

// LayoutFormat is the format of the harness whose layout the path
// follows (~/.claude/projects/<project>/<uuid>.jsonl and its subagents,
// ~/.codex/sessions/YYYY/MM/DD/rollout-….jsonl, Gemini CLI's
// ~/.gemini/tmp/<hash>/chats/session-…, Copilot CLI's
// ~/.copilot/session-state/<id>/events.jsonl: each format's value says
// its own), "" for any other path. Only the path is looked at (slashes
// in either direction where the system has both), never the file.
func LayoutFormat(path string) Format {
	parts := strings.Split(filepath.ToSlash(path), "/")
	for _, f := range formats {
		if f.layout != nil && f.layout(parts) {
			return f.name
		}
	}
	return ""
}

// base is the last of a path's parts, n their number.
func base(parts []string) (string, int) { return parts[len(parts)-1], len(parts) }

// digits reports whether s is n decimal digits.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// streamDocument reads the JSON document at src's position element by
// element (see stream.go). ok is false when it leaves the input to
// wholeDocuments: bad JSON (which wholeDocuments places exactly), a sequence of
// documents, a format read whole, and the rare cases where a named format
// finds none of its records (wholeDocuments then says what the input is).
func streamDocument(ctx context.Context, src io.ReadSeeker, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) (ts []*Transcript, err error, ok bool) {
	s, err := openDocStream(src, name)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err(), true // not read whole after all
		}
		return nil, nil, false
	}
	return streamProbed(ctx, s, format, fn, done)
}

// longLine is the length of a first line past which an input that cannot
// be read twice is held in memory to be read as a document (see
// firstLineLong).
const longLine = 1 << 20

// firstLineLong reports whether the first non-blank line of br is longer
// than n (at most br's buffer), without reading it.
func firstLineLong(br *bufio.Reader, n int) bool {
	b, _ := br.Peek(n)
	if len(b) < n {
		return false
	}
	i := 0
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return bytes.IndexByte(b[i:], '\n') < 0
}

// streamLongLine reads the file at offset at as one JSON document,
// streamed, when it is one (ok), and not a JSON Lines file (whose first
// value a line format claims) or anything else the stream reader leaves.
func streamLongLine(ctx context.Context, file io.ReadSeeker, at int64, name string, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) (ts []*Transcript, err error, ok bool) {
	if _, err := file.Seek(at, io.SeekStart); err != nil {
		return nil, nil, false
	}
	s, err := openDocStream(file, name)
	if err != nil {
		return nil, nil, false
	}
	if p := s.probe; !p.array {
		// The members kept stand for the object in the line sniffs: they
		// look at keys and at "type", which are kept whole.
		if f := formatOf(format); format != "" && f.readsLines(p.obj) {
			return nil, nil, false
		}
		if format == "" && lineFormat(p.obj) != "" {
			return nil, nil, false
		}
	}
	return streamProbed(ctx, s, format, fn, done)
}

// streamProbed reads the probed document s as format (detected when "").
// A transcript emitted as it is read goes to done (when not nil) and is
// not returned.
func streamProbed(ctx context.Context, s *docStream, format Format, fn func(t *Transcript, m *Message) error, done func(t *Transcript) error) (ts []*Transcript, err error, ok bool) {
	name := s.name
	s.ctx, s.fn = ctx, fn
	named := format != ""
	if !named {
		if format = s.probe.detect(); format == "" {
			return nil, &Error{Name: name, Err: undetectable()}, true
		}
	}
	f := formatOf(format)
	if f.stream == nil {
		return nil, nil, false
	}
	if fn != nil {
		s.scan = func(t *Transcript, k int, many bool) error {
			if _, err := scanOne(ctx, name, t, k, many, fn); err != nil || done == nil {
				return err
			}
			return done(t)
		}
	}
	ts, err = f.stream(s)
	if errors.Is(err, errStreamFallback) {
		return nil, nil, false
	}
	var de *Error
	if err != nil && named && errors.As(err, &de) && de.Path == "" && de.Line == 0 {
		return nil, nil, false
	}
	if err != nil {
		return nil, err, true
	}
	if named {
		n := s.messages
		for _, t := range ts {
			n += len(t.Messages)
		}
		if n == 0 {
			return nil, nil, false
		}
	}
	if len(ts) == 0 && s.emitted == 0 {
		ts = append(ts, newBuilder(format).finish())
	}
	if s.emitted > 0 {
		return ts, nil, true
	}
	ts, err = scanAll(ctx, name, ts, nil, fn)
	return ts, err, true
}

// wholeDocuments reads data, held whole, as one or more JSON documents.
func wholeDocuments(ctx context.Context, data []byte, name string, format Format, fn func(t *Transcript, m *Message) error) ([]*Transcript, error) {
	named := format != ""
	ts, err := decodeDocuments(data, name, format)
	if err != nil && named && givesWay(format, err) {
		// The named format's frame is missing altogether: say what the
		// input reads as instead.
		if found, _ := Detect(data); found != "" && found != format {
			err = noRecords(name, format, found)
		}
	}
	if err == nil && named {
		n := 0
		for _, t := range ts {
			n += len(t.Messages)
		}
		if n == 0 {
			found, _ := Detect(data)
			err = noRecords(name, format, found)
		}
	}
	return scanAll(ctx, name, ts, err, fn)
}

// scanAll hands the messages of ts, read whole, to fn (when not nil) and
// drops them, as [Scan] promises, checking ctx before each.
func scanAll(ctx context.Context, name string, ts []*Transcript, err error, fn func(t *Transcript, m *Message) error) ([]*Transcript, error) {
	if err != nil || fn == nil {
		return ts, err
	}
	for k, t := range ts {
		if _, err := scanOne(ctx, name, t, k, len(ts) > 1, fn); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// scanOne hands the messages of t, conversation k of the input (of
// several when many), to fn and drops them.
func scanOne(ctx context.Context, name string, t *Transcript, k int, many bool, fn func(t *Transcript, m *Message) error) (*Transcript, error) {
	for i := range t.Messages {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err := fn(t, &t.Messages[i]); err != nil {
			where := fmt.Sprintf("message %d", i)
			if many {
				where = fmt.Sprintf("conversation %d, message %d", k+1, i)
			}
			return nil, placeOverflow(err, name, 0, where)
		}
	}
	t.Messages = nil
	return t, nil
}

var bom = []byte("\xef\xbb\xbf")

// peekHead returns the first headBytes of the input (at most), whose
// start head was read from br, without moving on: a file is read again
// from its start (offset at) and put back where it stood; an input that
// cannot seek is peeked in br's buffer.
func peekHead(file io.ReadSeeker, at int64, br *bufio.Reader, head []byte) []byte {
	if file != nil {
		pos, err := file.Seek(0, io.SeekCurrent)
		if err != nil {
			return head
		}
		if _, err := file.Seek(at, io.SeekStart); err != nil {
			return head
		}
		data, _ := io.ReadAll(io.LimitReader(file, headBytes))
		if _, err := file.Seek(pos, io.SeekStart); err != nil {
			return head // br then fails, as the file does
		}
		return data
	}
	rest, _ := br.Peek(min(br.Size(), max(headBytes-len(head), 0)))
	return append(slices.Clip(head), rest...)
}

// firstLine reads up to and including the first line that is not blank.
// head holds every byte read (blank lines included); first is that line.
func firstLine(br *bufio.Reader) (head, first []byte, err error) {
	for {
		var line []byte
		for {
			chunk, err := br.ReadSlice('\n')
			line = append(line, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, nil, err
			}
			break
		}
		head = append(head, line...)
		if len(line) == 0 {
			return head, nil, nil
		}
		if len(bytes.TrimSpace(bytes.TrimPrefix(line, bom))) > 0 {
			return head, line, nil
		}
	}
}

// Detect names the format of a transcript from data: its first non-blank
// line when that line is a whole JSON object (the JSONL formats), else the
// whole text as a JSON document. An undetectable input is an error that
// lists what was tried.
func Detect(data []byte) (Format, error) {
	if f := claimsText(data); f != nil {
		return f.name, nil
	}
	br := bufio.NewReader(bytes.NewReader(data))
	_, first, _ := firstLine(br)
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(first, bom))
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(trimmed, &obj) == nil {
			if f := detectLine(obj); f != "" {
				return f, nil
			}
			if f, _ := headFormat(data); f != "" {
				return f, nil
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(bytes.TrimSpace(data), bom)))
	var v json.RawMessage
	if err := dec.Decode(&v); err != nil {
		return "", undetectable()
	}
	if f := detectDocument(v); f != "" {
		return f, nil
	}
	return "", undetectable()
}

// noRecords is the error for an input read as the named format that gave
// no message: found is the format detection sees in it ("" for none).
// When found is the named format itself (a session with no message yet),
// there is no error.
func noRecords(name string, format, found Format) error {
	if found == format {
		return nil
	}
	return &Error{Name: name, Err: &NoRecordsError{Format: format, Found: found}}
}

// NoRecordsError is an input read as a named format that holds none of
// its records. Found is the format the input reads as, "" when none: the
// error then wraps [ErrUnknownFormat].
type NoRecordsError struct {
	Format, Found Format
}

func (e *NoRecordsError) Error() string {
	if e.Found == "" {
		return fmt.Sprintf("no %s records here, and no other transcript format either (%v)", e.Format, ErrUnknownFormat)
	}
	return fmt.Sprintf("no %s records here; it reads as %s", e.Format, e.Found)
}

// Unwrap returns [ErrUnknownFormat] when no format was found.
func (e *NoRecordsError) Unwrap() error {
	if e.Found == "" {
		return ErrUnknownFormat
	}
	return nil
}

// ErrUnknownFormat is wrapped by the error for an input whose format
// cannot be told from its content: a directory walk skips such files.
var ErrUnknownFormat = errors.New("cannot tell the transcript format")

// UnknownFormatError is an input whose format cannot be told from its
// content; Tried lists the formats detection knows. It wraps
// [ErrUnknownFormat].
type UnknownFormatError struct {
	Tried []Format
}

func (e *UnknownFormatError) Error() string {
	names := make([]string, len(e.Tried))
	for i, f := range e.Tried {
		names[i] = string(f)
	}
	return fmt.Sprintf("%v; tried %s", ErrUnknownFormat, strings.Join(names, ", "))
}

func (e *UnknownFormatError) Unwrap() error { return ErrUnknownFormat }

func undetectable() error { return &UnknownFormatError{Tried: Formats()} }

func mustRaw(obj map[string]json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(obj)
	return b
}

// str decodes a JSON string, "" when v is not one.
func str(v json.RawMessage) string {
	var s string
	_ = json.Unmarshal(v, &s)
	return s
}

func hasKey(v json.RawMessage, key string) bool {
	var obj map[string]json.RawMessage
	return json.Unmarshal(v, &obj) == nil && obj[key] != nil
}

// probeDocument probes one JSON document held in memory, nil when it is
// not an object or array the probe takes.
func probeDocument(v json.RawMessage) *docProbe {
	s, err := openDoc(bytes.NewReader(v), "", false)
	if err != nil {
		return nil
	}
	return s.probe
}

// decodeDocuments reads data as one or more JSON documents in format (or
// detects it from the first).
func decodeDocuments(data []byte, name string, format Format) ([]*Transcript, error) {
	if !utf8.Valid(data) {
		return nil, utf8DocError(name, data)
	}
	body := bytes.TrimPrefix(data, bom)
	dec := json.NewDecoder(bytes.NewReader(body))
	// One document, the usual case, is read in place: the decoder would
	// copy it twice (its buffer, then the value).
	single := json.Valid(body)
	var out []*Transcript
	for n := 0; ; n++ {
		start := int(dec.InputOffset())
		var v json.RawMessage
		var err error
		switch {
		case single && n == 0:
			v = bytes.TrimSpace(body)
		case single:
			err = io.EOF
		default:
			err = dec.Decode(&v)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			if t := bytes.TrimSpace(body); n == 0 && format == "" && len(t) > 0 && t[0] != '{' && t[0] != '[' {
				return nil, &Error{Name: name, Err: undetectable()}
			}
			return nil, docSyntaxError(name, body, start, err)
		}
		f := format
		if f == "" {
			f = detectDocument(v)
			if f == "" {
				return nil, &Error{Name: name, Err: undetectable()}
			}
			if n == 0 {
				format = f
			}
		}
		prefix := ""
		if n > 0 {
			prefix = fmt.Sprintf("document %d: ", n+1)
		}
		ts, err := decodeDocument(v, name, f)
		if err != nil {
			var e *Error
			if prefix != "" && errors.As(err, &e) {
				e.Path = strings.TrimSuffix(prefix, ": ") + pathJoin(e.Path)
			}
			return nil, err
		}
		out = append(out, ts...)
	}
	if len(out) == 0 {
		if format == "" {
			format = FormatHarpe
		}
		out = append(out, newBuilder(format).finish())
	}
	return out, nil
}

func pathJoin(p string) string {
	if p == "" {
		return ""
	}
	return " " + p
}

// jsonKind names the JSON type of v for messages.

// jsonError turns a decoding error on one JSONL line into an *Error with
// line and column. what prefixes the message ("" for none).
func jsonError(name string, line int, data []byte, err error, what string) error {
	e := &Error{Name: name, Line: line}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read up to and including the bad one;
		// at the end of the line the column is just past it.
		e.Col = max(int(se.Offset), 1)
		if strings.Contains(se.Error(), "unexpected end") {
			e.Col = int(se.Offset) + 1
		}
		e.Err = fmt.Errorf("invalid JSON: %s", se.Error())
	case errors.As(err, &te):
		// Offset is the end of the offending value: its last byte.
		e.Col = int(te.Offset)
		if te.Field != "" {
			e.Err = fmt.Errorf("%q must be %s, got %s", te.Field, typeName(te.Type.String()), te.Value)
		} else {
			e.Err = fmt.Errorf("want %s, got %s", typeName(te.Type.String()), te.Value)
		}
	default:
		if err == io.ErrUnexpectedEOF {
			e.Col = len(data) + 1
			e.Err = errors.New("invalid JSON: unexpected end of line")
		} else {
			e.Err = err
		}
	}
	if what != "" {
		e.Err = fmt.Errorf("%s: %w", what, e.Err)
	}
	return e
}

// typeName renders a Go type as the JSON type it decodes from.
func typeName(t string) string {
	switch {
	case t == "string" || t == "*string":
		return "a string"
	case strings.Contains(t, "int"):
		return "a whole number"
	case strings.Contains(t, "float"):
		return "a number"
	case t == "bool" || t == "*bool":
		return "true or false"
	case strings.HasPrefix(t, "[]") || strings.HasPrefix(t, "*[]"):
		return "an array"
	}
	return "an object"
}

// docSyntaxError places a decoding error inside a whole document.
func docSyntaxError(name string, data []byte, start int, err error) error {
	var se *json.SyntaxError
	off := -1
	if errors.As(err, &se) {
		off = int(se.Offset) - 1
	} else if err == io.ErrUnexpectedEOF {
		off = len(data)
		err = errors.New("unexpected end of input")
	}
	if off < 0 {
		off = start
	}
	line, col := lineCol(data, off)
	return &Error{Name: name, Line: line, Col: col, Err: fmt.Errorf("invalid JSON: %v", err)}
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int) (int, int) {
	off = min(max(off, 0), len(data))
	line := bytes.Count(data[:off], []byte("\n")) + 1
	col := off - (bytes.LastIndexByte(data[:off], '\n') + 1) + 1
	return line, col
}

func utf8Error(name string, line int, data []byte) error {
	return &Error{Name: name, Line: line, Err: errors.New(jsonl.UTF8Message(data, jsonl.InvalidUTF8(data)))}
}

func utf8DocError(name string, data []byte) error {
	off := jsonl.InvalidUTF8(data)
	line, col := lineCol(data, off)
	return &Error{Name: name, Line: line, Col: col, Err: errors.New(jsonl.UTF8Message(data, off))}
}

// lineDecoder walks JSONL lines, skipping blank ones, checking UTF-8 and
// decoding each into a value with errors placed at line and column.
type lineDecoder struct {
	r    *jsonl.Reader
	name string
	b    *builder // its sink's error stops the reading
	line int
	data []byte

	boms, nuls *lineNote // lines read past with a warning, counted
	joined     *lineNote // lines holding several records, counted
	broken     *lineNote // broken lines past those named, counted
	strict     bool      // a broken line is an error, not skipped
	long       *lineNote // records longer than the reader's limit, skipped
	pending    [][]byte  // the later records of a joined line
}

// lineNote is a warning about lines read past, counted: one per kind and
// file, naming the first line.
type lineNote struct {
	what string
	n    int
}

func (l *lineNote) Error() string { return fmt.Sprintf("%d %s", l.n, l.what) }

// note counts line n under *l, adding the warning on its first line.
func (d *lineDecoder) note(l **lineNote, n int, what string) {
	if *l == nil {
		*l = &lineNote{what: what}
		if d.b != nil {
			d.b.t.Warnings = append(d.b.t.Warnings, &Error{Name: d.name, Line: n, Err: *l})
		}
	}
	(*l).n++
}

// next returns the next non-blank line, or io.EOF.
func (d *lineDecoder) next() ([]byte, error) {
	if len(d.pending) > 0 {
		d.data, d.pending = d.pending[0], d.pending[1:]
		return d.data, nil
	}
	for {
		if d.b != nil && d.b.sinkErr != nil {
			return nil, d.b.sinkErr
		}
		line, n, err := d.r.Next()
		if err == io.EOF {
			return nil, io.EOF
		}
		if tl := jsonl.TooLong(err); tl != nil {
			// Read past without being held: skipped, named and counted.
			if d.b != nil {
				d.note(&d.long, n, fmt.Sprintf("record(s) longer than %s, the limit for one JSON Lines record (--max-record), skipped; the first was %d bytes", mib(tl.Max), tl.Size))
				d.b.skip("record_too_long")
			}
			continue
		}
		if err != nil {
			return nil, &Error{Name: d.name, Line: n + 1, Err: err}
		}
		d.line = n
		if d.b != nil {
			d.b.line = n
			if d.b.ctx != nil {
				if err := d.b.ctx.Err(); err != nil {
					return nil, err
				}
			}
		}
		if bytes.HasPrefix(line, bom) {
			line = line[len(bom):]
			if n > 1 {
				// Files joined with cat: each may start with a BOM.
				d.note(&d.boms, n, "line(s) began with a byte order mark (files joined?), read without it")
			}
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if len(bytes.Trim(line, "\x00 \t\r")) == 0 {
			// What a crash leaves at the end of a preallocated file.
			d.note(&d.nuls, n, "line(s) of NUL bytes skipped (a file padded by a crash?)")
			continue
		}
		if !utf8.Valid(line) {
			return nil, utf8Error(d.name, n, line)
		}
		d.data = line
		if recs := joinedRecords(line); recs != nil {
			// A record appended to a file whose last line had no
			// newline, as real Claude Code sessions show: each record
			// is read in turn, all with this line's number.
			d.note(&d.joined, n, "line(s) held several records with no newline between them (appended to a file without a final newline?), each read")
			d.data, d.pending = recs[0], recs[1:]
			return d.data, nil
		}
		if d.r.Unterminated() && d.b != nil {
			if t := bytes.TrimSpace(line); !json.Valid(t) && truncated(t) {
				// A session still being written ends in a half-written
				// line, with no newline yet: skip it with a warning.
				d.b.t.Warnings = append(d.b.t.Warnings, &Error{Name: d.name, Line: n,
					Err: errors.New("skipped a half-written last line (a session still being written?)")})
				return nil, io.EOF
			}
		}
		return line, nil
	}
}

// maxBrokenNamed is how many broken lines of one file are named each in
// a warning; the rest are counted in one more.
const maxBrokenNamed = 10

// ErrBrokenLine is wrapped by the warning that names a broken line.
var ErrBrokenLine = errors.New("broken line skipped")

// Place is where e is: name:line:column, leaving out what is unknown.
func (e *Error) Place() string {
	s := e.Name
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
		if e.Col > 0 {
			s += fmt.Sprintf(":%d", e.Col)
		}
	}
	return s
}

// errLineSkipped is what [lineDecoder.decode] returns for a broken line
// it skipped: the reader goes on to the next line.
var errLineSkipped = errors.New("broken line skipped")

// skipBroken turns err, the error decoding the current line, into
// errLineSkipped when the line is not JSON at all (cut short, garbled)
// and lines are not strict: the line is then counted and named (see
// brokenLine). A line that is JSON of the wrong shape keeps its error:
// that is the reader's to report, not a broken line.
func (d *lineDecoder) skipBroken(err error) error {
	var e *Error
	if d.strict || d.b == nil || !errors.As(err, &e) || json.Valid(d.data) {
		return err
	}
	d.brokenLine(e)
	return errLineSkipped
}

// brokenLine skips a line that is not JSON: counted in Skipped as
// "broken_line" and in [Transcript.BrokenLines], and named in a warning
// (the first maxBrokenNamed of a file; then one warning counts the rest,
// naming the first of them).
func (d *lineDecoder) brokenLine(e *Error) {
	b := d.b
	b.skip(SkippedBrokenLine)
	b.t.BrokenLines++
	switch n := b.t.BrokenLines; {
	case n <= maxBrokenNamed:
		b.t.Warnings = append(b.t.Warnings, &Error{Name: e.Name, Line: e.Line, Col: e.Col,
			Err: fmt.Errorf("%w (%v)", ErrBrokenLine, e.Err)})
	default:
		d.note(&d.broken, e.Line, "more broken line(s) skipped, not named")
	}
}

// SkippedBrokenLine is the [Transcript.Skipped] kind of a line of a JSON
// Lines session log that is not JSON, skipped (see [WithStrictLines]).
const SkippedBrokenLine = "broken_line"

type strictKey struct{}

// WithStrictLines returns a context under which [Read], [Scan] and
// usage.Collect refuse a JSON Lines session log with a broken line (one that
// is not JSON): the error names file:line:column. By default such a line
// is skipped, counted in [Transcript.BrokenLines] and Skipped, and named
// in a warning; the other lines are read. A JSON document that is not
// valid JSON is an error either way.
func WithStrictLines(ctx context.Context) context.Context {
	return context.WithValue(ctx, strictKey{}, true)
}

func strictLines(ctx context.Context) bool {
	v, _ := ctx.Value(strictKey{}).(bool)
	return v
}

// joinedRecords splits a line that is two or more whole JSON objects
// back to back ("}{" between them) into them; nil for any other line,
// which is read as it is (and a bad one reported as such).
func joinedRecords(line []byte) [][]byte {
	if !mayJoin(line) {
		return nil
	}
	// One whole value and nothing after it is one record; a value that
	// does not read is a bad line, reported as such by its reader.
	end, _, ok := jsonl.SkipValue(line, 0, jsonl.MaxDepth)
	if !ok || jsonl.SkipSpace(line, end) == len(line) {
		return nil
	}
	var recs [][]byte
	dec := json.NewDecoder(bytes.NewReader(line))
	start := int64(0)
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil
		}
		end := dec.InputOffset()
		t := bytes.TrimSpace(line[start:end])
		if len(t) == 0 || t[0] != '{' {
			return nil
		}
		recs = append(recs, t)
		start = end
	}
	if len(recs) < 2 {
		return nil
	}
	return recs
}

// mayJoin reports whether line may hold a record that starts right after
// another ends: "}{" followed by a key's quote or white space. Inside a
// JSON string a quote is escaped (`}{\"` in the file), so the code that session logs
// quote rarely matches and its lines are not checked further.
func mayJoin(line []byte) bool {
	for i := 0; ; {
		j := bytes.Index(line[i:], []byte("}{"))
		if j < 0 || i+j+2 >= len(line) {
			return false
		}
		switch line[i+j+2] {
		case '"', ' ', '\t', '\r':
			return true
		}
		i += j + 2
	}
}

// truncated reports whether t is the start of a JSON object cut short:
// decoding it fails only for want of more input.
func truncated(t []byte) bool {
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	err := json.Unmarshal(t, new(any))
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end")
}

// checkObject reports a current line that is not a JSON object.
func (d *lineDecoder) checkObject() error {
	t := bytes.TrimSpace(d.data)
	if len(t) == 0 || t[0] != '{' {
		if !json.Valid(t) {
			return jsonError(d.name, d.line, d.data, json.Unmarshal(d.data, new(any)), "")
		}
		return &Error{Name: d.name, Line: d.line, Err: fmt.Errorf("not a JSON object (found %s)", jsonl.Kind(t))}
	}
	return nil
}

// decode decodes the current line into v, which must be a struct pointer:
// a line that is not an object is an error. A line that is not JSON is
// skipped (errLineSkipped: the caller reads on) unless strict.
func (d *lineDecoder) decode(v any) error {
	if err := d.checkObject(); err != nil {
		return d.skipBroken(err)
	}
	if err := json.Unmarshal(d.data, v); err != nil {
		return d.skipBroken(jsonError(d.name, d.line, d.data, err, ""))
	}
	return nil
}

// errorf reports a problem with the current line.
func (d *lineDecoder) errorf(format string, args ...any) error {
	return &Error{Name: d.name, Line: d.line, Err: fmt.Errorf(format, args...)}
}

// Select returns the transcript whose ID is id, for inputs that hold
// several conversations. The error lists the IDs there are; an id that
// several conversations share is an error naming their positions.
func Select(ts []*Transcript, id string) (*Transcript, error) {
	ids := make([]string, 0, len(ts))
	var found []int
	for i, t := range ts {
		if t.ID == id {
			found = append(found, i)
		}
		ids = append(ids, fmt.Sprintf("%q", t.ID))
	}
	switch {
	case len(found) == 1:
		return ts[found[0]], nil
	case len(found) > 1:
		at := make([]string, len(found))
		for k, i := range found {
			at[k] = fmt.Sprint(i + 1)
		}
		return nil, fmt.Errorf("%d conversations are named %q (the %s in the input); give each its own id", len(found), id, ordinalList(at))
	}
	if len(ids) > 10 {
		ids = append(ids[:10], fmt.Sprintf("… (%d in all)", len(ts)))
	}
	return nil, fmt.Errorf("no conversation %q; there are %s", id, strings.Join(ids, ", "))
}

// ordinalList writes positions as "1st, 3rd and 4th".
func ordinalList(at []string) string {
	for i, a := range at {
		suffix := "th"
		if n := len(a); n > 0 && (n < 2 || a[n-2] != '1') {
			switch a[n-1] {
			case '1':
				suffix = "st"
			case '2':
				suffix = "nd"
			case '3':
				suffix = "rd"
			}
		}
		at[i] = a + suffix
	}
	if len(at) == 1 {
		return at[0]
	}
	return strings.Join(at[:len(at)-1], ", ") + " and " + at[len(at)-1]
}
