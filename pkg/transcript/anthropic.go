package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/jsonl"
)

// Anthropic Messages: a request body or an array of messages, or a
// message a line. Its content blocks and usage are read by Claude Code's
// reader too (see claudecode.go); the reading of documents and lines is
// shared with OpenAI's (see messages.go).

type anMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
	Usage   *anUsage        `json:"usage"`
	Model   string          `json:"model"`
}

type anUsage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	// Speed is "fast" on a response served in Anthropic's fast mode
	// (billed at its own, higher prices); "" or "standard" otherwise.
	Speed         string `json:"speed"`
	CacheCreation *struct {
		Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

var (
	anUsageFields         = []string{"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens", "output_tokens", "cache_creation", "speed"}
	anCacheCreationFields = []string{"ephemeral_5m_input_tokens", "ephemeral_1h_input_tokens"}
)

// parse decodes a usage object from p as json.Unmarshal does (see
// [ccRecord.parse]).
func (u *anUsage) parse(p *jsonl.Parser) {
	var seen fieldSet
	p.Object(func(key []byte) {
		switch string(key) {
		case "input_tokens":
			seen.once(p, 0)
			u.InputTokens = p.Int()
		case "cache_creation_input_tokens":
			seen.once(p, 1)
			u.CacheCreationInputTokens = p.Int()
		case "cache_read_input_tokens":
			seen.once(p, 2)
			u.CacheReadInputTokens = p.Int()
		case "output_tokens":
			seen.once(p, 3)
			u.OutputTokens = p.Int()
		case "cache_creation":
			seen.once(p, 4)
			if p.Null() {
				return
			}
			u.CacheCreation = &struct {
				Ephemeral5m int `json:"ephemeral_5m_input_tokens"`
				Ephemeral1h int `json:"ephemeral_1h_input_tokens"`
			}{}
			var seen2 fieldSet
			p.Object(func(key []byte) {
				switch string(key) {
				case "ephemeral_5m_input_tokens":
					seen2.once(p, 0)
					u.CacheCreation.Ephemeral5m = p.Int()
				case "ephemeral_1h_input_tokens":
					seen2.once(p, 1)
					u.CacheCreation.Ephemeral1h = p.Int()
				default:
					otherField(p, key, anCacheCreationFields)
				}
			})
		case "speed":
			seen.once(p, 5)
			if p.Null() {
				return
			}
			u.Speed = p.String()
		default:
			otherField(p, key, anUsageFields)
		}
	})
}

// parts is the usage in its parts; nil when unknown or when the prompt
// size is 0 (no usage recorded).
func (u *anUsage) parts() (*Usage, error) {
	if n, err := u.total(); n <= 0 || err != nil {
		return nil, err
	}
	p := &Usage{Input: u.InputTokens, CacheRead: u.CacheReadInputTokens, CacheWrite: u.CacheCreationInputTokens, Output: u.OutputTokens}
	if c := u.CacheCreation; c != nil {
		p.CacheWrite1h = min(max(c.Ephemeral1h, 0), p.CacheWrite)
	}
	return p, nil
}

// total is the prompt size: input plus both cache parts; 0 when unknown,
// an [*engine.TokenOverflowError] when the parts do not fit an int, an error when a
// count is negative.
func (u *anUsage) total() (int, error) {
	if u == nil {
		return 0, nil
	}
	if err := u.check(); err != nil {
		return 0, err
	}
	n, ok := checked.Sum(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens)
	if !ok {
		return 0, &checked.OverflowError{What: fmt.Sprintf("input_tokens (%d), cache_creation_input_tokens (%d) and cache_read_input_tokens (%d)", u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens)}
	}
	return n, nil
}

type anBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	Source    json.RawMessage `json:"source"`
	Thinking  string          `json:"thinking"`

	// Set by the hand decoder only (encoding/json leaves them zero): Input
	// needs no json.Compact; Content is the string contentText.
	inputCompact  bool
	contentIsText bool
	contentText   string
}

