package transcript

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Reading JSON documents in bounded memory.
//
// A document is read in two passes over a source that can be rewound (the
// file itself, or the input held once by spool.Hold): the first
// (the probe) reads every byte, checks the grammar and UTF-8, keeps the
// small members of a top-level object and tells the format; the second
// hands the elements of the large arrays (the messages, the
// conversations) to the format's reader one at a time. Nothing larger than
// one element, plus the members kept, is held at once.

// errStreamFallback says the document is not one the streaming reader
// takes (bad JSON, a sequence of documents, a duplicated array member):
// it is read whole, as before, which also places any error exactly. It
// is the lexer's own error, so that what the lexer cannot read falls
// back too.
var errStreamFallback = jsonl.ErrUnread

// keepArray is how large an array member of a top-level object may be and
// still be kept by the probe (tools, a system prompt in blocks); larger
// ones are streamed.
const keepArray = 1 << 20

// docProbe is what document detection looks at, gathered in one pass
// that keeps no message: for an object, its members (array members larger
// than [keepArray] stand as "[]", listed in streamed); for an array, the
// members of its first element.
type docProbe struct {
	array    bool
	empty    bool                       // an array with no element
	obj      map[string]json.RawMessage // nil when the document (or its first element) is not an object
	streamed map[string]bool            // array members of obj not kept
	count    map[string]int             // how often each member of obj is given
	first    map[string]json.RawMessage // the first element of obj's "messages", when it is an object
	// anthropic is [looksAnthropic] over the messages: the elements of an
	// array whose first element has a "role", or obj's "messages".
	anthropic bool
}

// has reports whether the probed object has member key.
func (p *docProbe) has(key string) bool { return p.obj[key] != nil }

// hasIn reports whether member key of the probed object is an object
// with member sub.
func (p *docProbe) hasIn(key, sub string) bool { return hasKey(p.obj[key], sub) }

// typeIs reports whether member "type" of the probed object is a string
// in set.
func (p *docProbe) typeIs(set map[string]bool) bool { return set[str(p.obj["type"])] }

// anthropicVote folds looksAnthropic over messages met one at a time.
type anthropicVote struct{ decided, anthropic bool }

func (v *anthropicVote) add(m []byte) {
	if v.decided {
		return
	}
	if a, ok := anthropicHint(m); ok {
		v.decided, v.anthropic = true, a
	}
}

// probe reads the document from l, as described at [docProbe]. It fails
// with [errStreamFallback] on anything it does not take.
func probe(l *jsonl.Lexer) (*docProbe, error) {
	p := &docProbe{}
	c, err := l.Peek()
	if err != nil {
		return nil, errStreamFallback
	}
	var scratch []byte
	var vote anthropicVote
	switch c {
	case '[':
		p.array, p.empty = true, true
		voting := false
		err = l.Array(func(i int) error {
			p.empty = false
			var err error
			if scratch, err = l.Capture(scratch[:0]); err != nil {
				return err
			}
			if i == 0 {
				p.obj = members(scratch)
				voting = p.obj["role"] != nil
			}
			if voting {
				vote.add(scratch)
			}
			return nil
		})
	case '{':
		p.obj, p.streamed = map[string]json.RawMessage{}, map[string]bool{}
		p.count = map[string]int{}
		err = p.object(l, "", p.obj, &vote, &scratch)
	default:
		return nil, errStreamFallback
	}
	if err != nil {
		return nil, err
	}
	if _, err := l.Peek(); err != io.EOF {
		return nil, errStreamFallback // more after the document
	}
	p.anthropic = vote.anthropic
	return p, nil
}

// nestedMembers are the object members of a top-level object whose own
// members the probe reads as it reads the top level's (a HAR's "log",
// whose "entries" are streamed); any other object member is kept whole.
var nestedMembers = map[string]bool{"log": true}

// object reads the members of an object (the document, or a member named
// in [nestedMembers], at prefix "log.") into obj, as [docProbe] says.
// Members are counted and marked streamed by their path from the top.
func (p *docProbe) object(l *jsonl.Lexer, prefix string, obj map[string]json.RawMessage, vote *anthropicVote, scratch *[]byte) error {
	return l.Object(func(key string) error {
		// A key given twice counts once, its last value (as
		// encoding/json reads it).
		path := prefix + key
		p.count[path]++
		delete(p.streamed, path)
		c, _ := l.Peek()
		if c == '{' && prefix == "" && nestedMembers[key] {
			inner := map[string]json.RawMessage{}
			if err := p.object(l, path+".", inner, vote, scratch); err != nil {
				return err
			}
			obj[key] = mustRaw(inner)
			return nil
		}
		if c != '[' {
			raw, err := l.Capture(nil)
			obj[key] = raw
			return err
		}
		kept := []byte{'['}
		err := l.Array(func(i int) error {
			var err error
			if *scratch, err = l.Capture((*scratch)[:0]); err != nil {
				return err
			}
			if path == "messages" {
				if i == 0 {
					p.first = members(*scratch)
				}
				vote.add(*scratch)
			}
			if kept != nil {
				if len(kept)+len(*scratch) > keepArray {
					kept = nil
				} else {
					if i > 0 {
						kept = append(kept, ',')
					}
					kept = append(kept, *scratch...)
				}
			}
			return nil
		})
		if kept == nil {
			obj[key], p.streamed[path] = json.RawMessage("[]"), true
		} else {
			obj[key] = append(kept, ']')
		}
		return err
	})
}

