package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/jsonl"
)

type gmContent struct {
	Role          string          `json:"role"`
	Parts         []gmPart        `json:"parts"`
	UsageMetadata *gmUsage        `json:"usageMetadata"`
	ModelVersion  string          `json:"modelVersion"`
	Timestamp     json.RawMessage `json:"timestamp"`
}

type gmUsage struct {
	PromptTokenCount        *int `json:"promptTokenCount"`
	CachedContentTokenCount int  `json:"cachedContentTokenCount"`
	CandidatesTokenCount    int  `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int  `json:"thoughtsTokenCount"`
}

// output is the tokens billed as output: the candidates and the thoughts,
// or an [*engine.TokenOverflowError] when they do not fit an int.
func (u *gmUsage) output() (int, error) {
	if u == nil {
		return 0, nil
	}
	if err := u.check(); err != nil {
		return 0, err
	}
	return geminiOutput(u.CandidatesTokenCount, u.ThoughtsTokenCount, "candidatesTokenCount", "thoughtsTokenCount")
}

// geminiOutput is out + thoughts, or an [*engine.TokenOverflowError] naming the fields.
func geminiOutput(out, thoughts int, outName, thoughtsName string) (int, error) {
	n, ok := checked.Add(out, thoughts)
	if !ok {
		return 0, &checked.OverflowError{What: fmt.Sprintf("%s (%d) and %s (%d)", outName, out, thoughtsName, thoughts)}
	}
	return n, nil
}

// setOn sets m's usage in its parts: Gemini's prompt count includes the
// cached content; thoughts are billed as output. Nothing is set when the
// prompt count is not recorded.
func (u *gmUsage) setOn(m *Message) error {
	if u == nil || u.PromptTokenCount == nil {
		return nil
	}
	out, err := u.output()
	if err != nil {
		return err
	}
	m.setSplitUsage(*u.PromptTokenCount, u.CachedContentTokenCount, out)
	return nil
}

type gmPart struct {
	Text                *string         `json:"text"`
	Thought             bool            `json:"thought"`
	FunctionCall        *gmCall         `json:"functionCall"`
	FunctionResponse    *gmResponse     `json:"functionResponse"`
	InlineData          *gmData         `json:"inlineData"`
	FileData            *gmData         `json:"fileData"`
	ExecutableCode      json.RawMessage `json:"executableCode"`
	CodeExecutionResult json.RawMessage `json:"codeExecutionResult"`
}

type gmCall struct {
	ID   string          `json:"id"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type gmResponse struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

type gmData struct {
	MimeType string `json:"mimeType"`
}

// responseText renders a functionResponse's response: its "output" (or
// "error") string when it has one, else its JSON.
func responseText(raw json.RawMessage) string {
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) == nil {
		for _, k := range []string{"output", "error"} {
			var s string
			if v, ok := o[k]; ok && len(o) == 1 && json.Unmarshal(v, &s) == nil {
				return s
			}
		}
	}
	return argText(raw)
}

// geminiParts splits parts into text, images, calls and responses.
type geminiParts struct {
	text      string
	images    int
	calls     []ToolCall
	responses []Message
	skipped   []string
}

func splitParts(parts []gmPart, names *namePairer) geminiParts {
	var g geminiParts
	var texts []string
	for _, p := range parts {
		switch {
		case p.Text != nil && p.Thought:
			g.skipped = append(g.skipped, "thought")
		case p.Text != nil:
			texts = append(texts, *p.Text)
		case p.FunctionCall != nil:
			c := p.FunctionCall
			id := c.ID
			if id == "" {
				id = names.call(c.Name)
			} else {
				names.addCall(id, c.Name)
			}
			g.calls = append(g.calls, ToolCall{ID: id, Name: c.Name, Arguments: argText(c.Args)})
		case p.FunctionResponse != nil:
			r := p.FunctionResponse
			id := r.ID
			if id == "" {
				id = names.result(r.Name)
			} else {
				names.done(id)
			}
			g.responses = append(g.responses, Message{Role: RoleTool, Name: r.Name, ToolCallID: id, Text: responseText(r.Response)})
		case p.InlineData != nil || p.FileData != nil:
			g.images++
		case p.ExecutableCode != nil:
			texts = append(texts, argText(p.ExecutableCode))
		case p.CodeExecutionResult != nil:
			texts = append(texts, argText(p.CodeExecutionResult))
		default:
			g.skipped = append(g.skipped, "part")
		}
	}
	g.text = strings.Join(texts, "\n")
	return g
}