var anBlockFields = []string{"type", "text", "id", "name", "input", "tool_use_id", "content", "source", "thinking"}

// parse decodes a content block from p as json.Unmarshal does (see
// [ccRecord.parse]); a string content is decoded on the way.
func (bl *anBlock) parse(p *jsonl.Parser) {
	var seen fieldSet
	p.Object(func(key []byte) {
		switch string(key) {
		case "type":
			seen.once(p, 0)
			bl.Type = p.StringIn(anBlockTypes)
		case "text":
			seen.once(p, 1)
			bl.Text = p.String()
		case "id":
			seen.once(p, 2)
			bl.ID = p.String()
		case "name":
			seen.once(p, 3)
			bl.Name = p.String()
		case "input":
			seen.once(p, 4)
			bl.Input, bl.inputCompact = p.SkipCompact()
		case "tool_use_id":
			seen.once(p, 5)
			bl.ToolUseID = p.String()
		case "content":
			seen.once(p, 6)
			if p.Peek() == '"' {
				bl.contentText, bl.Content = p.StringBytes()
				bl.contentIsText = true
			} else {
				bl.Content = p.Skip()
			}
		case "source":
			seen.once(p, 7)
			bl.Source = p.Skip()
		case "thinking":
			seen.once(p, 8)
			bl.Thinking = p.String()
		default:
			otherField(p, key, anBlockFields)
		}
	})
}

// argTextOf is [argText] of a value the hand decoder read: compact tells
// that json.Compact would leave it as it is.
func argTextOf(raw []byte, compact bool) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] != '"' && compact {
		return string(raw)
	}
	return argText(raw)
}

// anContent is one Anthropic message's content split into the messages
// harpe keeps.
type anContent struct {
	isString  bool
	text      string // joined text blocks (or the string content)
	images    int
	calls     []ToolCall
	results   []Message // tool results, in order (user: tool_result; assistant: server tool results)
	hasResult bool      // a tool_result block is present
	skipped   []string
	thinking  string // joined thinking blocks
}

// parseAnthropic splits content (a string or blocks) of a message. It
// reads the content with the hand decoder when it can, with encoding/json
// when not (and for the error).
func parseAnthropic(raw json.RawMessage) (anContent, error) {
	raw = bytes.TrimSpace(raw)
	if handDecode && len(raw) > 0 && (raw[0] == '[' || raw[0] == '"') {
		p := jsonl.NewParser(raw)
		var r anRead
		r.parse(&p)
		if p.End() {
			return r.split()
		}
	}
	return parseAnthropicJSON(raw)
}

// anRead is a message's content as the hand decoder reads it: a string or
// blocks.
type anRead struct {
	isString bool
	text     string
	blocks   []anBlock
}

// parse reads a string or an array of blocks from p and returns the
// value's bytes; anything else fails p.
func (r *anRead) parse(p *jsonl.Parser) []byte {
	start := p.Mark()
	switch p.Peek() {
	case '"':
		r.isString = true
		r.text = p.String()
	case '[':
		p.Array(func() {
			r.blocks = append(r.blocks, anBlock{})
			if !p.Null() {
				r.blocks[len(r.blocks)-1].parse(p)
			}
		})
	default:
		p.Fail()
	}
	return p.Since(start)
}

func (r *anRead) split() (anContent, error) {
	if r.isString {
		return anContent{isString: true, text: r.text}, nil
	}
	return splitBlocks(r.blocks)
}

