package transcript

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/harpe-dev/harpe/internal/checked"
)

// harpeEvent is one line of harpe's own event JSONL.
type harpeEvent struct {
	Type       string          `json:"type"`
	Content    *string         `json:"content"`
	Name       string          `json:"name"`
	ToolCalls  []harpeCall     `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
	Input      *int            `json:"input_tokens"`
	CacheRead  int             `json:"cache_read_tokens"`
	CacheWrite int             `json:"cache_write_tokens"`
	Output     int             `json:"output_tokens"`
	Model      string          `json:"model"`
	Timestamp  json.RawMessage `json:"timestamp"`
}

type harpeCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// readHarpe reads harpe's event JSONL: system, user, assistant,
// tool_result, usage and abort events. Every user event opens a turn; a
// usage event sets the input tokens (the whole prompt) of the latest
// assistant message, with optional parts cache_read_tokens,
// cache_write_tokens, output_tokens and the model; an
// abort event marks the current turn aborted.
func readHarpe(d *lineDecoder, b *builder) error {
	lastAssistant := -1
	for {
		if _, err := d.next(); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		var ev harpeEvent
		if err := d.decode(&ev); err == errLineSkipped {
			continue
		} else if err != nil {
			return err
		}
		ts, err := parseTime(ev.Timestamp)
		if err != nil {
			return d.errorf("%q: %v", "timestamp", err)
		}
		text := ""
		if ev.Content != nil {
			text = *ev.Content
		}
		m := Message{Text: text, Name: ev.Name, Timestamp: ts}
		switch ev.Type {
		case "system":
			m.Role = RoleSystem
			b.add(m, false)
		case "user":
			m.Role = RoleUser
			b.add(m, true)
		case "assistant":
			m.Role = RoleAssistant
			for i, c := range ev.ToolCalls {
				if c.ID == "" {
					return d.errorf("tool_calls[%d]: \"id\" is required", i)
				}
				m.ToolCalls = append(m.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: argText(c.Arguments)})
			}
			lastAssistant = b.add(m, false)
		case "tool_result":
			if ev.ToolCallID == "" {
				return d.errorf("a tool_result needs \"tool_call_id\"")
			}
			m.Role = RoleTool
			m.ToolCallID = ev.ToolCallID
			b.add(m, false)
		case "usage":
			if ev.Input == nil {
				return d.errorf("a usage event needs \"input_tokens\"")
			}
			if *ev.Input < 0 {
				return d.errorf("\"input_tokens\" must be a whole number ≥ 0, got %d", *ev.Input)
			}
			if lastAssistant < 0 {
				b.skip("usage_without_reply")
				continue
			}
			if ev.CacheRead < 0 || ev.CacheWrite < 0 || ev.Output < 0 {
				return d.errorf("\"cache_read_tokens\", \"cache_write_tokens\" and \"output_tokens\" must be whole numbers ≥ 0")
			}
			cached, ok := checked.Add(ev.CacheRead, ev.CacheWrite)
			if !ok {
				return d.errorf("%w", &checked.OverflowError{What: fmt.Sprintf("\"cache_read_tokens\" (%d) and \"cache_write_tokens\" (%d)", ev.CacheRead, ev.CacheWrite)})
			}
			if cached > *ev.Input {
				return d.errorf("\"cache_read_tokens\" + \"cache_write_tokens\" (%d) exceed \"input_tokens\" (%d), which is the whole prompt", cached, *ev.Input)
			}
			m := b.msg(lastAssistant)
			// The parts add up to input_tokens: the sum cannot overflow.
			_ = m.setUsage(&Usage{Input: *ev.Input - cached, CacheRead: ev.CacheRead, CacheWrite: ev.CacheWrite, Output: ev.Output})
			b.usageAt(lastAssistant)
			m.Model = ev.Model
		case "abort":
			b.abort()
		case "":
			return d.errorf("missing \"type\"; valid: %s", harpeKinds)
		default:
			return d.errorf("unknown event type %q; valid: %s", ev.Type, harpeKinds)
		}
	}
	return nil
}

// harpeKinds lists the event types, for help text.
var harpeKinds = strings.Join([]string{"system", "user", "assistant", "tool_result", "usage", "abort"}, ", ")

var harpeFormat = format{name: FormatHarpe, line: harpeLine, lines: readHarpe,
	keys: []string{"type"}, exts: []string{".jsonl", ".ndjson"},
	about: about{"harpe (its own event log)", "JSON Lines", nil}}

var harpeTypes = map[string]bool{"system": true, "user": true, "assistant": true, "tool_result": true, "usage": true, "abort": true}

// harpeLine: an event of a harpe type that is not a Claude Code record
// (which shares the types user, assistant and system).
func harpeLine(obj map[string]json.RawMessage) bool {
	return harpeTypes[str(obj["type"])] && !claudeCodeLine(obj) && !codexLine(obj)
}