// gmDoc is a Gemini request or response object, its contents aside.
type gmDoc struct {
	SystemInstruction json.RawMessage   `json:"systemInstruction"`
	Contents          []json.RawMessage `json:"contents"`
	Tools             json.RawMessage   `json:"tools"`
	UsageMetadata     *gmUsage          `json:"usageMetadata"`
	ModelVersion      string            `json:"modelVersion"`
}

// readGemini reads Gemini API contents: an array of contents, or an
// object with "contents" and optionally "systemInstruction".
func readGemini(v json.RawMessage, name string) (*Transcript, error) {
	b := newBuilder(FormatGemini)
	if bytes.TrimSpace(v)[0] == '[' {
		var contents []json.RawMessage
		if err := json.Unmarshal(v, &contents); err != nil {
			return nil, typeErrAt(name, "", err)
		}
		if err := eachRecord(contents, geminiContents(b, name, "")); err != nil {
			return nil, err
		}
		return b.finish(), nil
	}
	var doc gmDoc
	if err := json.Unmarshal(v, &doc); err != nil {
		return nil, typeErrAt(name, "", err)
	}
	if doc.Contents == nil {
		return nil, errAt(name, "", "no \"contents\" array")
	}
	if err := doc.begin(b, name); err != nil {
		return nil, err
	}
	if err := eachRecord(doc.Contents, geminiContents(b, name, "contents")); err != nil {
		return nil, err
	}
	doc.end(b)
	return b.finish(), nil
}

