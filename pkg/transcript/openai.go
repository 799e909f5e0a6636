package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// OpenAI Chat Completions: a request body or an array of messages, or a
// message a line (fine-tuning files). The message shape is shared by
// SWE-agent trajectories (see sweagent.go); the reading of documents and
// lines is shared with Anthropic's (see messages.go).

type oaMessage struct {
	Role         string          `json:"role"`
	Content      json.RawMessage `json:"content"`
	Name         string          `json:"name"`
	ToolCalls    []oaCall        `json:"tool_calls"`
	ToolCallID   string          `json:"tool_call_id"`
	FunctionCall *oaFunction     `json:"function_call"`
	Refusal      *string         `json:"refusal"`
	Usage        *oaUsage        `json:"usage"`
	Model        string          `json:"model"`
	Timestamp    json.RawMessage `json:"timestamp"`
}

type oaCall struct {
	ID       string     `json:"id"`
	Type     string     `json:"type"`
	Function oaFunction `json:"function"`
}

type oaFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type oaUsage struct {
	PromptTokens        *int `json:"prompt_tokens"`
	CompletionTokens    int  `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

// parts splits an OpenAI prompt total (cached tokens included) into
// uncached input and cache read; OpenAI charges nothing to write.
func openAIParts(prompt, cached, output int) *Usage {
	cached = min(max(cached, 0), prompt)
	return &Usage{Input: prompt - cached, CacheRead: cached, Output: max(output, 0)}
}

type oaPart struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Refusal string `json:"refusal"`
}

const openAIRoles = "system, developer, user, assistant, tool, function"

// openAIReader adds OpenAI chat messages to a transcript.
type openAIReader struct {
	b     *builder
	names namePairer
}

// add reads one message; where names it in errors.
func newOpenAIReader(b *builder) messageAdder { return &openAIReader{b: b} }

func (o *openAIReader) add(raw json.RawMessage, where func(format string, args ...any) error, typeErr func(error) error) error {
	var m oaMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return typeErr(err)
	}
	ts, err := parseTime(m.Timestamp)
	if err != nil {
		return where("%q: %v", "timestamp", err)
	}
	msg := Message{Name: m.Name, Timestamp: ts}
	text, images, skipped, err := openAIContent(m.Content)
	if err != nil {
		return where("%v", err)
	}
	for _, k := range skipped {
		o.b.skip(k)
	}
	msg.Text, msg.Images = text, images
	if msg.Text == "" && m.Refusal != nil {
		msg.Text = *m.Refusal
	}
	opens := false
	switch m.Role {
	case "system", "developer":
		msg.Role = RoleSystem
	case "user":
		msg.Role = RoleUser
		opens = true
	case "assistant":
		msg.Role = RoleAssistant
		for i, c := range m.ToolCalls {
			if c.ID == "" {
				return where("tool_calls[%d]: \"id\" is required", i)
			}
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: c.ID, Name: c.Function.Name, Arguments: argText(c.Function.Arguments)})
		}
		if f := m.FunctionCall; f != nil {
			msg.ToolCalls = append(msg.ToolCalls, ToolCall{ID: o.names.call(f.Name), Name: f.Name, Arguments: argText(f.Arguments)})
		}
		if m.Usage != nil && m.Usage.PromptTokens != nil {
			if *m.Usage.PromptTokens < 0 {
				return where("\"usage.prompt_tokens\" must be a whole number ≥ 0, got %d", *m.Usage.PromptTokens)
			}
			cached := 0
			if d := m.Usage.PromptTokensDetails; d != nil {
				cached = d.CachedTokens
			}
			if err := nonNegative(count{"completion_tokens", m.Usage.CompletionTokens}, count{"prompt_tokens_details.cached_tokens", cached}); err != nil {
				return where("usage: %w", err)
			}
			msg.setSplitUsage(*m.Usage.PromptTokens, cached, m.Usage.CompletionTokens)
		}
		msg.Model = m.Model
	case "tool":
		if m.ToolCallID == "" {
			return where("a tool message needs \"tool_call_id\"")
		}
		msg.Role = RoleTool
		msg.ToolCallID = m.ToolCallID
	case "function":
		msg.Role = RoleTool
		msg.ToolCallID = o.names.result(m.Name)
	case "":
		return where("missing \"role\"; valid: %s", openAIRoles)
	default:
		return where("unknown role %q; valid: %s", m.Role, openAIRoles)
	}
	o.b.add(msg, opens)
	return nil
}

// openAIContent reads a content value: null, a string, or an array of
// parts. Text parts are joined with "\n"; image parts are counted; other
// parts (audio, files) are counted as skipped by kind.
func openAIContent(raw json.RawMessage) (text string, images int, skipped []string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", 0, nil, nil
	}
	switch raw[0] {
	case '"':
		err = json.Unmarshal(raw, &text)
		return text, 0, nil, err
	case '[':
		var parts []oaPart
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", 0, nil, fmt.Errorf("\"content\" must be a string or an array of parts")
		}
		var texts []string
		for _, p := range parts {
			switch p.Type {
			case "text", "input_text", "output_text":
				texts = append(texts, p.Text)
			case "refusal":
				texts = append(texts, p.Refusal)
			case "image_url", "input_image", "image":
				images++
			default:
				skipped = append(skipped, "part:"+p.Type)
			}
		}
		return strings.Join(texts, "\n"), images, skipped, nil
	}
	return "", 0, nil, fmt.Errorf("\"content\" must be a string, null or an array of parts, got %s", jsonl.Kind(raw))
}

var openAIFormat = format{name: FormatOpenAI, line: openAILine, doc: openAIDoc,
	lines: messageLines(newOpenAIReader), linesWhen: hasRole, stream: messagesStream(FormatOpenAI, newOpenAIReader),
	keys: []string{"messages", "role"}, itemKeys: []string{"role"}, exts: []string{".json", ".jsonl", ".ndjson"},
	about: about{"OpenAI Chat Completions", "JSON (messages, a request body, several documents) or a message a line", nil}}

func openAILine(obj map[string]json.RawMessage) bool {
	return chatLine(obj) && !looksAnthropic([]json.RawMessage{mustRaw(obj)})
}

func openAIDoc(p *docProbe) bool { return chatDoc(p) && !anthropicDoc(p) }
