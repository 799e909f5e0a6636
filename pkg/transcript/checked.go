package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Inputs the streaming readers leave (see stream.go) that are not one
// JSON document: one that is not valid JSON, and a sequence of documents.
// Neither is read whole. One pass over the input, holding a few bytes,
// finds what encoding/json would have said of it whole (its first byte
// that is not valid UTF-8, its first syntax error, at the same line and
// column and in the same words, see [jsonl.Checker]); a sequence is then
// read document by document, each from the source again.

// docCheck is what that pass found. Offsets count from the start of the
// input (a byte order mark included).
type docCheck struct {
	bom      int64 // 3 when the input starts with a byte order mark
	values   int   // documents whole before the first syntax error (or all)
	badUTF8  bool
	utf8Byte byte
	utf8At   position
	syn      *jsonl.SyntaxError // offsets after the byte order mark
	synAt    position
}

// position is a place in the input: its offset, line and column.
type position struct {
	off       int64
	line, col int
}

// lines counts lines over the bytes fed to it, to place an offset.
type lines struct {
	n         int   // newlines before off
	lineStart int64 // offset of the current line's first byte
	off       int64 // bytes counted
}

// at places offset o, in p (the bytes just after those counted) or, for
// a byte left over from before p (never a newline), before it.
func (l *lines) at(p []byte, o int64) position {
	i := int(o - l.off)
	if i < 0 {
		return position{o, l.n + 1, int(o-l.lineStart) + 1}
	}
	line, start := l.n+bytes.Count(p[:i], []byte("\n"))+1, l.lineStart
	if j := bytes.LastIndexByte(p[:i], '\n'); j >= 0 {
		start = l.off + int64(j) + 1
	}
	return position{o, line, int(o-start) + 1}
}

func (l *lines) add(p []byte) {
	l.n += bytes.Count(p, []byte("\n"))
	if j := bytes.LastIndexByte(p, '\n'); j >= 0 {
		l.lineStart = l.off + int64(j) + 1
	}
	l.off += int64(len(p))
}

// checkDocuments reads src from its current position to its end, as
// [docCheck] says; with firstOnly it stops once the first document is
// whole (values 1, nothing else known).
func checkDocuments(ctx context.Context, src io.Reader, firstOnly bool) (*docCheck, error) {
	br := bufio.NewReaderSize(src, 64<<10)
	r := &docCheck{}
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, bom) {
		r.bom = 3
	}
	var ck jsonl.Checker
	var ln lines
	var carry []byte // the start of a rune cut by the end of a buffer
	buf := make([]byte, 64<<10)
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		n, err := io.ReadFull(br, buf)
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return nil, err
		}
		p := buf[:n]
		end := err != nil
		if !r.badUTF8 {
			carry = r.checkUTF8(&ln, carry, p, end)
		}
		if ck.Err() == nil {
			body := p
			if ln.off < r.bom {
				body = p[min(int(r.bom-ln.off), len(p)):]
			}
			for len(body) > 0 && ck.Err() == nil {
				body = body[ck.Feed(body):]
				if firstOnly && ck.Values() > 0 {
					r.values = 1
					return r, nil
				}
			}
			if end {
				ck.End()
			}
			if e := ck.Err(); e != nil {
				r.syn, r.values = e, ck.Values()
				r.synAt = ln.at(p, e.Offset+r.bom)
			}
		}
		ln.add(p)
		if end {
			if r.syn == nil {
				r.values = ck.Values()
			}
			return r, nil
		}
	}
}