// geminiStream is [readGemini] one content at a time. A document it
// cannot take as it stands (no "contents" array, a member of the wrong
// type) is left to readGemini, which says what is wrong. A response's
// usage, stored beside the contents, goes on the last reply: a first pass
// over the contents finds the last "model" one, so that the usage is set
// on its reply as soon as it is read.
func geminiStream(s *docStream) ([]*Transcript, error) {
	b := s.builder(FormatGemini)
	if s.probe.array {
		return s.records(b, "", geminiContents(b, s.name, ""))
	}
	var doc gmDoc
	if json.Unmarshal(mustRaw(s.top()), &doc) != nil || doc.Contents == nil || !s.plain("contents") {
		return nil, errStreamFallback
	}
	if err := doc.begin(b, s.name); err != nil {
		return nil, err
	}
	lastModel := -1
	if doc.UsageMetadata != nil && doc.UsageMetadata.PromptTokenCount != nil {
		err := s.elements("contents", func(i int, raw json.RawMessage) error {
			var c struct {
				Role string `json:"role"`
			}
			if json.Unmarshal(raw, &c) == nil && c.Role == "model" {
				lastModel = i
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	each := geminiContents(b, s.name, "contents")
	return s.records(b, "contents", func(i int, raw json.RawMessage) error {
		if err := each(i, raw); err != nil || i != lastModel {
			return err
		}
		doc.end(b)
		return nil
	})
}

// begin adds what the object gives before its contents: the system
// instruction and the tools; it checks the usage.
func (doc *gmDoc) begin(b *builder, name string) error {
	b.t.Tools = parseTools(doc.Tools)
	if si := bytes.TrimSpace(doc.SystemInstruction); len(si) > 0 && string(si) != "null" {
		var text string
		if si[0] == '"' {
			_ = json.Unmarshal(si, &text)
		} else {
			var c gmContent
			if err := json.Unmarshal(si, &c); err != nil {
				return typeErrAt(name, "systemInstruction", err)
			}
			text = splitParts(c.Parts, &namePairer{}).text
		}
		b.add(Message{Role: RoleSystem, Text: text}, false)
	}
	if _, err := doc.UsageMetadata.output(); err != nil {
		return errAt(name, "usageMetadata", "%w", err)
	}
	return nil
}

// end puts the usage of the response the request produced, when stored
// with it, on the last reply (streamed: the one just read).
func (doc *gmDoc) end(b *builder) {
	if doc.UsageMetadata == nil || doc.UsageMetadata.PromptTokenCount == nil {
		return
	}
	for i := b.count() - 1; i >= b.base; i-- {
		if m := b.msg(i); m.Role == RoleAssistant {
			_ = doc.UsageMetadata.setOn(m) // checked in begin
			if m.Model == "" {
				m.Model = doc.ModelVersion
			}
			return
		}
	}
}

// geminiContents returns the reader of the contents of one document, at
// prefix, in order, into b.
func geminiContents(b *builder, name, prefix string) func(i int, raw json.RawMessage) error {
	var names namePairer
	return func(i int, raw json.RawMessage) error {
		path := fmt.Sprintf("%s[%d]", prefix, i)
		var c gmContent
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want a content object, got %s", jsonl.Kind(raw))
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return typeErrAt(name, path, err)
		}
		ts, err := parseTime(c.Timestamp)
		if err != nil {
			return errAt(name, path, "%q: %v", "timestamp", err)
		}
		g := splitParts(c.Parts, &names)
		for _, k := range g.skipped {
			b.skip(k)
		}
		switch c.Role {
		case "user", "", "function", "tool":
			for _, r := range g.responses {
				r.Timestamp = ts
				b.add(r, false)
			}
			if g.text != "" || g.images > 0 || len(g.responses) == 0 {
				b.add(Message{Role: RoleUser, Text: g.text, Images: g.images, Timestamp: ts}, len(g.responses) == 0)
			}
		case "model":
			m := Message{Role: RoleAssistant, Text: g.text, Images: g.images, ToolCalls: g.calls, Timestamp: ts, Model: c.ModelVersion}
			if err := c.UsageMetadata.setOn(&m); err != nil {
				return errAt(name, path+".usageMetadata", "%w", err)
			}
			b.add(m, false)
		default:
			return errAt(name, path, "unknown role %q; valid: user, model", c.Role)
		}
		return nil
	}
}

type gcMessage struct {
	Type      string            `json:"type"`
	Content   json.RawMessage   `json:"content"`
	Timestamp json.RawMessage   `json:"timestamp"`
	ToolCalls []gcToolCall      `json:"toolCalls"`
	Thoughts  []json.RawMessage `json:"thoughts"`
	Model     string            `json:"model"`
	Tokens    *struct {
		Input    *int `json:"input"`
		Output   int  `json:"output"`
		Cached   int  `json:"cached"`
		Thoughts int  `json:"thoughts"`
	} `json:"tokens"`
}

type gcToolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result json.RawMessage `json:"result"`
}

// geminiCLIRecords returns the reader of the records of one session, in
// order, into b.
func geminiCLIRecords(b *builder, name string) func(i int, raw json.RawMessage) error {
	return func(i int, raw json.RawMessage) error {
		path := fmt.Sprintf("messages[%d]", i)
		var m gcMessage
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want a message object, got %s", jsonl.Kind(raw))
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			return typeErrAt(name, path, err)
		}
		ts, err := parseTime(m.Timestamp)
		if err != nil {
			return errAt(name, path, "%q: %v", "timestamp", err)
		}
		text, images, err := geminiCLIContent(m.Content)
		if err != nil {
			return errAt(name, path, "%v", err)
		}
		switch m.Type {
		case "user":
			b.add(Message{Role: RoleUser, Text: text, Images: images, Timestamp: ts}, true)
		case "gemini":
			// Thoughts are shown to the user, not sent back to the model.
			for range m.Thoughts {
				b.skip("thought")
			}
			msg := Message{Role: RoleAssistant, Text: text, Images: images, Timestamp: ts}
			var results []Message
			for k, c := range m.ToolCalls {
				if c.ID == "" {
					return errAt(name, fmt.Sprintf("%s.toolCalls[%d]", path, k), "\"id\" is required")
				}
				msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: argText(c.Args)})
				var parts []gmPart
				if r := bytes.TrimSpace(c.Result); len(r) > 0 && r[0] == '[' {
					if err := json.Unmarshal(r, &parts); err != nil {
						return typeErrAt(name, fmt.Sprintf("%s.toolCalls[%d].result", path, k), err)
					}
				}
				for _, p := range parts {
					if p.FunctionResponse == nil {
						continue
					}
					id := p.FunctionResponse.ID
					if id == "" {
						id = c.ID
					}
					results = append(results, Message{Role: RoleTool, Name: c.Name, ToolCallID: id,
						Text: responseText(p.FunctionResponse.Response), Timestamp: ts})
				}
			}
			if m.Tokens != nil && m.Tokens.Input != nil {
				if err := nonNegative(count{"tokens.input", *m.Tokens.Input}, count{"tokens.output", m.Tokens.Output},
					count{"tokens.cached", m.Tokens.Cached}, count{"tokens.thoughts", m.Tokens.Thoughts}); err != nil {
					return errAt(name, path, "%w", err)
				}
				out, err := geminiOutput(m.Tokens.Output, m.Tokens.Thoughts, "tokens.output", "tokens.thoughts")
				if err != nil {
					return errAt(name, path, "%w", err)
				}
				msg.setSplitUsage(*m.Tokens.Input, m.Tokens.Cached, out)
			}
			msg.Model = m.Model
			b.add(msg, false)
			for _, r := range results {
				b.add(r, false)
			}
		case "":
			return errAt(name, path, "missing \"type\"; valid: user, gemini, info, error, warning")
		default:
			b.skip(m.Type)
		}
		return nil
	}
}

