package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

type cxLine struct {
	Timestamp json.RawMessage `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type cxItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Action    json.RawMessage `json:"action"`
	Tools     json.RawMessage `json:"tools"`   // a tool_search_output's
	Summary   json.RawMessage `json:"summary"` // a reasoning item's
}

type cxEvent struct {
	Type    string  `json:"type"`
	Message string  `json:"message"`
	Info    *cxInfo `json:"info"`
}

type cxInfo struct {
	Total json.RawMessage `json:"total_token_usage"`
	Last  *struct {
		InputTokens  *int `json:"input_tokens"`
		CachedInput  int  `json:"cached_input_tokens"`
		OutputTokens int  `json:"output_tokens"`
	} `json:"last_token_usage"`
}

type cxTurnContext struct {
	Model string `json:"model"`
}

type cxMeta struct {
	Instructions     *string `json:"instructions"`
	BaseInstructions *struct {
		Text string `json:"text"`
	} `json:"base_instructions"`
}

type cxCompacted struct {
	Message            string            `json:"message"`
	ReplacementHistory []json.RawMessage `json:"replacement_history"`
}

// codexReader holds the state of one rollout being read.
type codexReader struct {
	b *builder
	d *lineDecoder
	// Calls: assistant-side items between two usage changes are one call.
	callN       int  // number of the current call, from 1
	callOpen    bool // the current call has messages
	callFirst   int  // index of the current call's first message
	awaiting    int  // first message of a closed call still waiting for its usage, or -1
	lastTotal   string
	pending     []string // human prompts seen as events, not yet matched to an item
	candidates  []int    // user items since the last prompt, not yet matched
	sawPrompts  bool
	historyMeta bool      // reading a compaction's replacement history
	document    bool      // reading a Responses document (no prompt events)
	model       string    // from the latest turn_context
	unplaced    *lineNote // usage records with no reply to sit on, kept in Unsent
	reasoned    bool      // a reasoning item came since the last reply or usage
	reasoning   []string  // the summaries of those reasoning items
}

// readCodex reads a Codex CLI rollout: response_item lines are the
// messages; event_msg lines mirror them and only mark human prompts
// (user_message) and usage (token_count); session_meta gives the system
// prompt; a compacted line replaces the history.
func readCodex(d *lineDecoder, b *builder) error {
	c := &codexReader{b: b, d: d, callN: 1, awaiting: -1}
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var ln cxLine
		if err := d.decode(&ln); err == errLineSkipped {
			continue
		} else if err != nil {
			return err
		}
		ts, err := parseTime(ln.Timestamp)
		if err != nil {
			return d.errorf("%q: %v", "timestamp", err)
		}
		if ln.Payload == nil && responseItemTypes[ln.Type] {
			// A bare OpenAI Responses item, without the rollout wrapper.
			if err := c.item(d.data, ts); err != nil {
				return err
			}
			continue
		}
		if err := c.line(ln, ts); err != nil {
			return err
		}
	}
	c.finishPrompts()
	return nil
}

// finishPrompts adds the prompts seen only as events, and when there were
// no prompt events at all, takes the typed-looking user items as prompts.
func (c *codexReader) finishPrompts() {
	for _, p := range c.pending {
		c.b.add(Message{Role: RoleUser, Text: p}, true)
	}
	c.pending = nil
	if !c.sawPrompts {
		// Rollouts without user_message events: every user item that does
		// not look injected is a prompt.
		for _, i := range c.candidates {
			m := c.b.msg(i)
			if !looksInjected(m.Text) {
				c.b.open(i)
				m.Meta = false
			}
		}
	}
}

// responseItemTypes are the OpenAI Responses item types the Codex reader
// knows; a line or array element of one of these types with no rollout
// wrapper is read as a bare item.
var responseItemTypes = map[string]bool{"message": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "local_shell_call": true,
	"local_shell_call_output": true, "web_search_call": true, "reasoning": true,
	"tool_search_call": true, "tool_search_output": true}

// cxRequest is a Responses request body, its input items aside.
type cxRequest struct {
	Instructions *string         `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Tools        json.RawMessage `json:"tools"`
}

