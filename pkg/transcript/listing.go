package transcript

import "time"

// Listing is the machine-readable account of what was read from a
// transcript: `harpe transcript --format json` writes it, and other
// tools check a replay against it. Its JSON field names are a stable
// contract.
type Listing struct {
	Format string `json:"format"`
	// Conversation is the transcript's ID when the file holds several.
	Conversation string           `json:"conversation,omitempty"`
	Messages     []ListingMessage `json:"messages"`
	Turns        int              `json:"turns"`
	Unpaired     []ListingPair    `json:"unpaired"`
	Skipped      map[string]int   `json:"skipped"`
	// Compactions are the indices of harness compaction summaries.
	Compactions []int `json:"compactions,omitempty"`
}

// ListingMessage is one message of a [Listing].
type ListingMessage struct {
	Index int    `json:"index"`
	Role  string `json:"role"`
	Turn  int    `json:"turn"`
	// Chars is [Message.Chars]: text plus tool-call names and arguments.
	Chars int `json:"chars"`
	// ToolCalls are the ids of the calls the message makes (never null).
	ToolCalls   []string `json:"tool_calls"`
	ToolCallID  *string  `json:"tool_call_id"`
	Timestamp   *string  `json:"timestamp"`
	InputTokens *int     `json:"input_tokens"`
	// Usage is the call's recorded usage in its parts; null where the
	// format records none.
	Usage *Usage `json:"usage"`
	// Model is the model that answered, where recorded.
	Model   string `json:"model,omitempty"`
	Aborted bool   `json:"aborted,omitempty"`
	Meta    bool   `json:"meta,omitempty"`
}

// ListingPair is an [Unpaired] entry of a [Listing].
type ListingPair struct {
	Message    int    `json:"message"`
	ToolCallID string `json:"tool_call_id"`
	Kind       string `json:"kind"`
}

// List builds the [Listing] of t. Timestamps are RFC 3339 with the offset
// they were recorded in.
func List(t *Transcript) *Listing {
	l := &Listing{Messages: make([]ListingMessage, 0, len(t.Messages))}
	for i := range t.Messages {
		l.Add(&t.Messages[i])
	}
	l.SetHeader(t)
	return l
}

// Add appends the listing of one message; with [Scan], a listing is built
// without keeping the messages.
func (l *Listing) Add(m *Message) {
	lm := ListingMessage{Index: m.Index, Role: m.Role, Turn: m.Turn, Chars: m.Chars(),
		ToolCalls: []string{}, InputTokens: m.InputTokens, Usage: m.Usage, Model: m.Model, Aborted: m.Aborted, Meta: m.Meta}
	for _, c := range m.ToolCalls {
		if c.ID != "" {
			lm.ToolCalls = append(lm.ToolCalls, c.ID)
		}
	}
	if m.ToolCallID != "" {
		id := m.ToolCallID
		lm.ToolCallID = &id
	}
	if !m.Timestamp.IsZero() {
		s := m.Timestamp.Format(time.RFC3339Nano)
		lm.Timestamp = &s
	}
	l.Messages = append(l.Messages, lm)
}

// SetHeader fills the transcript-wide fields of l from t, which must be
// finished: its format, turns, pairs, skipped records and compactions.
func (l *Listing) SetHeader(t *Transcript) {
	l.Format, l.Conversation, l.Turns, l.Compactions = t.Format, t.ID, t.Turns, t.Compactions
	if l.Messages == nil {
		l.Messages = []ListingMessage{}
	}
	l.Skipped = t.Skipped
	if l.Skipped == nil {
		l.Skipped = map[string]int{}
	}
	l.Unpaired = make([]ListingPair, 0, len(t.Unpaired))
	for _, u := range t.Unpaired {
		l.Unpaired = append(l.Unpaired, ListingPair{Message: u.Message, ToolCallID: u.ToolCallID, Kind: u.Kind})
	}
}