// checkUTF8 checks carry and then p, the next bytes, and returns the
// start of a rune p ends inside (to be checked with the next bytes).
func (r *docCheck) checkUTF8(ln *lines, carry, p []byte, end bool) []byte {
	skip := 0
	if len(carry) > 0 {
		head := append(carry, p[:min(len(p), utf8.UTFMax-len(carry))]...)
		if c, size := utf8.DecodeRune(head); c == utf8.RuneError && size <= 1 {
			r.bad(ln.at(p, ln.off-int64(len(carry))), carry[0])
			return nil
		} else {
			skip = size - len(carry)
		}
	}
	rest := p[skip:]
	cut := len(rest)
	if !end {
		for i := len(rest) - 1; i >= 0 && i >= len(rest)-utf8.UTFMax; i-- {
			if utf8.RuneStart(rest[i]) {
				if !utf8.FullRune(rest[i:]) {
					cut = i
				}
				break
			}
		}
	}
	if i := jsonl.InvalidUTF8(rest[:cut]); i >= 0 {
		r.bad(ln.at(p, ln.off+int64(skip+i)), rest[i])
		return nil
	}
	return append(carry[:0], rest[cut:]...)
}

// bad records the first byte that is not valid UTF-8, c at at.
func (r *docCheck) bad(at position, c byte) {
	r.badUTF8, r.utf8Byte, r.utf8At = true, c, at
}

// errorOf is the error [decodeDocuments] gives for the input before it
// reads any document, as format (detected when ""), nil when it gives
// none there. ok is false when that error would depend on more than the
// check (a format named whose errors name the format found instead,
// errorsNameFound).
func (r *docCheck) errorOf(src io.ReadSeeker, start int64, name string, format Format) (err error, ok bool) {
	if r.badUTF8 {
		if f := formatOf(format); f != nil && f.errorsNameFound {
			return nil, false
		}
		return &Error{Name: name, Line: r.utf8At.line, Col: r.utf8At.col,
			Err: errors.New(jsonl.UTF8ByteMessage(r.utf8At.off, r.utf8Byte))}, true
	}
	if r.syn == nil || r.values > 0 {
		return nil, true
	}
	if format == "" {
		if c, err := firstNonSpace(src, start+r.bom); err != nil {
			return &Error{Name: name, Err: err}, true
		} else if c != '{' && c != '[' {
			return &Error{Name: name, Err: undetectable()}, true
		}
	}
	return r.syntaxError(name), true
}

// syntaxError is the syntax error found, placed as [docSyntaxError]
// places it.
func (r *docCheck) syntaxError(name string) error {
	line, col := r.synAt.line, r.synAt.col
	if line == 1 {
		col -= int(r.bom) // columns count from after the byte order mark
	}
	return &Error{Name: name, Line: line, Col: col, Err: fmt.Errorf("invalid JSON: %s", r.syn.Msg)}
}

// firstNonSpace is the first byte at or after off that does not start a
// Unicode space (as [bytes.TrimSpace] trims them), 0 at the end.
func firstNonSpace(src io.ReadSeeker, off int64) (byte, error) {
	if _, err := src.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	br := bufio.NewReader(src)
	for {
		c, _, err := br.ReadRune()
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if !unicode.IsSpace(c) {
			if c < utf8.RuneSelf {
				return byte(c), nil
			}
			return 0x80, nil
		}
	}
}

// checkedSequence reads the input at start of src, which the streaming
// readers did not take, when it is not one valid JSON document: it says
// what is wrong with it, or reads it document by document. format is
// named, or detected from the first line (lineFormat, nil when there is
// none, tells it then), or "" to detect it from the first document. ok
// is false when it leaves the input to [wholeDocuments]: one valid document.
// With first, src was not read past its long first line yet: the input
// is taken only when its first document is not valid JSON and opens an
// object or an array (the other inputs are told from that line).
func checkedSequence(ctx context.Context, src io.ReadSeeker, start int64, name string, format Format, lineFormat func() Format, fn func(t *Transcript, m *Message) error, first bool) (ts []*Transcript, err error, ok bool) {
	if _, err := src.Seek(start, io.SeekStart); err != nil {
		return nil, &Error{Name: name, Err: err}, true
	}
	r, err := checkDocuments(ctx, src, first)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err(), true
		}
		return nil, &Error{Name: name, Err: err}, true
	}
	if first {
		if r.syn == nil || r.values > 0 {
			return nil, nil, false
		}
		if c, err := firstNonSpace(src, start+r.bom); err != nil || c != '{' && c != '[' {
			return nil, nil, false
		}
	}
	if !first && r.syn != nil && r.values == 0 {
		// Not JSON from its first byte (a cassette named as a HAR, say):
		// the whole reader says what it reads as instead.
		if c, err := firstNonSpace(src, start+r.bom); err != nil || c != '{' && c != '[' {
			return nil, nil, false
		}
	}
	if err, ok := r.errorOf(src, start, name, format); !ok || err != nil {
		return nil, err, ok
	}
	if docs := r.values; r.syn == nil && docs < 2 || r.syn != nil && docs < 1 {
		return nil, nil, false
	}
	seq := &sequence{docCheck: r, src: src, name: name, format: format, lineFormat: lineFormat}
	ts, err = seq.transcripts(ctx, start+r.bom, fn)
	return ts, err, true
}