// members returns the members of the object v, nil when v is not one.
func members(v []byte) map[string]json.RawMessage {
	if t := bytes.TrimSpace(v); len(t) == 0 || t[0] != '{' {
		return nil
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return nil
	}
	return obj
}

// docStream is a probed document that a format's reader takes its
// elements from.
type docStream struct {
	src    io.ReadSeeker
	base   int64
	noUTF8 bool
	br     *bufio.Reader
	name   string
	probe  *docProbe
	ctx    context.Context
	fn     func(t *Transcript, m *Message) error // Scan's, or nil
	// scan, when set, takes each transcript as soon as it is read (see
	// [docStream.emit]); emitted counts those it took.
	scan     func(t *Transcript, k int, many bool) error
	emitted  int
	messages int // of the transcripts emitted
}

// builder returns a builder for the one transcript of the document: with
// [Scan]'s fn, it hands each message on once its turn is settled and
// drops it, as for JSON Lines. Its transcript goes through finish.
func (s *docStream) builder(format Format) *builder {
	b := newBuilder(format)
	if s.fn != nil {
		b.sink = func(m *Message) error { return s.fn(b.t, m) }
		b.name, b.ctx = s.name, s.ctx
	}
	return b
}

// stopped is the error that stops reading b's document early: its sink's.
func (s *docStream) stopped(b *builder) error { return b.sinkErr }

// finish finishes b, from [docStream.builder].
func (s *docStream) finish(b *builder) (*Transcript, error) {
	t := b.finish()
	if b.sink != nil {
		s.emitted++
		s.messages += b.count()
	}
	return t, b.sinkErr
}

// emit hands t, conversation k of the input (of several when many), on
// to [Scan]'s fn as soon as it is read, which drops its messages. A
// reader that emits its transcripts emits every one.
func (s *docStream) emit(t *Transcript, k int, many bool) error {
	if s.scan == nil {
		return nil
	}
	s.emitted++
	s.messages += len(t.Messages)
	return s.scan(t, k, many)
}

// openDocStream probes the document at the current position of src.
func openDocStream(src io.ReadSeeker, name string) (*docStream, error) {
	return openDoc(src, name, true)
}

// openDoc is [openDocStream]; checkUTF8 false leaves the bytes of strings
// unchecked (for detection, which encoding/json did before).
func openDoc(src io.ReadSeeker, name string, checkUTF8 bool) (*docStream, error) {
	base, err := src.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, errStreamFallback
	}
	s := &docStream{src: src, base: base, br: bufio.NewReaderSize(src, 64<<10), name: name, noUTF8: !checkUTF8}
	l := s.lexer()
	p, err := probe(l)
	if err != nil {
		return nil, err
	}
	s.probe = p
	return s, nil
}

// lexer rewinds the source and returns a lexer at the document's start
// (after a byte order mark).
func (s *docStream) lexer() *jsonl.Lexer {
	if _, err := s.src.Seek(s.base, io.SeekStart); err != nil {
		return jsonl.NewLexer(bufio.NewReader(bytes.NewReader(nil)), false)
	}
	s.br.Reset(s.src)
	if b, err := s.br.Peek(3); err == nil && bytes.Equal(b, bom) {
		_, _ = s.br.Discard(3)
	}
	return jsonl.NewLexer(s.br, !s.noUTF8)
}

// top is the probed object's members (streamed arrays as "[]").
func (s *docStream) top() map[string]json.RawMessage { return s.probe.obj }

