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
	var model string
	var pending []cpReply
	// perCall: the current run of the CLI recorded its calls' usage
	// (assistant.usage events), which its shutdown's totals then repeat.
	perCall := false
	lastReply := -1            // the latest reply, while it has no usage
	totals, totalsLine := 0, 0 // per-model totals taken from shutdowns, the first one's line
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
			// A subagent's call is billed: its output (or its usage) is
			// counted, its messages stay out of this conversation.
			name := data.Model
			if name == "" {
				name = model
			}
			switch ev.Type {
			case "assistant.message":
				out, ok, err := data.output(d)
				if err != nil {
					return err
				}
				if ok {
					pending = append(pending, cpReply{model: name, at: ts, output: out, line: d.line})
				}
			case "assistant.usage":
				u, ok, err := data.callUsage(d)
				if err != nil {
					return err
				}
				if ok {
					perCall = true
					b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: u})
				}
			}
			b.skip("subagent/" + ev.Type)
			continue
		}
		switch ev.Type {
		case "session.start", "session.resume":
			if data.SelectedModel != "" {
				model = data.SelectedModel
			}
			b.skip(ev.Type)
		case "session.model_change":
			if data.NewModel != "" {
				model = data.NewModel
			}
			b.skip(ev.Type)
		case "system.message":
			b.add(Message{Role: RoleSystem, Text: contentText(data.Content), Timestamp: ts}, false)
		case "user.message":
			b.add(Message{Role: RoleUser, Text: contentText(data.Content), Timestamp: ts}, true)
		case "assistant.message":
			m := Message{Role: RoleAssistant, Text: contentText(data.Content), Timestamp: ts, Model: model}
			if data.Model != "" {
				m.Model = data.Model
			}
			for i, r := range data.ToolRequests {
				if r.ToolCallID == "" {
					return d.errorf("data.toolRequests[%d]: \"toolCallId\" is required", i)
				}
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: r.ToolCallID, Name: r.Name, Arguments: argText(r.Arguments)})
			}
			out, ok, err := data.output(d)
			if err != nil {
				return err
			}
			if ok {
				pending = append(pending, cpReply{model: m.Model, at: ts, output: out, line: d.line})
			}
			lastReply = b.add(m, false)
		case "assistant.usage":
			u, ok, err := data.callUsage(d)
			if err != nil {
				return err
			}
			if !ok {
				b.skip(ev.Type)
				continue
			}
			name := data.Model
			if name == "" {
				name = model
			}
			perCall = true
			if lastReply >= 0 {
				m := b.msg(lastReply)
				if err := m.setUsage(&u); err != nil {
					return d.errorf("%w", err)
				}
				b.usageAt(lastReply)
				if name != "" {
					m.Model = name
				}
				lastReply = -1
			} else {
				b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: u})
			}
		case "tool.execution_complete":
			if data.ToolCallID == "" {
				return d.errorf("a tool.execution_complete needs \"data.toolCallId\"")
			}
			text := copilotResult(data.Result)
			if text == "" {
				text = copilotResult(data.Error)
			}
			b.add(Message{Role: RoleTool, Name: data.ToolName, ToolCallID: data.ToolCallID, Text: text, Timestamp: ts}, false)
		case "abort":
			b.abort()
		case "session.shutdown":
			// The shutdown's totals cover the replies since the last one,
			// whose calls, when recorded one by one, are already counted.
			pending = pending[:0]
			if perCall {
				perCall = false
				b.skip(ev.Type)
				continue
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
					return d.errorf("data.modelMetrics[%q].usage: %w", name, err)
				}
				b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: name, Time: ts, Usage: copilotUsage(u.InputTokens, u.CacheReadTokens, u.CacheWriteTokens, u.OutputTokens)})
				if totals++; totalsLine == 0 {
					totalsLine = d.line
				}
			}
			b.skip(ev.Type)
		case "":
			return d.errorf("missing \"type\"")
		default:
			b.skip(ev.Type)
		}
	}
	if perCall {
		pending = nil // the run's calls are recorded one by one
	}
	if totals > 0 {
		b.t.Warnings = append(b.t.Warnings, &Error{Name: d.name, Line: totalsLine,
			Err: fmt.Errorf("input tokens are recorded only per run of Copilot CLI, in session.shutdown: %d recorded calls are a run's totals for one model, and no reply has its prompt size", totals)})
	}
	for _, r := range pending {
		b.t.Unsent = append(b.t.Unsent, UnsentCall{Model: r.model, Time: r.at, Usage: Usage{Output: r.output}})
	}
	if len(pending) > 0 {
		b.t.Warnings = append(b.t.Warnings, &Error{Name: d.name, Line: pending[0].line,
			Err: fmt.Errorf("%d replies after the last session.shutdown (or with none): their output tokens are counted, their input is not recorded", len(pending))})
	}
	return nil
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
