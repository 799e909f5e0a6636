package transcript

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Item is one context item (the items JSONL that `harpe synthesize`
// reads) made from a message by an [ItemWriter]. Fields outside the items
// format (File, Conversation, Message) are carried through by synthesize
// as unknown fields.
type Item struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Role    string `json:"role"`
	// Pinned is set on the system part, which a window never drops.
	Pinned bool `json:"pinned,omitempty"`
	// Timestamp is RFC 3339, omitted when the message has none.
	Timestamp string `json:"timestamp,omitempty"`
	// Group joins a tool call's message and its results, so they are kept
	// or dropped together.
	Group string `json:"group,omitempty"`
	// Dimension names the source: "system", "user", "assistant",
	// "tool:<name>" for a tool call and its result, "summary" for a
	// harness compaction summary.
	Dimension string `json:"dimension"`
	// File and Conversation name the transcript the item came from.
	File         string `json:"file"`
	Conversation string `json:"conversation,omitempty"`
	// Message is the index of the message in the transcript listing.
	Message int `json:"message"`
}

// ItemWriter turns messages into items as they are read (with [Scan]).
// Messages of aborted turns are left out (they are not context) and
// counted in Aborted.
type ItemWriter struct {
	// File names the input, copied into every item.
	File string
	// Prefix is put before every id ("" for none); set it when items of
	// several transcripts go to one stream, so ids stay unique.
	Prefix string
	// Aborted counts the messages left out because their turn was aborted.
	Aborted int

	groups map[string]string // tool call id → group
	names  map[string]string // tool call id → tool name
}

// Item returns the item for m, of transcript t (for its ID), and false
// when m is left out.
func (w *ItemWriter) Item(t *Transcript, m *Message) (Item, bool) {
	if m.Aborted {
		w.Aborted++
		return Item{}, false
	}
	if w.groups == nil {
		w.groups, w.names = map[string]string{}, map[string]string{}
	}
	it := Item{ID: fmt.Sprintf("%sm%d", w.Prefix, m.Index), Content: m.Text, Role: string(m.Role),
		File: w.File, Conversation: t.ID, Message: m.Index, Dimension: string(m.Role)}
	if !m.Timestamp.IsZero() {
		it.Timestamp = m.Timestamp.UTC().Format(time.RFC3339Nano)
	}
	switch {
	case m.Role == RoleSystem:
		it.Pinned = true
	case slices.Contains(t.Compactions, m.Index):
		it.Dimension = "summary"
	case len(m.ToolCalls) > 0:
		it.Group = fmt.Sprintf("%scall%d", w.Prefix, m.Index)
		var b strings.Builder
		b.WriteString(m.Text)
		for _, c := range m.ToolCalls {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "[tool call %s: %s]", c.Name, c.Arguments)
			if c.ID != "" {
				w.groups[c.ID] = it.Group
				w.names[c.ID] = c.Name
			}
		}
		it.Content = b.String()
		it.Dimension = "tool:" + m.ToolCalls[0].Name
	case m.ToolCallID != "":
		it.Group = w.groups[m.ToolCallID]
		if name := ResultToolName(m, w.names); name != "" {
			it.Dimension = "tool:" + name
		} else {
			it.Dimension = "tool"
		}
	}
	return it, true
}