// readResponsesDoc reads OpenAI Responses items as one JSON document: an
// array of items, or a request body {"instructions", "input"} whose input
// is a string or an array of items.
func readResponsesDoc(v json.RawMessage, name string) (*Transcript, error) {
	b := newBuilder(FormatCodex)
	var items []json.RawMessage
	prefix := ""
	if bytes.TrimSpace(v)[0] == '[' {
		if err := json.Unmarshal(v, &items); err != nil {
			return nil, typeErrAt(name, "", err)
		}
	} else {
		var req cxRequest
		if err := json.Unmarshal(v, &req); err != nil {
			return nil, typeErrAt(name, "", err)
		}
		if done, err := req.begin(b, name); done || err != nil {
			return b.finish(), err
		}
		if err := json.Unmarshal(req.Input, &items); err != nil {
			return nil, typeErrAt(name, "input", err)
		}
		prefix = "input"
	}
	if err := eachRecord(items, responsesItems(b, name, prefix)); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// responsesStream is [readResponsesDoc] one item at a time. A request
// whose members it cannot take as they stand is left to
// readResponsesDoc, which says what is wrong.
func responsesStream(s *docStream) ([]*Transcript, error) {
	b := s.builder(FormatCodex)
	key, prefix := "", ""
	if !s.probe.array {
		var req cxRequest
		if json.Unmarshal(mustRaw(s.top()), &req) != nil || !s.plain("input") {
			return nil, errStreamFallback
		}
		if in := bytes.TrimSpace(req.Input); len(in) == 0 || in[0] != '[' {
			return nil, errStreamFallback // a string input is a small request
		}
		if _, err := req.begin(b, s.name); err != nil {
			return nil, err
		}
		key, prefix = "input", "input"
	}
	return s.records(b, key, responsesItems(b, s.name, prefix))
}

// begin adds what a request gives beside its input items: the
// instructions, the tools, and an input given as a string (done: there
// are no items).
func (req *cxRequest) begin(b *builder, name string) (done bool, err error) {
	if req.Instructions != nil && *req.Instructions != "" {
		b.add(Message{Role: RoleSystem, Text: *req.Instructions}, false)
	}
	b.t.Tools = parseTools(req.Tools)
	in := bytes.TrimSpace(req.Input)
	switch {
	case len(in) > 0 && in[0] == '"':
		var text string
		_ = json.Unmarshal(in, &text)
		b.add(Message{Role: RoleUser, Text: text}, true)
		return true, nil
	case len(in) > 0 && in[0] == '[':
		return false, nil
	}
	return true, errAt(name, "input", "want a string or an array of items, got %s", jsonl.Kind(in))
}

// responsesItems returns the reader of the items of one document, at
// prefix, in order, into b. A document has no prompt events: a user item
// that does not look injected opens a turn as it is read (what
// [codexReader.finishPrompts] decides at the end of a rollout without
// them), so that the items before it can be handed on.
func responsesItems(b *builder, name, prefix string) func(i int, raw json.RawMessage) error {
	c := &codexReader{b: b, d: &lineDecoder{name: name}, callN: 1, awaiting: -1, document: true}
	return func(i int, raw json.RawMessage) error {
		err := c.item(raw, time.Time{})
		if err == nil {
			return nil // before errors.As, which would move e to the heap at every item
		}
		var e *Error
		if errors.As(err, &e) {
			e.Path = fmt.Sprintf("%s[%d]", prefix, i)
		}
		return err
	}
}

// looksInjected tells harness-written user items (AGENTS.md, environment
// context, user instructions) from typed prompts.
func looksInjected(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "<") || strings.HasPrefix(s, "# AGENTS.md")
}

func (c *codexReader) payloadErr(err error) error {
	return c.d.errorf("payload: %v", typeErrAt("", "", err).(*Error).Err)
}

