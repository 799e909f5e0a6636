package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

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
	o := &openAIReader{b: b}
	sawUser := false
	pendingStep := "" // the call id of a text-mode action awaiting its observation
	for i, raw := range doc.History {
		path := fmt.Sprintf("history[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return nil, errAt(name, path, "want a message object, got %s", jsonl.Kind(raw))
		}
		var m sweMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, typeErrAt(name, path, err)
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
				return nil, err
			}
			last := b.count() - 1
			b.msg(last).Meta = true
			b.opens[last-b.base] = false
			continue
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
			return nil, err
		}
		if m.Role == "user" {
			if sawUser && m.MessageType == "observation" {
				b.opens[len(b.opens)-1] = false
			}
			sawUser = true
		}
	}
	return b.finish(), nil
}

// ---- OpenHands event streams ----

type ohEvent struct {
	ID          *int64          `json:"id"`
	Timestamp   json.RawMessage `json:"timestamp"`
	Source      string          `json:"source"`
	Message     string          `json:"message"`
	Action      string          `json:"action"`
	Args        json.RawMessage `json:"args"`
	Observation string          `json:"observation"`
	Content     string          `json:"content"`
	Cause       *int64          `json:"cause"`
	ToolMeta    *struct {
		FunctionName  string `json:"function_name"`
		ToolCallID    string `json:"tool_call_id"`
		ModelResponse *struct {
			ID    string `json:"id"`
			Usage *struct {
				PromptTokens *int `json:"prompt_tokens"`
			} `json:"usage"`
		} `json:"model_response"`
	} `json:"tool_call_metadata"`
}

// ohQuiet lists the events that carry no conversation: they are counted
// in Skipped as "action/<kind>" or "observation/<kind>".
var ohQuiet = map[string]bool{"change_agent_state": true, "agent_state_changed": true, "null": true,
	"recall": true, "condensation": true, "condensation_request": true}

// readOpenHands reads an OpenHands event stream: user and agent "message"
// actions are prompts and replies, other agent actions are tool calls, and
// an observation is the result of the action named by its "cause".
func readOpenHands(v json.RawMessage, name string) (*Transcript, error) {
	var events []json.RawMessage
	if err := json.Unmarshal(v, &events); err != nil {
		return nil, typeErrAt(name, "", err)
	}
	b := newBuilder(FormatOpenHands)
	callOf := map[int64]string{} // action event id → call id
	usedUsage := map[string]bool{}
	for i, raw := range events {
		path := fmt.Sprintf("[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return nil, errAt(name, path, "want an event object, got %s", jsonl.Kind(raw))
		}
		var ev ohEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, typeErrAt(name, path, err)
		}
		ts, err := parseTime(ev.Timestamp)
		if err != nil {
			return nil, errAt(name, path, "%q: %v", "timestamp", err)
		}
		var args map[string]json.RawMessage
		_ = json.Unmarshal(ev.Args, &args)
		argString := func(k string) string {
			var s string
			_ = json.Unmarshal(args[k], &s)
			return s
		}
		switch {
		case ev.Action != "" && ohQuiet[ev.Action], ev.Observation != "" && ohQuiet[ev.Observation]:
			if ev.Action != "" {
				b.skip("action/" + ev.Action)
			} else {
				b.skip("observation/" + ev.Observation)
			}
		case ev.Action == "system":
			b.add(Message{Role: RoleSystem, Text: argString("content"), Timestamp: ts}, false)
		case ev.Action == "message" && ev.Source == "user":
			b.add(Message{Role: RoleUser, Text: argString("content"), Timestamp: ts}, true)
		case ev.Action == "message":
			b.add(Message{Role: RoleAssistant, Text: argString("content"), Timestamp: ts}, false)
		case ev.Action != "":
			m := Message{Role: RoleAssistant, Text: argString("thought"), Timestamp: ts}
			if m.Text == "" {
				m.Text = argString("final_thought") // finish
			}
			id, fn := "", ev.Action
			if ev.ID != nil {
				id = "event-" + strconv.FormatInt(*ev.ID, 10)
			}
			if tm := ev.ToolMeta; tm != nil {
				if tm.ToolCallID != "" {
					id = tm.ToolCallID
				}
				if tm.FunctionName != "" {
					fn = tm.FunctionName
				}
				if r := tm.ModelResponse; r != nil {
					m.Call = r.ID
					if r.Usage != nil && r.Usage.PromptTokens != nil && !usedUsage[r.ID] {
						if err := nonNegative(count{"usage.prompt_tokens", *r.Usage.PromptTokens}); err != nil {
							return nil, errAt(name, path+".tool_call_metadata.model_response", "%w", err)
						}
						m.setSplitUsage(*r.Usage.PromptTokens, 0, 0)
						usedUsage[r.ID] = true
					}
				}
			}
			if id == "" {
				return nil, errAt(name, path, "an action needs \"id\" or tool_call_metadata.tool_call_id")
			}
			if ev.ID != nil {
				callOf[*ev.ID] = id
			}
			m.ToolCalls = []ToolCall{{ID: id, Name: fn, Arguments: argText(ev.Args)}}
			b.add(m, false)
		case ev.Observation != "":
			if ev.Cause == nil {
				// Not the result of an action (an error shown to the
				// agent): a harness message.
				b.add(Message{Role: RoleUser, Text: ev.Content, Timestamp: ts, Meta: true}, false)
				continue
			}
			id, ok := callOf[*ev.Cause]
			if !ok {
				id = "event-" + strconv.FormatInt(*ev.Cause, 10)
			}
			b.add(Message{Role: RoleTool, Name: ev.Observation, ToolCallID: id, Text: ev.Content, Timestamp: ts}, false)
		default:
			return nil, errAt(name, path, "an event needs \"action\" or \"observation\"")
		}
	}
	return b.finish(), nil
}

