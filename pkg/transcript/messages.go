package transcript

// What the format readers share: errors placed inside a JSON document,
// ids for tool calls paired by name, the hand decoders' field checks, a
// message's usage, and the reading of a chat API's messages (OpenAI's,
// Anthropic's: see openai.go, anthropic.go) as one document or a message
// a line, with the sniffs that tell a chat input from the typed formats.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// errAt is bad input inside a JSON document, placed by its JSON path.
func errAt(name, path string, format string, args ...any) error {
	return &Error{Name: name, Path: path, Err: fmt.Errorf(format, args...)}
}

// typeErrAt turns a decoding error of the value at path into an *Error.
func typeErrAt(name, path string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return errAt(name, path, "%q must be %s, got %s", te.Field, typeName(te.Type.String()), te.Value)
		}
		return errAt(name, path, "want %s, got %s", typeName(te.Type.String()), te.Value)
	}
	return &Error{Name: name, Path: path, Err: err}
}

// namePairer gives ids to tool calls in formats that record none (legacy
// OpenAI function calls, ShareGPT, Gemini without ids): a result answers
// the oldest unanswered call of its name (of any name when it has none).
type namePairer struct {
	open []pendingCall
	n    int
}

type pendingCall struct{ id, name string }

func (p *namePairer) call(name string) string {
	p.n++
	id := fmt.Sprintf("%s#%d", name, p.n)
	if name == "" {
		id = fmt.Sprintf("call#%d", p.n)
	}
	p.open = append(p.open, pendingCall{id, name})
	return id
}

// result returns the id of the call a result of this name answers, or a
// fresh id that pairs with nothing.
func (p *namePairer) result(name string) string {
	for i, c := range p.open {
		if name == "" || c.name == name {
			p.open = append(p.open[:i], p.open[i+1:]...)
			return c.id
		}
	}
	p.n++
	if name == "" {
		name = "result"
	}
	return fmt.Sprintf("%s#%d", name, p.n)
}

// addCall registers an explicit call id, so results naming it by name only
// can still find it.
func (p *namePairer) addCall(id, name string) { p.open = append(p.open, pendingCall{id, name}) }

// done removes an explicit id answered by id.
func (p *namePairer) done(id string) {
	for i, c := range p.open {
		if c.id == id {
			p.open = append(p.open[:i], p.open[i+1:]...)
			return
		}
	}
}

// fieldSet notes the fields of one object already met, for the hand
// decoders, which give up on a duplicate (encoding/json merges them).
type fieldSet uint32

// once fails p when field n was met before.
func (s *fieldSet) once(p *jsonl.Parser, n uint) {
	if *s&(1<<n) != 0 {
		p.Fail()
	}
	*s |= 1 << n
}

// otherField skips the value of a field a hand decoder does not keep, and
// fails p when encoding/json would match key to one of known anyway (it
// matches keys case-insensitively, with Unicode folding for non-ASCII).
func otherField(p *jsonl.Parser, key []byte, known []string) {
	for _, c := range key {
		if c >= 0x80 {
			p.Fail()
			return
		}
	}
	for _, k := range known {
		if foldEqual(k, key) {
			p.Fail()
			return
		}
	}
	p.Skip()
}

// foldEqual reports whether the ASCII key equals k ignoring case.
func foldEqual(k string, key []byte) bool {
	if len(k) != len(key) {
		return false
	}
	for i := range len(k) {
		a, b := k[i], key[i]
		if a == b {
			continue
		}
		if la := a | 0x20; la < 'a' || la > 'z' || la != b|0x20 {
			return false
		}
	}
	return true
}

// setUsage sets m's usage record and prompt size from u (nil: none). A
// prompt whose parts do not fit an int is an [*engine.TokenOverflowError] and sets
// nothing.
func (m *Message) setUsage(u *Usage) error {
	if u == nil {
		return nil
	}
	n, err := u.checkedPrompt()
	if err != nil {
		return err
	}
	m.InputTokens = &n
	m.Usage = u
	return nil
}

// setSplitUsage sets m's usage from a provider's prompt total (cached
// part included), its cached part and the output (see [openAIParts]).
// The parts add up to prompt, so no sum can overflow.
func (m *Message) setSplitUsage(prompt, cached, output int) {
	u := openAIParts(prompt, cached, output)
	n := prompt
	m.InputTokens = &n
	m.Usage = u
}