// elements hands fn each element of the document (key "", an array) or of
// its array member key, in order. A member kept by the probe is read from
// memory; a streamed one, or the document's own array, from the source
// again. raw is fn's to keep.
func (s *docStream) elements(key string, fn func(i int, raw json.RawMessage) error) error {
	each := func(l *jsonl.Lexer) error {
		return l.Array(func(i int) error {
			if s.ctx != nil {
				if err := s.ctx.Err(); err != nil {
					return err
				}
			}
			raw, err := l.Capture(nil)
			if err != nil {
				return err
			}
			return fn(i, raw)
		})
	}
	if key != "" && !s.probe.streamed[key] {
		v := s.kept(key)
		if len(v) == 0 {
			return nil
		}
		return each(jsonl.NewLexer(bufio.NewReader(bytes.NewReader(v)), !s.noUTF8))
	}
	l := s.lexer()
	if key == "" {
		return each(l)
	}
	return s.walk(l, "", key, each)
}

// kept is the value the probe kept at path (a member, or "log.entries"
// for a member of a nested one), nil when there is none.
func (s *docStream) kept(path string) json.RawMessage {
	head, rest, nested := strings.Cut(path, ".")
	v := s.probe.obj[head]
	if nested {
		return members(v)[rest]
	}
	return v
}

// walk reads l's object up to the member at path from prefix (the last
// of its name given, as encoding/json takes it) and hands l to each
// there.
func (s *docStream) walk(l *jsonl.Lexer, prefix, path string, each func(l *jsonl.Lexer) error) error {
	head, rest, nested := strings.Cut(path, ".")
	n := 0
	return l.Object(func(k string) error {
		if k == head {
			if n++; n == s.probe.count[prefix+head] {
				if nested {
					return s.walk(l, prefix+head+".", rest, each)
				}
				return each(l)
			}
		}
		_, err := l.Capture(nil)
		return err
	})
}

// whole returns the whole document, for readers that have no streaming
// form.
func (s *docStream) whole() (json.RawMessage, error) {
	l := s.lexer()
	return l.Capture(nil)
}

// records reads the one transcript of a document whose records are the
// elements of its array member key ("" for the document's own array),
// handing each to each in order; b is from [docStream.builder] (or a
// plain builder, for a reader that changes messages after the last
// record). The readers of whole documents hand the same records to the
// same each through [eachRecord].
func (s *docStream) records(b *builder, key string, each func(i int, raw json.RawMessage) error) ([]*Transcript, error) {
	err := s.elements(key, func(i int, raw json.RawMessage) error {
		if err := s.stopped(b); err != nil {
			return err
		}
		return each(i, raw)
	})
	if err != nil {
		return nil, err
	}
	t, err := s.finish(b)
	if err != nil {
		return nil, err
	}
	return []*Transcript{t}, nil
}

// messagesDoc returns the readers of a format whose document is an
// object holding its records in "messages" (Gemini CLI sessions, OpenCode
// exports): whole, and one record at a time; records gives the reader of
// one document's records into b. The streamed reader leaves a document
// whose "messages" is missing or no array to the whole one, which says
// what is wrong.
func messagesDoc(format Format, records func(b *builder, name string) func(i int, raw json.RawMessage) error) (
	func(v json.RawMessage, name string) ([]*Transcript, error), func(s *docStream) ([]*Transcript, error)) {
	whole := func(v json.RawMessage, name string) (*Transcript, error) {
		var doc struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(v, &doc); err != nil {
			return nil, typeErrAt(name, "", err)
		}
		if doc.Messages == nil {
			return nil, errAt(name, "", "no \"messages\" array")
		}
		b := newBuilder(format)
		if err := eachRecord(doc.Messages, records(b, name)); err != nil {
			return nil, err
		}
		return b.finish(), nil
	}
	stream := func(s *docStream) ([]*Transcript, error) {
		if m := bytes.TrimSpace(s.top()["messages"]); s.probe.array || len(m) == 0 || m[0] != '[' || !s.plain("messages") {
			return nil, errStreamFallback
		}
		b := s.builder(format)
		return s.records(b, "messages", records(b, s.name))
	}
	return one(whole), stream
}

// eachRecord hands each of records to each, in order (the whole-document
// side of [docStream.records]).
func eachRecord(records []json.RawMessage, each func(i int, raw json.RawMessage) error) error {
	for i, raw := range records {
		if err := each(i, raw); err != nil {
			return err
		}
	}
	return nil
}

// plain reports whether the probed object gives the member at path (a
// name, or "log.entries" for a member of a nested one) under that exact
// name and no other: encoding/json also takes a member whose name differs
// in case, so a document that has one is left to the whole-document
// reader.
func (s *docStream) plain(path string) bool {
	obj := s.probe.obj
	for {
		head, rest, nested := strings.Cut(path, ".")
		if obj[head] == nil {
			return false
		}
		for k := range obj {
			if k != head && strings.EqualFold(k, head) {
				return false
			}
		}
		if !nested {
			return true
		}
		obj, path = members(obj[head]), rest
	}
}