func (c *codexReader) line(ln cxLine, ts time.Time) error {
	b := c.b
	switch ln.Type {
	case "session_meta":
		var m cxMeta
		if err := json.Unmarshal(ln.Payload, &m); err != nil {
			return c.payloadErr(err)
		}
		switch {
		case m.BaseInstructions != nil && m.BaseInstructions.Text != "":
			b.add(Message{Role: RoleSystem, Text: m.BaseInstructions.Text, Timestamp: ts}, false)
		case m.Instructions != nil && *m.Instructions != "":
			b.add(Message{Role: RoleSystem, Text: *m.Instructions, Timestamp: ts}, false)
		default:
			b.skip("session_meta")
		}
	case "turn_context":
		var tc cxTurnContext
		if err := json.Unmarshal(ln.Payload, &tc); err != nil {
			return c.payloadErr(err)
		}
		c.model = tc.Model
		b.skip(ln.Type)
	case "response_item":
		return c.item(ln.Payload, ts)
	case "event_msg":
		var ev cxEvent
		if err := json.Unmarshal(ln.Payload, &ev); err != nil {
			return c.payloadErr(err)
		}
		b.skip("event_msg/" + ev.Type)
		switch ev.Type {
		case "user_message":
			c.sawPrompts = true
			c.prompt(ev.Message)
		case "token_count":
			if err := c.usage(ev.Info, ts); err != nil {
				return c.d.errorf("payload.info.last_token_usage: %w", err)
			}
		}
	case "compacted":
		var p cxCompacted
		if err := json.Unmarshal(ln.Payload, &p); err != nil {
			return c.payloadErr(err)
		}
		c.closeCall()
		b.compaction()
		if len(p.ReplacementHistory) == 0 {
			b.add(Message{Role: RoleUser, Text: p.Message, Timestamp: ts, Meta: true}, false)
			return nil
		}
		c.historyMeta = true
		defer func() { c.historyMeta = false }()
		for _, raw := range p.ReplacementHistory {
			if err := c.item(raw, ts); err != nil {
				return err
			}
		}
	case "":
		return c.d.errorf("missing \"type\"; valid: session_meta, turn_context, response_item, event_msg, compacted")
	default:
		b.skip(ln.Type)
	}
	return nil
}

// prompt handles a user_message event: it marks the user item with the
// same text as the turn's opener, now or when the item comes.
func (c *codexReader) prompt(text string) {
	want := strings.TrimSpace(text)
	for k := len(c.candidates) - 1; k >= 0; k-- {
		i := c.candidates[k]
		m := c.b.msg(i)
		if strings.TrimSpace(m.Text) == want {
			c.b.open(i)
			m.Meta = false
			c.candidates = c.candidates[k+1:]
			return
		}
	}
	c.pending = append(c.pending, text)
}

// usage handles a token_count event: a change in the running total closes
// one call, whose first message gets the last call's input tokens.
func (c *codexReader) usage(info *cxInfo, ts time.Time) error {
	if info == nil || info.Last == nil || info.Last.InputTokens == nil {
		return nil
	}
	l := info.Last
	if err := nonNegative(count{"input_tokens", *l.InputTokens}, count{"cached_input_tokens", l.CachedInput}, count{"output_tokens", l.OutputTokens}); err != nil {
		return err
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, info.Total)
	total := buf.String()
	if total == c.lastTotal && total != "" {
		return nil // a repeat of the previous count
	}
	c.lastTotal = total
	at := -1
	if c.callOpen {
		at = c.callFirst
		c.closeCall()
	} else if c.awaiting >= 0 {
		at = c.awaiting
	}
	c.awaiting = -1
	if at < 0 && c.reasoned {
		// A response of reasoning only: it is the reply, with no text.
		c.assistant(Message{Role: RoleAssistant, Thinking: strings.Join(c.reasoning, "\n"), Timestamp: ts})
		at = c.callFirst
		c.closeCall()
		c.awaiting = -1
	}
	c.reasoned, c.reasoning = false, nil
	if at < 0 {
		// A response that wrote no item harpe takes for a reply (only
		// reasoning, or an item type it does not know): the provider
		// billed it all the same. Its usage is kept with the calls that
		// are in no window, and a note counts them.
		c.b.t.Unsent = append(c.b.t.Unsent, UnsentCall{Model: c.model, Time: ts,
			Usage: *openAIParts(*l.InputTokens, l.CachedInput, l.OutputTokens)})
		if c.unplaced == nil {
			c.unplaced = &lineNote{what: "usage records (token_count) follow no reply harpe reads (a response of an item type harpe does not know, or none): billed in the totals, in no replay window"}
			c.b.t.Warnings = append(c.b.t.Warnings, &Error{Name: c.d.name, Line: c.d.line, Err: c.unplaced})
		}
		c.unplaced.n++
		return nil
	}
	m := c.b.msg(at)
	m.setSplitUsage(*info.Last.InputTokens, info.Last.CachedInput, info.Last.OutputTokens)
	c.b.usageAt(at)
	if m.Model == "" {
		m.Model = c.model
	}
	return nil
}