// longFirstDocument reads the input's file, whose long first line is a
// valid JSON document the streaming reader did not take (the first of a
// sequence, one document a line), as [readInput] reads it once that line
// is read whole, but without reading it whole: the line formats' sniffs
// and the format the line tells are taken from the document's probe (its
// members kept, as in [streamLongLine]). ok is false when it leaves the
// input to that line read whole: the line is not exactly one object or
// array that the probe takes, or a line format claims it.
func (in *input) longFirstDocument() (ts []*Transcript, err error, ok bool) {
	ctx, file, at, name, format := in.ctx, in.file, in.at, in.name, in.format
	a, b, err := firstLineDocument(ctx, file, at)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err(), true
		}
		return nil, nil, false
	}
	s, err := openDocStream(&section{src: file, start: a, end: b}, name)
	if err != nil {
		return nil, nil, false
	}
	var obj map[string]json.RawMessage
	first := Format("") // what detectLine tells of the line as an object
	if !s.probe.array {
		obj = s.probe.obj
		if first = lineFormat(obj); first == "" {
			first = s.probe.detect()
		}
	}
	s = nil
	if format == "" {
		format = first
	}
	if f := formatOf(format); f != nil && (f.text != nil || f.readsLines(obj)) {
		return nil, nil, false
	}
	ts, err = in.document(format, func() Format { return first })
	return ts, err, true
}

// firstLineDocument finds the JSON document that begins the first line
// of src from at that is not blank, after a byte order mark, and returns
// its first offset and the one after it, when that line holds nothing
// else (spaces, tabs, a carriage return) and the document is an object
// or an array; errNotOneLine otherwise.
func firstLineDocument(ctx context.Context, src io.ReadSeeker, at int64) (a, b int64, err error) {
	if _, err := src.Seek(at, io.SeekStart); err != nil {
		return 0, 0, err
	}
	var head [3]byte
	n, _ := io.ReadFull(src, head[:])
	if bytes.Equal(head[:n], bom) {
		at += 3
	}
	if a, b, err = nextDocument(ctx, src, at); err != nil {
		return 0, 0, err
	}
	if _, err := src.Seek(a, io.SeekStart); err != nil {
		return 0, 0, err
	}
	if n, _ := io.ReadFull(src, head[:1]); n != 1 || head[0] != '{' && head[0] != '[' {
		return 0, 0, errNotOneLine
	}
	if _, err := src.Seek(b, io.SeekStart); err != nil {
		return 0, 0, err
	}
	br := bufio.NewReaderSize(src, 4<<10)
	for {
		c, err := br.ReadByte()
		if err == io.EOF || err == nil && c == '\n' {
			return a, b, nil
		}
		if err != nil {
			return 0, 0, err
		}
		if c != ' ' && c != '\t' && c != '\r' {
			return 0, 0, errNotOneLine
		}
	}
}

var errNotOneLine = errors.New("not one document on its line")

