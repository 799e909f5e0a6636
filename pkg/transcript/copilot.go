package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
)

// FormatCopilotCLI is a GitHub Copilot CLI session:
// ~/.copilot/session-state/<session id>/events.jsonl.
const FormatCopilotCLI Format = "copilot-cli"

// cpEvent is one line of a Copilot CLI events.jsonl.
type cpEvent struct {
	Type      string          `json:"type"`
	Data      json.RawMessage `json:"data"`
	Timestamp json.RawMessage `json:"timestamp"`
	// AgentID marks the events of a subagent the session ran (the task
	// tool): billed, not part of this conversation.
	AgentID string `json:"agentId"`
}

type cpData struct {
	SessionID     string          `json:"sessionId"`
	SelectedModel string          `json:"selectedModel"`
	NewModel      string          `json:"newModel"`
	Model         string          `json:"model"`
	Content       json.RawMessage `json:"content"`
	ToolRequests  []struct {
		ToolCallID string          `json:"toolCallId"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
	} `json:"toolRequests"`
	OutputTokens *int `json:"outputTokens"`
	// assistant.usage: one call's usage.
	InputTokens      *int            `json:"inputTokens"`
	CacheReadTokens  int             `json:"cacheReadTokens"`
	CacheWriteTokens int             `json:"cacheWriteTokens"`
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Result           json.RawMessage `json:"result"`
	Error            json.RawMessage `json:"error"`
	ModelMetrics     map[string]struct {
		Usage struct {
			InputTokens      int `json:"inputTokens"`
			OutputTokens     int `json:"outputTokens"`
			CacheReadTokens  int `json:"cacheReadTokens"`
			CacheWriteTokens int `json:"cacheWriteTokens"`
		} `json:"usage"`
	} `json:"modelMetrics"`
}

// cpReply is the output a reply recorded, not yet covered by a
// session.shutdown.
type cpReply struct {
	model  string
	at     time.Time
	output int
	line   int
}

// readCopilot reads a Copilot CLI event log. user.message, system.message,
// assistant.message and tool.execution_complete events are messages; the
// rest are counted as skipped. Copilot CLI records per reply only its
// output tokens (assistant.message's outputTokens); the prompt side is
// recorded once per run of the CLI, per model, in session.shutdown. So no
// message carries usage (no prompt size is known per call): the
// shutdown's totals are the session's recorded calls
// ([Transcript.Unsent], one per model), and the replies written after the
// last shutdown (a session still open, or killed) count their output
// alone, with a warning saying their input is not recorded. Where the
// log holds assistant.usage events (one per call, in a saved
// --output-format json stream), they are the calls: each goes on the
// reply before it, and the run's shutdown, which sums them, is not
// counted again.
func readCopilot(d *lineDecoder, b *builder) error {
	r := cpReader{d: d, b: b, lastReply: -1}
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var ev cpEvent
		if err := d.decode(&ev); err == errLineSkipped {
			continue
		} else if err != nil {
			return err
		}
		ts, err := parseTime(ev.Timestamp)
		if err != nil {
			return d.errorf("%q: %v", "timestamp", err)
		}
		var data cpData
		if t := bytes.TrimSpace(ev.Data); len(t) > 0 && string(t) != "null" {
			if t[0] != '{' {
				return d.errorf("\"data\" must be an object")
			}
			if err := json.Unmarshal(t, &data); err != nil {
				e := typeErrAt(d.name, "data", err).(*Error)
				e.Line = d.line
				return e
			}
		}
		if ev.AgentID != "" {
			err = r.subagent(ev.Type, &data, ts)
		} else {
			err = r.event(ev.Type, &data, ts)
		}
		if err != nil {
			return err
		}
	}
	r.finish()
	return nil
}

// cpReader is the state of one Copilot CLI log's reading, event by event.
type cpReader struct {
	d       *lineDecoder
	b       *builder
	model   string    // the session's model, as the latest start or change set it
	pending []cpReply // replies whose output no shutdown has summed yet
	// perCall: the current run of the CLI recorded its calls' usage
	// (assistant.usage events), which its shutdown's totals then repeat.
	perCall    bool
	lastReply  int // the latest reply, while it has no usage; -1 when none
	totals     int // per-model totals taken from shutdowns
	totalsLine int // the first one's line
}

// modelOr is the model an event names, else the session's.
func (r *cpReader) modelOr(name string) string {
	if name == "" {
		return r.model
	}
	return name
}

// subagent reads a subagent's event: its call is billed, so its output
// (or its usage) is counted; its messages stay out of this conversation.
func (r *cpReader) subagent(typ string, data *cpData, ts time.Time) error {
	name := r.modelOr(data.Model)
	switch typ {
	case "assistant.message":
		out, ok, err := data.output(r.d)
		if err != nil {
			return err
		}
		if ok {
			r.pending = append(r.pending, cpReply{model: name, at: ts, output: out, line: r.d.line})
		}
	case "assistant.usage":
		u, ok, err := data.callUsage(r.d)
		if err != nil {
			return err
		}
		if ok {
			r.perCall = true
			r.b.t.Unsent = append(r.b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: u})
		}
	}
	r.b.skip("subagent/" + typ)
	return nil
}

// event reads one event of the conversation.
func (r *cpReader) event(typ string, data *cpData, ts time.Time) error {
	switch typ {
	case "session.start", "session.resume":
		if data.SelectedModel != "" {
			r.model = data.SelectedModel
		}
		r.b.skip(typ)
	case "session.model_change":
		if data.NewModel != "" {
			r.model = data.NewModel
		}
		r.b.skip(typ)
	case "system.message":
		r.b.add(Message{Role: RoleSystem, Text: contentText(data.Content), Timestamp: ts}, false)
	case "user.message":
		r.b.add(Message{Role: RoleUser, Text: contentText(data.Content), Timestamp: ts}, true)
	case "assistant.message":
		return r.reply(data, ts)
	case "assistant.usage":
		return r.usage(data, ts)
	case "tool.execution_complete":
		if data.ToolCallID == "" {
			return r.d.errorf("a tool.execution_complete needs \"data.toolCallId\"")
		}
		text := copilotResult(data.Result)
		if text == "" {
			text = copilotResult(data.Error)
		}
		r.b.add(Message{Role: RoleTool, Name: data.ToolName, ToolCallID: data.ToolCallID, Text: text, Timestamp: ts}, false)
	case "abort":
		r.b.abort()
	case "session.shutdown":
		return r.shutdown(data, ts)
	case "":
		return r.d.errorf("missing \"type\"")
	default:
		r.b.skip(typ)
	}
	return nil
}

// reply adds an assistant.message, its output pending until a shutdown
// or its call's usage accounts for it.
func (r *cpReader) reply(data *cpData, ts time.Time) error {
	m := Message{Role: RoleAssistant, Text: contentText(data.Content), Timestamp: ts, Model: r.modelOr(data.Model)}
	for i, t := range data.ToolRequests {
		if t.ToolCallID == "" {
			return r.d.errorf("data.toolRequests[%d]: \"toolCallId\" is required", i)
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: t.ToolCallID, Name: t.Name, Arguments: argText(t.Arguments)})
	}
	out, ok, err := data.output(r.d)
	if err != nil {
		return err
	}
	if ok {
		r.pending = append(r.pending, cpReply{model: m.Model, at: ts, output: out, line: r.d.line})
	}
	r.lastReply = r.b.add(m, false)
	return nil
}

// usage reads an assistant.usage event: the usage of the reply before it,
// or, with none waiting, a call of its own.
func (r *cpReader) usage(data *cpData, ts time.Time) error {
	u, ok, err := data.callUsage(r.d)
	if err != nil {
		return err
	}
	if !ok {
		r.b.skip("assistant.usage")
		return nil
	}
	name := r.modelOr(data.Model)
	r.perCall = true
	if r.lastReply < 0 {
		r.b.t.Unsent = append(r.b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: u})
		return nil
	}
	m := r.b.msg(r.lastReply)
	if err := m.setUsage(&u); err != nil {
		return r.d.errorf("%w", err)
	}
	r.b.usageAt(r.lastReply)
	if name != "" {
		m.Model = name
	}
	r.lastReply = -1
	return nil
}

// shutdown reads a session.shutdown: its totals cover the replies since
// the last one, whose calls, when recorded one by one, are already
// counted; else each model's totals are a recorded call.
func (r *cpReader) shutdown(data *cpData, ts time.Time) error {
	r.pending = r.pending[:0]
	r.b.skip("session.shutdown")
	if r.perCall {
		r.perCall = false
		return nil
	}
	models := make([]string, 0, len(data.ModelMetrics))
	for name := range data.ModelMetrics {
		models = append(models, name)
	}
	slices.Sort(models)
	for _, name := range models {
		u := data.ModelMetrics[name].Usage
		if err := nonNegative(count{"inputTokens", u.InputTokens}, count{"outputTokens", u.OutputTokens},
			count{"cacheReadTokens", u.CacheReadTokens}, count{"cacheWriteTokens", u.CacheWriteTokens}); err != nil {
			return r.d.errorf("data.modelMetrics[%q].usage: %w", name, err)
		}
		r.b.t.Unsent = append(r.b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: copilotUsage(u.InputTokens, u.CacheReadTokens, u.CacheWriteTokens, u.OutputTokens)})
		if r.totals++; r.totalsLine == 0 {
			r.totalsLine = r.d.line
		}
	}
	return nil
}

// finish counts the replies no shutdown summed (their output alone) and
// warns of what the log leaves unrecorded.
func (r *cpReader) finish() {
	d, b := r.d, r.b
	pending := r.pending
	if r.perCall {
		pending = nil // the run's calls are recorded one by one
	}
	if r.totals > 0 {
		b.t.Warnings = append(b.t.Warnings, &Error{Name: d.name, Line: r.totalsLine,
			Err: fmt.Errorf("input tokens are recorded only per run of Copilot CLI, in session.shutdown: %d recorded calls are a run's totals for one model, and no reply has its prompt size", r.totals)})
	}
	for _, p := range pending {
		b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: p.model, Time: p.at, Usage: Usage{Output: p.output}})
	}
	if len(pending) > 0 {
		b.t.Warnings = append(b.t.Warnings, &Error{Name: d.name, Line: pending[0].line,
			Err: fmt.Errorf("%d replies after the last session.shutdown (or with none): their output tokens are counted, their input is not recorded", len(pending))})
	}
}

// output is a reply's outputTokens, ok false when not recorded.
func (data *cpData) output(d *lineDecoder) (int, bool, error) {
	o := data.OutputTokens
	if o == nil {
		return 0, false, nil
	}
	if *o < 0 {
		return 0, false, d.errorf("\"data.outputTokens\" must be a whole number ≥ 0, got %d", *o)
	}
	return *o, true, nil
}

// callUsage is the usage one assistant.usage event records, ok false
// when it records no prompt.
func (data *cpData) callUsage(d *lineDecoder) (Usage, bool, error) {
	if data.InputTokens == nil {
		return Usage{}, false, nil
	}
	out := deref(data.OutputTokens)
	if err := nonNegative(count{"data.inputTokens", *data.InputTokens}, count{"data.outputTokens", out},
		count{"data.cacheReadTokens", data.CacheReadTokens}, count{"data.cacheWriteTokens", data.CacheWriteTokens}); err != nil {
		return Usage{}, false, d.errorf("%w", err)
	}
	return copilotUsage(*data.InputTokens, data.CacheReadTokens, data.CacheWriteTokens, out), true, nil
}

// copilotUsage splits a usage record: inputTokens is the whole prompt,
// its cache reads and writes included.
func copilotUsage(input, read, write, output int) Usage {
	cached, ok := checked.Add(read, write)
	if !ok || cached > input {
		// Not the sum seen: take the parts as they stand.
		return Usage{Input: input, CacheRead: read, CacheWrite: write, Output: output}
	}
	return Usage{Input: input - cached, CacheRead: read, CacheWrite: write, Output: output}
}

// contentText is a string content, or the JSON of any other.
func contentText(raw json.RawMessage) string {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return ""
	}
	return argText(raw)
}

// copilotResult is a tool result's text: its "content" (or "message")
// string, else its JSON.
func copilotResult(raw json.RawMessage) string {
	var o struct {
		Content *string `json:"content"`
		Message *string `json:"message"`
	}
	if json.Unmarshal(raw, &o) == nil {
		switch {
		case o.Content != nil:
			return *o.Content
		case o.Message != nil:
			return *o.Message
		}
	}
	return contentText(raw)
}

var copilotFormat = format{name: FormatCopilotCLI, line: copilotLine, lines: readCopilot, layout: copilotLayout,
	keys: []string{"type"}, exts: []string{".jsonl"},
	about: about{"GitHub Copilot CLI", "JSON Lines events (<session>/events.jsonl)", []string{"~/.copilot/session-state"}}}

// copilotLine: an event {type, data, …} whose type is a dotted Copilot
// event name ("session.start", "user.message", …).
// copilotLayout: …/session-state/<session id>/events.jsonl.
func copilotLayout(parts []string) bool {
	b, n := base(parts)
	return n >= 3 && parts[n-3] == "session-state" && b == "events.jsonl"
}

func copilotLine(obj map[string]json.RawMessage) bool {
	t := str(obj["type"])
	if obj["data"] == nil || !bytes.HasPrefix(bytes.TrimSpace(obj["data"]), []byte("{")) {
		return false
	}
	for _, p := range []string{"session.", "user.", "assistant.", "tool.", "system.", "hook.", "subagent.", "skill."} {
		if len(t) > len(p) && t[:len(p)] == p {
			return true
		}
	}
	return t == "abort"
}