func (c *codexReader) closeCall() {
	if c.callOpen {
		c.awaiting = c.callFirst
		c.callOpen = false
		c.callN++
	}
}

// assistant adds an assistant-side message to the current call.
func (c *codexReader) assistant(m Message) {
	if c.historyMeta {
		m.Meta = true
		c.b.add(m, false)
		return
	}
	c.reasoned, c.reasoning = false, nil
	// A prompt seen only as an event comes before the reply to it.
	for _, p := range c.pending {
		c.b.add(Message{Role: RoleUser, Text: p, Timestamp: m.Timestamp}, true)
	}
	c.pending = nil
	m.Call = fmt.Sprintf("call%d", c.callN)
	i := c.b.add(m, false)
	if !c.callOpen {
		c.callOpen = true
		c.callFirst = i
		c.awaiting = -1
	}
}

// userSide adds a user-side message (user item, tool output): the model
// must be asked again after it, so it closes the current call.
func (c *codexReader) userSide(m Message) int {
	c.closeCall()
	if c.historyMeta {
		m.Meta = true
	}
	return c.b.add(m, false)
}

func (c *codexReader) item(raw json.RawMessage, ts time.Time) error {
	var it cxItem
	if err := json.Unmarshal(raw, &it); err != nil {
		return c.payloadErr(err)
	}
	switch it.Type {
	case "message":
		text, images, skipped, err := openAIContent(it.Content)
		if err != nil {
			return c.d.errorf("payload: %v", err)
		}
		for _, k := range skipped {
			c.b.skip(k)
		}
		m := Message{Text: text, Images: images, Timestamp: ts}
		switch it.Role {
		case "assistant":
			m.Role = RoleAssistant
			c.assistant(m)
		case "user":
			m.Role = RoleUser
			m.Meta = true // until a user_message event names it a prompt
			i := c.userSide(m)
			if c.historyMeta {
				return nil
			}
			if len(c.pending) > 0 && strings.TrimSpace(c.pending[0]) == strings.TrimSpace(text) {
				c.pending = c.pending[1:]
				c.b.open(i)
				c.b.msg(i).Meta = false
				c.candidates = c.candidates[:0]
				return nil
			}
			if c.document {
				if !looksInjected(text) {
					c.b.open(i)
					c.b.msg(i).Meta = false
				}
				return nil
			}
			c.candidates = append(c.candidates, i)
		case "developer", "system":
			m.Role = RoleSystem
			c.userSide(m)
		default:
			return c.d.errorf("payload: unknown role %q; valid: user, assistant, developer, system", it.Role)
		}
	case "function_call":
		c.assistant(Message{Role: RoleAssistant, Timestamp: ts,
			ToolCalls: []ToolCall{{ID: it.CallID, Name: it.Name, Arguments: argText(it.Arguments)}}})
	case "custom_tool_call":
		c.assistant(Message{Role: RoleAssistant, Timestamp: ts,
			ToolCalls: []ToolCall{{ID: it.CallID, Name: it.Name, Arguments: argText(it.Input)}}})
	case "local_shell_call":
		c.assistant(Message{Role: RoleAssistant, Timestamp: ts,
			ToolCalls: []ToolCall{{ID: it.CallID, Name: "local_shell", Arguments: argText(it.Action)}}})
	case "tool_search_call":
		// Codex's search for deferred tools: a call the model makes
		// (call_id null when the provider runs the search itself).
		c.assistant(Message{Role: RoleAssistant, Timestamp: ts,
			ToolCalls: []ToolCall{{ID: it.CallID, Name: "tool_search", Arguments: argText(it.Arguments)}}})
	case "tool_search_output":
		// The tools found, as definitions: what the next request carries.
		c.userSide(Message{Role: RoleTool, ToolCallID: it.CallID, Text: argText(it.Tools), Timestamp: ts})
	case "web_search_call":
		// No call id and no output item: a call that pairs with nothing.
		c.assistant(Message{Role: RoleAssistant, Timestamp: ts,
			ToolCalls: []ToolCall{{Name: "web_search", Arguments: argText(it.Action)}}})
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		if it.CallID == "" {
			return c.d.errorf("payload: a %s needs \"call_id\"", it.Type)
		}
		c.userSide(Message{Role: RoleTool, ToolCallID: it.CallID, Text: codexOutput(it.Output), Timestamp: ts})
	case "reasoning":
		c.b.skip("reasoning")
		if !c.historyMeta {
			c.reasoned = true
			c.reasoning = append(c.reasoning, reasoningSummary(it.Summary)...)
		}
	default:
		c.b.skip("response_item/" + it.Type)
	}
	return nil
}