// sequence is a sequence of documents being read (see
// [docCheck.readSequence]).
type sequence struct {
	*docCheck
	src        io.ReadSeeker
	name       string
	format     Format        // named or detected from the first line; "" to detect
	lineFormat func() Format // what the first line tells
	first      *section      // the first document
}

// transcripts reads the documents from start one after another, as
// [decodeDocuments] then [wholeDocuments] read them held whole (the format is
// the first one's), but holding one at a time; with fn set, each one's
// messages go to fn before the next is read.
func (q *sequence) transcripts(ctx context.Context, start int64, fn func(t *Transcript, m *Message) error) ([]*Transcript, error) {
	named := q.format != ""
	out, messages, err := q.documents(ctx, start, fn)
	var tooLarge *InputTooLargeError
	if named && err != nil && !errors.As(err, &tooLarge) {
		if givesWay(q.format, err) {
			if found := q.detect(); found != "" && found != q.format {
				err = noRecords(q.name, q.format, found)
			}
		}
	}
	if err == nil && named && messages == 0 {
		err = noRecords(q.name, q.format, q.detect())
	}
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		out = append(out, newBuilder(q.format).finish())
	}
	return out, nil
}

// detect is what [Detect] names the whole input: the format its first
// line tells, else its first document's.
func (q *sequence) detect() Format {
	if q.lineFormat != nil {
		if f := q.lineFormat(); f != "" {
			return f
		}
	}
	if d, err := openDoc(q.first, "", false); err == nil {
		return d.probe.detect()
	}
	return ""
}

// documents reads the documents, returning their transcripts and how
// many messages they hold.
func (q *sequence) documents(ctx context.Context, start int64, fn func(t *Transcript, m *Message) error) (out []*Transcript, messages int, err error) {
	pos, k := start, 0
	for n := 0; n < q.values || q.syn != nil; n++ {
		if n == q.values {
			return nil, 0, q.syntaxError(q.name)
		}
		a, b, err := nextDocument(ctx, q.src, pos)
		if err != nil {
			return nil, 0, &Error{Name: q.name, Err: err}
		}
		pos = b
		sec := &section{src: q.src, start: a, end: b}
		if n == 0 {
			q.first = &section{src: q.src, start: a, end: b}
		}
		if q.format == "" {
			if d, err := openDoc(sec, "", false); err == nil {
				q.format = d.probe.detect()
			}
			if q.format == "" {
				return nil, 0, &Error{Name: q.name, Err: undetectable()}
			}
		}
		ts, n1, err := q.document(ctx, sec, k, fn)
		if err != nil {
			var e *Error
			if n > 0 && !errors.Is(err, errFromFn) && errors.As(err, &e) {
				e.Path = fmt.Sprintf("document %d", n+1) + pathJoin(e.Path)
			}
			return nil, 0, unwrapFn(err)
		}
		out, messages, k = append(out, ts...), messages+n1, k+len(ts)
	}
	return out, messages, nil
}

// nextDocument finds the document that begins at or after pos in src
// (checked already) and returns its first offset and the one after it.
func nextDocument(ctx context.Context, src io.ReadSeeker, pos int64) (a, b int64, err error) {
	if err := ctx.Err(); err != nil {
		return 0, 0, err
	}
	if _, err := src.Seek(pos, io.SeekStart); err != nil {
		return 0, 0, err
	}
	br := bufio.NewReaderSize(src, 64<<10)
	var ck jsonl.Checker
	for {
		p, err := br.Peek(max(br.Buffered(), 1))
		if len(p) == 0 {
			if err == io.EOF {
				ck.End()
				if start, ok := ck.Ended(); ok {
					return pos + start, pos + ck.Offset(), nil
				}
				err = io.ErrUnexpectedEOF
			}
			return 0, 0, err
		}
		_, _ = br.Discard(ck.Feed(p))
		if start, ok := ck.Ended(); ok {
			return pos + start, pos + ck.Offset(), nil
		}
		if ck.Err() != nil {
			return 0, 0, ck.Err()
		}
	}
}