// parseAnthropicJSON is parseAnthropic through encoding/json.
func parseAnthropicJSON(raw json.RawMessage) (anContent, error) {
	var c anContent
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return c, nil
	}
	if raw[0] == '"' {
		c.isString = true
		err := json.Unmarshal(raw, &c.text)
		return c, err
	}
	if raw[0] != '[' {
		return c, fmt.Errorf("\"content\" must be a string or an array of blocks, got %s", jsonl.Kind(raw))
	}
	var blocks []anBlock
	if err := json.Unmarshal(raw, &blocks); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return c, fmt.Errorf("content block: %q must be %s, got %s", te.Field, typeName(te.Type.String()), te.Value)
		}
		return c, fmt.Errorf("\"content\" must be an array of blocks")
	}
	return splitBlocks(blocks)
}

// splitBlocks sorts decoded content blocks into an anContent.
func splitBlocks(blocks []anBlock) (anContent, error) {
	var c anContent
	var texts []string
	for i := range blocks {
		bl := &blocks[i]
		switch bl.Type {
		case "text":
			texts = append(texts, bl.Text)
		case "image", "document":
			c.images++
		case "tool_use", "server_tool_use", "mcp_tool_use":
			if bl.ID == "" {
				return c, fmt.Errorf("content[%d]: a %s block needs \"id\"", i, bl.Type)
			}
			c.calls = append(c.calls, ToolCall{ID: bl.ID, Name: bl.Name, Arguments: argTextOf(bl.Input, bl.inputCompact)})
		case "tool_result":
			if bl.ToolUseID == "" {
				return c, fmt.Errorf("content[%d]: a tool_result block needs \"tool_use_id\"", i)
			}
			text, images := bl.contentText, 0
			if !bl.contentIsText {
				text, images = resultContent(bl.Content)
			}
			c.results = append(c.results, Message{Role: RoleTool, ToolCallID: bl.ToolUseID, Text: text, Images: images})
			c.hasResult = true
		case "thinking", "redacted_thinking":
			c.skipped = append(c.skipped, bl.Type)
			if bl.Thinking != "" {
				if c.thinking != "" {
					c.thinking += "\n"
				}
				c.thinking += bl.Thinking
			}
		default:
			if strings.HasSuffix(bl.Type, "_tool_result") && bl.ToolUseID != "" {
				// A server tool's result, written into the assistant turn.
				text := bl.contentText
				if !bl.contentIsText {
					text = argText(bl.Content)
				}
				c.results = append(c.results, Message{Role: RoleTool, ToolCallID: bl.ToolUseID, Text: text})
				continue
			}
			c.skipped = append(c.skipped, "block:"+bl.Type)
		}
	}
	c.text = strings.Join(texts, "\n")
	return c, nil
}

// resultContent reads a tool result's content: a string, or blocks whose
// text is joined and whose images are counted; other blocks are kept as
// their JSON. It reads with the hand decoder when it can.
func resultContent(raw json.RawMessage) (string, int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !handDecode {
		return resultContentJSON(raw)
	}
	p := jsonl.NewParser(raw)
	switch raw[0] {
	case '"', 'n':
		if s := p.String(); p.End() {
			return s, 0
		}
	case '[':
		var texts []string
		images := 0
		p.Array(func() {
			if p.Peek() != '{' {
				// What json.Unmarshal cannot put in a block is kept as
				// its JSON (a null as "").
				texts = append(texts, argTextOf(p.SkipCompact()))
				return
			}
			var bl anBlock
			start := p.Mark()
			bl.parse(&p)
			switch bl.Type {
			case "text":
				texts = append(texts, bl.Text)
			case "image", "document":
				images++
			default:
				texts = append(texts, argText(p.Since(start)))
			}
		})
		if p.End() {
			return strings.Join(texts, "\n"), images
		}
	}
	return resultContentJSON(raw)
}

// resultContentJSON is resultContent through encoding/json.
func resultContentJSON(raw json.RawMessage) (string, int) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0
	}
	if raw[0] == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return s, 0
	}
	var blocks []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &blocks) != nil {
		return argText(raw), 0
	}
	var texts []string
	images := 0
	for _, r := range blocks {
		var bl anBlock
		if json.Unmarshal(r, &bl) != nil {
			texts = append(texts, argText(r))
			continue
		}
		switch bl.Type {
		case "text":
			texts = append(texts, bl.Text)
		case "image", "document":
			images++
		default:
			texts = append(texts, argText(r))
		}
	}
	return strings.Join(texts, "\n"), images
}

