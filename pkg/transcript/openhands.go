package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

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
	if err := eachRecord(events, openHandsEvents(b, name)); err != nil {
		return nil, err
	}
	return b.finish(), nil
}

// streamOpenHands is [readOpenHands] one event at a time. A document that
// is not an array is left to readOpenHands, which says so.
func streamOpenHands(s *docStream) ([]*Transcript, error) {
	if !s.probe.array {
		return nil, errStreamFallback
	}
	b := s.builder(FormatOpenHands)
	return s.records(b, "", openHandsEvents(b, s.name))
}

// openHandsEvents returns the reader of the events of one stream, in
// order, into b.
func openHandsEvents(b *builder, name string) func(i int, raw json.RawMessage) error {
	callOf := map[int64]string{} // action event id → call id
	usedUsage := map[string]bool{}
	return func(i int, raw json.RawMessage) error {
		path := fmt.Sprintf("[%d]", i)
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
			return errAt(name, path, "want an event object, got %s", jsonl.Kind(raw))
		}
		var ev ohEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return typeErrAt(name, path, err)
		}
		ts, err := parseTime(ev.Timestamp)
		if err != nil {
			return errAt(name, path, "%q: %v", "timestamp", err)
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
							return errAt(name, path+".tool_call_metadata.model_response", "%w", err)
						}
						m.setSplitUsage(*r.Usage.PromptTokens, 0, 0)
						usedUsage[r.ID] = true
					}
				}
			}
			if id == "" {
				return errAt(name, path, "an action needs \"id\" or tool_call_metadata.tool_call_id")
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
				return nil
			}
			id, ok := callOf[*ev.Cause]
			if !ok {
				id = "event-" + strconv.FormatInt(*ev.Cause, 10)
			}
			b.add(Message{Role: RoleTool, Name: ev.Observation, ToolCallID: id, Text: ev.Content, Timestamp: ts}, false)
		default:
			return errAt(name, path, "an event needs \"action\" or \"observation\"")
		}
		return nil
	}
}

var openHandsFormat = format{name: FormatOpenHands, doc: openHandsDoc, document: one(readOpenHands),
	stream: streamOpenHands, itemKeys: []string{"source"}, exts: []string{".json"}, archive: true,
	about: about{"OpenHands", "JSON event list", nil}}

// openHandsDoc: an array of events with a "source" and an "action" or
// "observation".
func openHandsDoc(p *docProbe) bool {
	return p.array && p.has("source") && (p.has("action") || p.has("observation")) && !shareGPTDoc(p)
}