// errFromFn marks an error that [Scan]'s fn returned (and its place),
// which no document path prefixes.
var errFromFn = errors.New("from fn")

type fnError struct{ err error }

func (e *fnError) Error() string   { return e.err.Error() }
func (e *fnError) Unwrap() []error { return []error{e.err, errFromFn} }

// unwrapFn is err without its [errFromFn] mark.
func unwrapFn(err error) error {
	if fe, ok := err.(*fnError); ok {
		return fe.err
	}
	var fe *fnError
	if errors.As(err, &fe) {
		return fe.err
	}
	return err
}

// document reads the one document in sec as [decodeDocument] reads it held
// whole, streamed where the format's reader takes it; k is the number of
// transcripts before it. With fn set, its messages go to fn as they are
// read (an error placed at "conversation K, message I", as [scanAll]
// places it over the whole input) and its transcripts come back without
// them. n is the number of messages read.
func (q *sequence) document(ctx context.Context, sec *section, k int, fn func(t *Transcript, m *Message) error) (ts []*Transcript, n int, err error) {
	f := formatOf(q.format)
	if f.stream != nil {
		if s, err := openDocStream(sec, q.name); err == nil {
			s.ctx = ctx
			var emitted []*Transcript
			if fn != nil {
				s.fn = func(t *Transcript, m *Message) error {
					if err := fn(t, m); err != nil {
						where := fmt.Sprintf("conversation %d, message %d", k+s.emitted+1, m.Index)
						return &fnError{placeOverflow(err, q.name, 0, where)}
					}
					return nil
				}
				s.scan = func(t *Transcript, kk int, _ bool) error {
					if _, err := scanOne(ctx, q.name, t, k+kk, true, fn); err != nil {
						return &fnError{err}
					}
					emitted = append(emitted, t)
					return nil
				}
			}
			ts, err := f.stream(s)
			if !errors.Is(err, errStreamFallback) {
				if err != nil {
					return nil, 0, err
				}
				return q.scanRest(ctx, append(emitted, ts...), k, s.messages, fn)
			}
		}
	}
	if _, err := sec.Seek(0, io.SeekStart); err != nil {
		return nil, 0, &Error{Name: q.name, Err: err}
	}
	v, err := readLimited(sec, q.name, 0, maxWhole, false)
	if err != nil {
		return nil, 0, err
	}
	if ts, err = decodeDocument(v, q.name, q.format); err != nil {
		return nil, 0, err
	}
	return q.scanRest(ctx, ts, k, 0, fn)
}

// scanRest counts the messages of ts, the transcripts of one document
// (n handed on already), and hands those still held to fn.
func (q *sequence) scanRest(ctx context.Context, ts []*Transcript, k, n int, fn func(t *Transcript, m *Message) error) ([]*Transcript, int, error) {
	for i, t := range ts {
		n += len(t.Messages)
		if fn != nil {
			if _, err := scanOne(ctx, q.name, t, k+i, true, fn); err != nil {
				return nil, 0, &fnError{err}
			}
		}
	}
	return ts, n, nil
}

// section is the bytes [start, end) of src, read and sought on their own.
type section struct {
	src        io.ReadSeeker
	start, end int64
	pos        int64
	placed     bool // src is at start+pos
}

func (s *section) Read(p []byte) (int, error) {
	if !s.placed {
		if _, err := s.Seek(s.pos, io.SeekStart); err != nil {
			return 0, err
		}
	}
	left := s.end - s.start - s.pos
	if left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := s.src.Read(p)
	s.pos += int64(n)
	return n, err
}

func (s *section) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += s.pos
	case io.SeekEnd:
		off += s.end - s.start
	}
	if off < 0 {
		return 0, errors.New("negative position")
	}
	if _, err := s.src.Seek(s.start+off, io.SeekStart); err != nil {
		return 0, err
	}
	s.pos, s.placed = off, true
	return off, nil
}