// ---- long-memory chat sessions (LoCoMo style) ----

type lmTurn struct {
	Speaker string   `json:"speaker"`
	Text    string   `json:"text"`
	ImgURL  []string `json:"img_url"`
}

// readLongMemory reads long-memory chat samples: an array of (or one)
// {"sample_id", "conversation": {"speaker_a", "speaker_b", "session_N":
// [{speaker, text}], "session_N_date_time": "1:56 pm on 8 May, 2023"}}.
// Sessions are read in number order; speaker A is the user (each of their
// messages opens a turn), speaker B the assistant; every message of a
// session gets the session's date. The annotations beside the
// conversation (qa, summaries) are not part of it and are not read.
func readLongMemory(v json.RawMessage, name string) ([]*Transcript, error) {
	var samples []json.RawMessage
	array := bytes.TrimSpace(v)[0] == '['
	if array {
		if err := json.Unmarshal(v, &samples); err != nil {
			return nil, typeErrAt(name, "", err)
		}
	} else {
		samples = []json.RawMessage{v}
	}
	var out []*Transcript
	for i, raw := range samples {
		path := ""
		if array {
			path = fmt.Sprintf("[%d]", i)
		}
		var s struct {
			SampleID     json.RawMessage            `json:"sample_id"`
			Conversation map[string]json.RawMessage `json:"conversation"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, typeErrAt(name, path, err)
		}
		b := newBuilder(FormatLongMemory)
		b.t.ID = argText(s.SampleID)
		if b.t.ID == "" {
			b.t.ID = strconv.Itoa(i)
		}
		var a, bName string
		_ = json.Unmarshal(s.Conversation["speaker_a"], &a)
		_ = json.Unmarshal(s.Conversation["speaker_b"], &bName)
		var sessions []int
		for k := range s.Conversation {
			if n, ok := strings.CutPrefix(k, "session_"); ok {
				if num, err := strconv.Atoi(n); err == nil {
					sessions = append(sessions, num)
				}
			}
		}
		sort.Ints(sessions)
		for _, n := range sessions {
			key := fmt.Sprintf("session_%d", n)
			spath := path + dot(path) + "conversation." + key
			var turns []lmTurn
			if err := json.Unmarshal(s.Conversation[key], &turns); err != nil {
				return nil, typeErrAt(name, spath, err)
			}
			var date string
			_ = json.Unmarshal(s.Conversation[key+"_date_time"], &date)
			ts, err := parseSessionDate(date)
			if err != nil {
				b.skip("unparsed_session_date")
			}
			for k, t := range turns {
				m := Message{Name: t.Speaker, Text: t.Text, Images: len(t.ImgURL), Timestamp: ts}
				switch t.Speaker {
				case a:
					m.Role = RoleUser
				case bName:
					m.Role = RoleAssistant
				default:
					return nil, errAt(name, fmt.Sprintf("%s[%d].speaker", spath, k), "speaker %q is neither speaker_a (%q) nor speaker_b (%q)", t.Speaker, a, bName)
				}
				b.add(m, m.Role == RoleUser)
			}
		}
		out = append(out, b.finish())
	}
	return out, nil
}

// parseSessionDate reads a session date such as "1:56 pm on 8 May, 2023"
// (no zone: read as UTC). "" gives the zero time.
func parseSessionDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 PM on 2 January, 2006", "3:04 pm on 2 Jan, 2006", time.RFC3339} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("session date %q not understood", s)
}