// anthropicReader adds Anthropic messages to a transcript.
type anthropicReader struct{ b *builder }

func newAnthropicReader(b *builder) messageAdder { return &anthropicReader{b: b} }

func (a *anthropicReader) add(raw json.RawMessage, where func(format string, args ...any) error, typeErr func(error) error) error {
	var m anMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return typeErr(err)
	}
	c, err := parseAnthropic(m.Content)
	if err != nil {
		return where("%v", err)
	}
	for _, k := range c.skipped {
		a.b.skip(k)
	}
	switch m.Role {
	case "user":
		for _, r := range c.results {
			a.b.add(r, false)
		}
		if c.isString || c.text != "" || c.images > 0 || !c.hasResult {
			a.b.add(Message{Role: RoleUser, Text: c.text, Images: c.images}, !c.hasResult)
		}
	case "assistant":
		msg := Message{Role: RoleAssistant, Text: c.text, Images: c.images, ToolCalls: c.calls, Model: m.Model, Thinking: c.thinking}
		u, err := m.Usage.parts()
		if err == nil {
			err = msg.setUsage(u)
		}
		if err != nil {
			return where("usage: %w", err)
		}
		a.b.add(msg, false)
		for _, r := range c.results {
			a.b.add(r, false)
		}
	case "system":
		// Not an API role, but some logs put the system prompt first.
		a.b.add(Message{Role: RoleSystem, Text: c.text}, false)
	case "":
		return where("missing \"role\"; valid: user, assistant")
	default:
		return where("unknown role %q; valid: user, assistant", m.Role)
	}
	return nil
}

var anthropicFormat = format{name: FormatAnthropic, line: anthropicLine, doc: anthropicDoc,
	lines: messageLines(newAnthropicReader), linesWhen: hasRole, stream: messagesStream(FormatAnthropic, newAnthropicReader),
	keys: []string{"messages", "role"}, itemKeys: []string{"role"}, exts: []string{".json", ".jsonl"},
	about: about{"Anthropic Messages API", "JSON (a request body, messages) or a message a line", nil}}

func anthropicLine(obj map[string]json.RawMessage) bool {
	return chatLine(obj) && looksAnthropic([]json.RawMessage{mustRaw(obj)})
}

func anthropicDoc(p *docProbe) bool {
	return chatDoc(p) && (p.anthropic || !p.array && p.has("system"))
}

// looksAnthropic tells Anthropic messages from OpenAI ones by what only
// one of them has: Anthropic content block types, or OpenAI roles, tool
// calls and part types. Plain text messages read the same either way.
func looksAnthropic(msgs []json.RawMessage) bool {
	for _, m := range msgs {
		if a, ok := anthropicHint(m); ok {
			return a
		}
	}
	return false
}

// anthropicHint is what one message tells of [looksAnthropic]: ok when it
// tells, and then whether it is Anthropic's.
func anthropicHint(m []byte) (anthropic, ok bool) {
	var probe struct {
		Role      string          `json:"role"`
		ToolCalls json.RawMessage `json:"tool_calls"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(m, &probe) != nil {
		return false, false
	}
	switch probe.Role {
	case "system", "developer", "tool", "function":
		return false, true
	}
	if probe.ToolCalls != nil {
		return false, true
	}
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(probe.Content, &blocks) != nil {
		return false, false
	}
	for _, b := range blocks {
		switch b.Type {
		case "image_url", "input_audio", "refusal", "file":
			return false, true
		case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document",
			"server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
			"code_execution_tool_result", "mcp_tool_use", "mcp_tool_result":
			return true, true
		}
	}
	return false, false
}
