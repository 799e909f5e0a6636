package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

type sgConversation struct {
	ID            json.RawMessage `json:"id"`
	Conversations []struct {
		From  string `json:"from"`
		Value string `json:"value"`
	} `json:"conversations"`
}

var shareGPTFormat = format{name: FormatShareGPT, doc: shareGPTDoc, stream: readShareGPT,
	keys: []string{"conversations"}, itemKeys: []string{"conversations"}, exts: []string{".json", ".jsonl"}, archive: true,
	about: about{"ShareGPT datasets", "JSON or JSON Lines, a conversation each", nil}}

// shareGPTDoc: a conversation object with "conversations", or an array
// of them.
func shareGPTDoc(p *docProbe) bool { return p.has("conversations") && !harDoc(p) }

// readShareGPT reads one ShareGPT conversation object or an array of
// them; each conversation is its own transcript, named by its "id" (or
// its position from 0 when it has none, "#" before it when another
// conversation has that id). An array is read one conversation at a
// time, twice: first for the ids the file gives, then for the
// conversations; under [Scan] each is handed on (to fn, then done) as
// soon as it is read and not kept.
func readShareGPT(s *docStream) ([]*Transcript, error) {
	if !s.probe.array {
		v, err := s.whole()
		if err != nil {
			return nil, err
		}
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(v, &id)
		taken := takenNames{}
		taken.add(argText(id.ID))
		t, err := shareGPTConversation(v, s.name, "", 0, taken)
		if err != nil {
			return nil, err
		}
		return []*Transcript{t}, nil
	}
	explicit := takenNames{} // ids the file gives that an automatic name could take
	n := 0
	err := s.elements("", func(_ int, raw json.RawMessage) error {
		n++
		var id struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(raw, &id) == nil {
			explicit.add(argText(id.ID))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []*Transcript
	err = s.elements("", func(i int, raw json.RawMessage) error {
		t, err := shareGPTConversation(raw, s.name, fmt.Sprintf("[%d]", i), i, explicit)
		if err != nil {
			return err
		}
		if s.scan != nil {
			return s.emit(t, i, n > 1) // to Scan's done, not kept
		}
		out = append(out, t)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// takenNames holds the ids a file gives that an automatic name could
// take: a position ("0", "17") with any number of "#" before it. Other
// ids (most real ones: "c17", a UUID) are not kept, so a file of
// 200,000 conversations does not hold its ids a second time.
type takenNames map[string]bool

func (t takenNames) add(id string) {
	if couldBeAutomatic(id) {
		t[id] = true
	}
}

// couldBeAutomatic reports whether id is a name [shareGPTConversation]
// may give: "#"s, then a decimal position with no leading zero.
func couldBeAutomatic(id string) bool {
	d := strings.TrimLeft(id, "#")
	if d == "" || len(d) > 1 && d[0] == '0' {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// shareGPTConversation reads conversation k of a file, at path, whose
// explicit ids are those given.
func shareGPTConversation(raw json.RawMessage, name, path string, k int, explicit takenNames) (*Transcript, error) {
	var c sgConversation
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return nil, errAt(name, path, "want a conversation object, got %s", jsonl.Kind(raw))
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, typeErrAt(name, path, err)
	}
	b := newBuilder(FormatShareGPT)
	b.t.ID = argText(c.ID)
	if b.t.ID == "" {
		// Named by its position, or "#<position>" where the file gives
		// that name to another.
		id := fmt.Sprint(k)
		for explicit[id] {
			id = "#" + id
		}
		b.t.ID = id
	}
	var names namePairer
	for k, turn := range c.Conversations {
		m := Message{Text: turn.Value}
		opens := false
		switch turn.From {
		case "human", "user":
			m.Role, opens = RoleUser, true
		case "gpt", "assistant", "chatgpt", "bard", "bing", "model":
			m.Role = RoleAssistant
		case "system":
			m.Role = RoleSystem
		case "function_call":
			var fc struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			m.Role, m.Text = RoleAssistant, ""
			if json.Unmarshal([]byte(turn.Value), &fc) == nil {
				m.ToolCalls = []ToolCall{{ID: names.call(fc.Name), Name: fc.Name, Arguments: argText(fc.Arguments)}}
			} else {
				m.ToolCalls = []ToolCall{{ID: names.call(""), Arguments: turn.Value}}
			}
		case "observation", "tool", "function_response":
			m.Role = RoleTool
			m.ToolCallID = names.result("")
		default:
			return nil, errAt(name, fmt.Sprintf("%sconversations[%d].from", path+dot(path), k),
				"unknown speaker %q; valid: human, gpt, system, function_call, observation", turn.From)
		}
		b.add(m, opens)
	}
	return b.finish(), nil
}