// reasoningSummary is the texts of a reasoning item's summary parts;
// none when it has another shape.
func reasoningSummary(raw json.RawMessage) []string {
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return nil
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return texts
}

// codexOutput reads a tool output: a string, an object with "content", or
// an array of content items.
func codexOutput(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '{' {
		var o struct {
			Content *string `json:"content"`
		}
		if json.Unmarshal(raw, &o) == nil && o.Content != nil {
			return *o.Content
		}
	}
	if len(raw) > 0 && raw[0] == '[' {
		if text, _, _, err := openAIContent(raw); err == nil {
			return text
		}
	}
	return argText(raw)
}

var codexFormat = format{name: FormatCodex, line: codexLine, doc: codexDoc, layout: codexLayout,
	lines: readCodex, linesWhen: func(obj map[string]json.RawMessage) bool { return obj["type"] != nil },
	document: one(readResponsesDoc), stream: responsesStream,
	keys: []string{"type", "payload", "role", "call_id", "input"}, itemKeys: []string{"type"}, exts: []string{".jsonl", ".json"},
	about: about{"Codex CLI; OpenAI Responses API", "JSON Lines rollouts; Responses items a line, a JSON array or a request body", []string{"$CODEX_HOME/sessions", "~/.codex/sessions"}}}

var codexTypes = map[string]bool{"session_meta": true, "turn_context": true, "response_item": true, "event_msg": true, "compacted": true}

// codexLine: a rollout line (a payload under a rollout type), or a bare
// Responses item.
// codexLayout: …/sessions/YYYY/MM/DD/rollout-<timestamp>-<uuid>.jsonl.
func codexLayout(parts []string) bool {
	b, n := base(parts)
	return n >= 5 && parts[n-5] == "sessions" && strings.HasPrefix(b, "rollout-") && strings.HasSuffix(b, ".jsonl") &&
		digits(parts[n-4], 4) && digits(parts[n-3], 2) && digits(parts[n-2], 2)
}

func codexLine(obj map[string]json.RawMessage) bool {
	typ := str(obj["type"])
	if obj["payload"] != nil {
		return codexTypes[typ]
	}
	return responseItemTypes[typ] && (obj["role"] != nil || obj["call_id"] != nil || typ == "reasoning" || typ == "web_search_call")
}

// codexDoc: an array of Responses items, or a request body with "input"
// (and no "messages").
func codexDoc(p *docProbe) bool {
	var ok bool
	if p.array {
		ok = p.typeIs(responseItemTypes) && !p.has("payload")
	} else {
		ok = p.has("input") && !p.has("messages")
	}
	return ok && !archiveDoc(p) && !geminiDoc(p)
}
