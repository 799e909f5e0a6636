package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// ---- SWE-agent trajectories (.traj) ----

type sweMessage struct {
	oaMessage
	MessageType string   `json:"message_type"`
	ToolCallIDs []string `json:"tool_call_ids"`
	Action      *string  `json:"action"`
	IsDemo      bool     `json:"is_demo"`
}

// sweTextAction reports whether m is a text-mode step: an assistant entry
// carrying an action but no tool calls.
func sweTextAction(m *sweMessage) bool {
	return m.Role == "assistant" && m.Action != nil && strings.TrimSpace(*m.Action) != "" && len(m.ToolCalls) == 0
}

// sweCommand is the tool name of a text-mode action: its first word
// ("find_file", "edit", "python").
func sweCommand(action string) string {
	f := strings.Fields(action)
	if len(f) == 0 {
		return "action"
	}
	return f[0]
}

// sweRewrite returns raw with the fields set to the JSON values given.
func sweRewrite(raw json.RawMessage, fields map[string]any) json.RawMessage {
	var obj map[string]json.RawMessage
	_ = json.Unmarshal(raw, &obj)
	for k, v := range fields {
		obj[k], _ = json.Marshal(v)
	}
	out, _ := json.Marshal(obj)
	return out
}

// readSWEAgent reads a SWE-agent trajectory: its "history" holds the
// messages the model saw, in OpenAI shape. A tool result names its call in
// "tool_call_ids" (the first is used). User messages of type
// "observation" after the first user message are command output fed back
// as user messages: they do not open a turn.
//
// Text-mode trajectories have no tool ids (and may have no message_type):
// an assistant entry with an "action" and no tool_calls is read as one
// tool call named by the action's first word (id "step-<index>", no
// arguments: the action is in the text already), and the user entry right
// after it is that call's result, not a human prompt. A user entry with
// "is_demo" (or message_type "demonstration") is a demonstration: meta,
// not a turn.
func readSWEAgent(v json.RawMessage, name string) (*Transcript, error) {
	var doc struct {
		History []json.RawMessage `json:"history"`
	}
	if err := json.Unmarshal(v, &doc); err != nil {
		return nil, typeErrAt(name, "", err)
	}
	if doc.History == nil {
		return nil, errAt(name, "", "no \"history\" array")
	}
	b := newBuilder(FormatSWEAgent)
	if err := eachRecord(doc.History, sweAgentSteps(b, name)); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// streamSWEAgent is [readSWEAgent] one history entry at a time. A
// document whose "history" is missing or no array is left to
// readSWEAgent, which says so.
func streamSWEAgent(s *docStream) ([]*Transcript, error) {
	if h := bytes.TrimSpace(s.top()["history"]); s.probe.array || len(h) == 0 || h[0] != '[' || !s.plain("history") {
		return nil, errStreamFallback
	}
	b := s.builder(FormatSWEAgent)
	return s.records(b, "history", sweAgentSteps(b, s.name))
}

// sweAgentSteps returns the reader of the history entries of one
// trajectory, in order, into b.
func sweAgentSteps(b *builder, name string) func(i int, raw json.RawMessage) error {
	o := &openAIReader{b: b}
	sawUser := false
	pendingStep := "" // the call id of a text-mode action awaiting its observation
	return func(i int, raw json.RawMessage) error {
		path := fmt.Sprintf("history[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want a message object, got %s", jsonl.Kind(raw))
		}
		var m sweMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return typeErrAt(name, path, err)
		}
		demo := m.Role == "user" && (m.IsDemo || m.MessageType == "demonstration")
		switch {
		case sweTextAction(&m):
			id := fmt.Sprintf("step-%d", i)
			raw = sweRewrite(raw, map[string]any{"tool_calls": []any{map[string]any{"id": id, "type": "function",
				"function": map[string]any{"name": sweCommand(*m.Action), "arguments": ""}}}})
			pendingStep = id
		case m.Role == "user" && pendingStep != "" && !demo:
			raw = sweRewrite(raw, map[string]any{"role": "tool", "tool_call_id": pendingStep})
			m.Role = "tool"
			pendingStep = ""
		default:
			pendingStep = ""
		}
		if demo {
			where := func(f string, args ...any) error { return errAt(name, path, f, args...) }
			if err := o.add(raw, where, func(err error) error { return typeErrAt(name, path, err) }); err != nil {
				return err
			}
			last := b.count() - 1
			b.msg(last).Meta = true
			b.opens[last-b.base] = false
			return nil
		}
		if m.Role == "tool" && m.ToolCallID == "" && len(m.ToolCallIDs) > 0 {
			// Rewrite the message with the id where the OpenAI reader looks.
			var obj map[string]json.RawMessage
			_ = json.Unmarshal(raw, &obj)
			obj["tool_call_id"], _ = json.Marshal(m.ToolCallIDs[0])
			raw, _ = json.Marshal(obj)
		}
		where := func(f string, args ...any) error { return errAt(name, path, f, args...) }
		if err := o.add(raw, where, func(err error) error { return typeErrAt(name, path, err) }); err != nil {
			return err
		}
		if m.Role == "user" {
			if sawUser && m.MessageType == "observation" {
				b.opens[len(b.opens)-1] = false
			}
			sawUser = true
		}
		return nil
	}
}

var sweAgentFormat = format{name: FormatSWEAgent, doc: sweAgentDoc, document: one(readSWEAgent),
	stream: streamSWEAgent, keys: []string{"history"}, exts: []string{".traj", ".json"}, archive: true,
	about: about{"SWE-agent", "JSON trajectory (.traj)", nil}}

// sweAgentDoc: an object with "history" beside a "trajectory", "info" or
// "environment".
func sweAgentDoc(p *docProbe) bool {
	return !p.array && p.has("history") && (p.has("trajectory") || p.has("info") || p.has("environment")) &&
		!harDoc(p) && !shareGPTDoc(p)
}
