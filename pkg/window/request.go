package window

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// CallView is one model call's window message by message, in the order the
// parts are sent (system part, rolling summary, conversation), as
// [ShowCall] returns it: what a person reads to see what the model got.
type CallView struct {
	// Strategy is the strategy's name as written.
	Strategy string `json:"strategy"`
	// Call is the call's report, parts included.
	Call Call `json:"call"`
	// Messages are the messages sent with how each was sent.
	Messages []SentMessage `json:"messages"`
	// Rendered is the window as the provider is sent it (see
	// [OpenAIRequestFor] and [AnthropicRequestFor]).
	Rendered Rendered `json:"-"`
}

// SentMessage is one message of a [CallView].
type SentMessage struct {
	// Index is the message's transcript index; -1 for the rolling
	// summary.
	Index int `json:"index"`
	// Role is the message's role ("system" for the summary).
	Role string `json:"role"`
	// Sent says how it was sent (whole, truncated, cleared, masked,
	// summary).
	Sent Sent `json:"sent"`
	// InSystem is set for the text that goes into the request's system
	// part (system messages before the first prompt, and the summary).
	InSystem bool `json:"in_system"`
	// Chars and Tokens are the size sent, as the replay measures it.
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
	// Message is the message as sent: a placeholder, a cut text or
	// cleared arguments in place.
	Message transcript.Message `json:"-"`
}

// ShowCall replays t through s up to call n (1-based) and returns what
// that call sent, message by message (see [RenderCall]). It is an error
// when t has fewer calls.
func ShowCall(ctx context.Context, t *transcript.Transcript, s Strategy, opts ReplayOptions, n int) (*CallView, error) {
	rs, err := resolve(s, opts.Options)
	if err != nil {
		return nil, err
	}
	r, c, err := RenderCall(ctx, t, rs, opts, n)
	if err != nil {
		return nil, err
	}
	sent := make(map[int]transcript.Message, len(r.Messages))
	for _, m := range r.Messages {
		sent[m.Index] = m
	}
	v := &CallView{Strategy: rs.Name(), Call: c, Rendered: r, Messages: []SentMessage{}}
	for _, p := range c.Parts {
		if p.Sent == SentSummary {
			v.Messages = append(v.Messages, SentMessage{Index: -1, Role: string(transcript.RoleSystem), Sent: SentSummary,
				InSystem: true, Chars: p.Chars, Tokens: p.Tokens,
				Message: transcript.Message{Index: -1, Role: transcript.RoleSystem, Text: r.Summary}})
			continue
		}
		for i := p.From; i <= p.To; i++ {
			m, ok := sent[i]
			if !ok {
				// A system message of the system part: sent in System,
				// always whole.
				m = t.Messages[i]
			}
			e := measureEntry(&m, 0, opts.Counter)
			v.Messages = append(v.Messages, SentMessage{Index: i, Role: string(m.Role), Sent: p.Sent, InSystem: !ok,
				Chars: e.Chars, Tokens: e.Tokens, Message: m})
		}
	}
	return v, nil
}

// CallRangeError is a call number the transcript does not reach, as
// [RenderCall] and [ShowCall] return it.
type CallRangeError struct {
	Call  int // the call asked for
	Calls int // the calls the transcript has
}

func (e *CallRangeError) Error() string {
	return fmt.Sprintf("call %d out of range: the transcript has %d calls", e.Call, e.Calls)
}

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
func OpenAIRequestFor(r Rendered) OpenAIRequest {
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
func AnthropicRequestFor(r Rendered) AnthropicRequest {
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