// messageAdder adds the messages of one chat API (OpenAI's, Anthropic's)
// to a transcript, one raw message at a time; where and typeErr place its
// errors.
type messageAdder interface {
	add(raw json.RawMessage, where func(format string, args ...any) error, typeErr func(error) error) error
}

// readMessagesDoc reads an OpenAI or Anthropic document: an array of
// messages, or an object with "messages" (and, for Anthropic, "system").
func readMessagesDoc(s *docStream, format Format, newAdder func(*builder) messageAdder) (*Transcript, error) {
	name := s.name
	b := s.builder(format)
	key, prefix := "", ""
	if !s.probe.array {
		// The members beside the messages, kept by the probe (streamed
		// arrays stand as []).
		var doc struct {
			System   json.RawMessage   `json:"system"`
			Messages []json.RawMessage `json:"messages"`
			Tools    json.RawMessage   `json:"tools"`
		}
		if err := json.Unmarshal(mustRaw(s.top()), &doc); err != nil {
			return nil, typeErrAt(name, "", err)
		}
		if doc.Messages == nil {
			return nil, errAt(name, "", "no \"messages\" array")
		}
		key, prefix = "messages", "messages"
		b.t.Tools = parseTools(doc.Tools)
		if sys := bytes.TrimSpace(doc.System); len(sys) > 0 && string(sys) != "null" {
			c, err := parseAnthropic(sys)
			if err != nil {
				return nil, errAt(name, "system", "must be a string or an array of text blocks")
			}
			b.add(Message{Role: RoleSystem, Text: c.text}, false)
		}
	}
	add := newAdder(b)
	err := s.elements(key, func(i int, raw json.RawMessage) error {
		if err := s.stopped(b); err != nil {
			return err
		}
		path := fmt.Sprintf("%s[%d]", prefix, i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want a message object, got %s", jsonl.Kind(raw))
		}
		where := func(f string, args ...any) error { return errAt(name, path, f, args...) }
		typeErr := func(err error) error { return typeErrAt(name, path, err) }
		return add.add(raw, where, typeErr)
	})
	if err != nil {
		return nil, err
	}
	return s.finish(b)
}

// readMessageLines reads OpenAI or Anthropic messages written one a line.
func readMessageLines(d *lineDecoder, b *builder, newAdder func(*builder) messageAdder) error {
	add := newAdder(b)
	for {
		line, err := d.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if err := d.checkObject(); err != nil {
			return err
		}
		typeErr := func(err error) error { return jsonError(d.name, d.line, line, err, "") }
		if err := add.add(line, d.errorf, typeErr); err != nil {
			return err
		}
	}
	return nil
}

func hasRole(obj map[string]json.RawMessage) bool { return obj["role"] != nil }

// chatLine: a first line with a "role" that no typed JSONL format claims.
func chatLine(obj map[string]json.RawMessage) bool {
	return obj["role"] != nil && !codexLine(obj) && !claudeCodeLine(obj) && !harpeLine(obj)
}

// chatDoc: an array of messages (or an empty array), or an object with
// "messages", that no more specific document format claims.
func chatDoc(p *docProbe) bool {
	if p.array {
		return p.empty || p.has("role") && !archiveDoc(p) && !geminiDoc(p) && !codexDoc(p)
	}
	return p.has("messages") && !archiveDoc(p) && !geminiDoc(p) && !geminiCLIDoc(p)
}

// messageLines is the lines reader of a chat API's messages written one a
// line, which newAdder's reader adds.
func messageLines(newAdder func(*builder) messageAdder) func(*lineDecoder, *builder) error {
	return func(d *lineDecoder, b *builder) error { return readMessageLines(d, b, newAdder) }
}

// messagesStream is the stream reader of a chat API's document (an array
// of messages or an object with "messages"), whose messages newAdder's
// reader adds.
func messagesStream(format Format, newAdder func(*builder) messageAdder) func(s *docStream) ([]*Transcript, error) {
	return func(s *docStream) ([]*Transcript, error) {
		t, err := readMessagesDoc(s, format, newAdder)
		if err != nil {
			return nil, err
		}
		return []*Transcript{t}, nil
	}
}
