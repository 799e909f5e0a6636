// Package provider writes a window as the request body a provider is
// sent: OpenAI Chat Completions messages ([OpenAIRequestFor]) or an
// Anthropic Messages request ([AnthropicRequestFor]). It is the wire
// format of a call, apart from how a window is chosen: a harness that
// keeps its context with [window.Conversation] sends what these return.
package provider

import (
	"bytes"
	"encoding/json"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// OpenAIRequest is an OpenAI Chat Completions request body's messages.
type OpenAIRequest struct {
	Messages []OpenAIMessage `json:"messages"`
}

// OpenAIMessage is one Chat Completions message.
type OpenAIMessage struct {
	Role string `json:"role"`
	// Content is the text; null for an assistant message that only calls
	// tools.
	Content    *string          `json:"content"`
	Name       string           `json:"name,omitempty"`
	ToolCalls  []OpenAIToolCall `json:"tool_calls,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
}

// OpenAIToolCall is one entry of an assistant message's tool_calls.
type OpenAIToolCall struct {
	ID       string         `json:"id"`
	Type     string         `json:"type"`
	Function OpenAIFunction `json:"function"`
}

// OpenAIFunction names the function called and its arguments (JSON
// text, as the model wrote it).
type OpenAIFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// OpenAIRequestFor writes r as Chat Completions messages: the system part
// (system messages and the rolling summary) as one system message first,
// then each message; an assistant message's tool calls as tool_calls
// (content null when it has no text), a tool result as a "tool" message
// answering its call. The records of one response (a streamed Claude
// Code reply, one per content block, sharing [transcript.Message.Call])
// are one assistant message, and an assistant message after one with
// tool calls joins it, so that each "tool" message follows the assistant
// message holding its call, as the API requires. Images are not
// reproduced (a transcript keeps only their number), nor is thinking
// (providers drop earlier turns' thinking).
func OpenAIRequestFor(r window.Rendered) OpenAIRequest {
	out := OpenAIRequest{Messages: []OpenAIMessage{}}
	if r.System != "" {
		out.Messages = append(out.Messages, OpenAIMessage{Role: "system", Content: ptr(r.System)})
	}
	lastCall := ""
	for _, m := range r.Messages {
		if n := len(out.Messages); n > 0 && m.Role == transcript.RoleAssistant && m.ToolCallID == "" &&
			out.Messages[n-1].Role == string(transcript.RoleAssistant) &&
			((m.Call != "" && m.Call == lastCall) || len(out.Messages[n-1].ToolCalls) > 0) {
			joinAssistant(&out.Messages[n-1], &m)
			lastCall = m.Call
			continue
		}
		lastCall = m.Call
		om := OpenAIMessage{Role: string(m.Role), Content: ptr(m.Text)}
		switch {
		case m.ToolCallID != "" || m.Role == transcript.RoleTool:
			om.Role, om.ToolCallID = "tool", m.ToolCallID
		case m.Role == transcript.RoleAssistant:
			for _, tc := range m.ToolCalls {
				om.ToolCalls = append(om.ToolCalls, OpenAIToolCall{ID: tc.ID, Type: "function",
					Function: OpenAIFunction{Name: tc.Name, Arguments: tc.Arguments}})
			}
			if len(m.ToolCalls) > 0 && m.Text == "" {
				om.Content = nil
			}
			om.Name = m.Name
		case m.Role == transcript.RoleUser:
			om.Name = m.Name
		}
		out.Messages = append(out.Messages, om)
	}
	return out
}

// joinAssistant adds m's text and tool calls to the assistant message om.
func joinAssistant(om *OpenAIMessage, m *transcript.Message) {
	if m.Text != "" {
		if om.Content == nil || *om.Content == "" {
			om.Content = ptr(m.Text)
		} else {
			om.Content = ptr(*om.Content + "\n" + m.Text)
		}
	}
	for _, tc := range m.ToolCalls {
		om.ToolCalls = append(om.ToolCalls, OpenAIToolCall{ID: tc.ID, Type: "function",
			Function: OpenAIFunction{Name: tc.Name, Arguments: tc.Arguments}})
	}
	if len(om.ToolCalls) > 0 && (om.Content == nil || *om.Content == "") {
		om.Content = nil
	}
}

func ptr(s string) *string { return &s }

// AnthropicRequest is an Anthropic Messages request body's system and
// messages.
type AnthropicRequest struct {
	System   string             `json:"system,omitempty"`
	Messages []AnthropicMessage `json:"messages"`
}

// AnthropicMessage is one Messages API message: a role and its content
// blocks.
type AnthropicMessage struct {
	Role    string           `json:"role"`
	Content []AnthropicBlock `json:"content"`
}

// AnthropicBlock is a content block: text, tool_use or tool_result.
type AnthropicBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`
	// ID, Name and Input are a tool_use block's.
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// ToolUseID and Content are a tool_result block's.
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
}

// AnthropicRequestFor writes r as a Messages request: the system part
// (system messages and the rolling summary) as system, then the
// messages, consecutive messages of one role joined into one (so tool
// results follow their call in one user message, as the API wants): an
// assistant message's text and tool_use blocks, a tool result as a
// tool_result block, other text as a text block. A system message after
// the first prompt becomes a user text block (the API has no system role
// in messages). Empty texts give no block, and a message left with no
// block is not sent (the API refuses empty text). Tool arguments that are
// not a JSON object (the API wants one) go in as {"arguments": TEXT}; no
// arguments as {}. Images and thinking are not reproduced, as in
// [OpenAIRequestFor].
func AnthropicRequestFor(r window.Rendered) AnthropicRequest {
	out := AnthropicRequest{System: r.System, Messages: []AnthropicMessage{}}
	for _, m := range r.Messages {
		role := transcript.RoleUser
		var blocks []AnthropicBlock
		switch {
		case m.ToolCallID != "" || m.Role == transcript.RoleTool:
			blocks = append(blocks, AnthropicBlock{Type: "tool_result", ToolUseID: m.ToolCallID, Content: m.Text})
		case m.Role == transcript.RoleAssistant:
			role = transcript.RoleAssistant
			if m.Text != "" {
				blocks = append(blocks, AnthropicBlock{Type: "text", Text: m.Text})
			}
			for _, tc := range m.ToolCalls {
				blocks = append(blocks, AnthropicBlock{Type: "tool_use", ID: tc.ID, Name: tc.Name, Input: toolInput(tc.Arguments)})
			}
		default:
			if m.Text != "" {
				blocks = append(blocks, AnthropicBlock{Type: "text", Text: m.Text})
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out.Messages); n > 0 && out.Messages[n-1].Role == string(role) {
			out.Messages[n-1].Content = append(out.Messages[n-1].Content, blocks...)
			continue
		}
		out.Messages = append(out.Messages, AnthropicMessage{Role: string(role), Content: blocks})
	}
	return out
}

// toolInput is a tool_use block's input for arguments: the JSON object
// compacted, {} for none, else {"arguments": TEXT}.
func toolInput(args string) json.RawMessage {
	trimmed := bytes.TrimSpace([]byte(args))
	if len(trimmed) == 0 {
		return json.RawMessage("{}")
	}
	if trimmed[0] == '{' && json.Valid(trimmed) {
		var b bytes.Buffer
		if json.Compact(&b, trimmed) == nil {
			return b.Bytes()
		}
	}
	b, _ := json.Marshal(map[string]string{"arguments": args})
	return b
}