// geminiCLIContent reads a record's content: a string, or parts.
func geminiCLIContent(raw json.RawMessage) (string, int, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0, nil
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, 0, err
	case '[':
		var parts []gmPart
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", 0, fmt.Errorf("\"content\" must be a string or an array of parts")
		}
		g := splitParts(parts, &namePairer{})
		return g.text, g.images, nil
	}
	return "", 0, fmt.Errorf("\"content\" must be a string or an array of parts, got %s", jsonl.Kind(raw))
}

func dot(path string) string {
	if path == "" {
		return ""
	}
	return "."
}

var (
	geminiFormat = format{name: FormatGemini, doc: geminiDoc, document: one(readGemini), stream: geminiStream,
		keys: []string{"contents"}, itemKeys: []string{"parts"}, exts: []string{".json"},
		about: about{"Gemini API", "JSON (contents, a request body)", nil}}
	geminiCLIFormat = format{name: FormatGeminiCLI, doc: geminiCLIDoc, document: readGeminiCLI, stream: geminiCLIStream,
		line: geminiJSONLLine, lines: readGeminiJSONL, linesWhen: geminiJSONLLine, layout: geminiCLILayout,
		keys: []string{"messages", "sessionId"}, exts: []string{".json", ".jsonl"},
		about: about{"Gemini CLI", "JSON session (before 0.39) or JSON Lines (0.39 and later)", []string{"~/.gemini/tmp"}}}

	// readGeminiCLI reads a Gemini CLI session: user and gemini records
	// are messages; each tool call's result, stored inside the call,
	// becomes a tool message right after the reply that made the call.
	// geminiCLIStream reads it one record at a time.
	readGeminiCLI, geminiCLIStream = messagesDoc(FormatGeminiCLI, geminiCLIRecords)
)

// geminiDoc: an array of contents (with "parts"), or a request with
// "contents".
func geminiDoc(p *docProbe) bool {
	if p.array {
		return p.has("parts") && !archiveDoc(p)
	}
	return p.has("contents") && !archiveDoc(p)
}

// geminiCLILayout: …/tmp/<project hash>/chats/session-….json or .jsonl.
func geminiCLILayout(parts []string) bool {
	b, n := base(parts)
	return n >= 4 && parts[n-4] == "tmp" && parts[n-2] == "chats" && strings.HasPrefix(b, "session-") &&
		(strings.HasSuffix(b, ".json") || strings.HasSuffix(b, ".jsonl"))
}

// geminiCLIDoc: a session object with "messages" and a "sessionId", or
// whose first message has a "type" and no "role".
func geminiCLIDoc(p *docProbe) bool {
	return !p.array && p.has("messages") && !archiveDoc(p) && !geminiDoc(p) &&
		(p.has("sessionId") || p.first["type"] != nil && p.first["role"] == nil)
}
