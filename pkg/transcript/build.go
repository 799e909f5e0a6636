package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// builder collects the messages of one transcript and numbers its turns.
type builder struct {
	t         *Transcript
	turnStart int // index of the message that opened the current turn
}

func newBuilder(format string) *builder {
	return &builder{t: &Transcript{Format: format, Skipped: map[string]int{}}}
}

// add appends m. opens says whether m opens a new turn (a human prompt).
// It returns the index of the message.
func (b *builder) add(m Message, opens bool) int {
	t := b.t
	m.Index = len(t.Messages)
	if opens {
		t.Turns++
		b.turnStart = m.Index
	}
	m.Turn = t.Turns
	t.Messages = append(t.Messages, m)
	return m.Index
}

// skip counts a record that is not a message.
func (b *builder) skip(kind string) { b.t.Skipped[kind]++ }

// abort marks every message of the current turn as aborted. Before the
// first turn there is nothing to abort: the event is counted as skipped.
func (b *builder) abort() {
	t := b.t
	if t.Turns == 0 {
		b.skip("abort")
		return
	}
	for i := b.turnStart; i < len(t.Messages); i++ {
		t.Messages[i].Aborted = true
	}
}

// compaction records that the harness compacted its context at the next
// message to be added.
func (b *builder) compaction() {
	b.t.Compactions = append(b.t.Compactions, len(b.t.Messages))
}

// finish fills Unpaired and returns the transcript.
func (b *builder) finish() *Transcript {
	t := b.t
	// A compaction marker with no message after it points nowhere.
	for len(t.Compactions) > 0 && t.Compactions[len(t.Compactions)-1] >= len(t.Messages) {
		t.Compactions = t.Compactions[:len(t.Compactions)-1]
		t.Skipped["compaction_without_summary"]++
	}
	t.Unpaired = pairs(t.Messages)
	return t
}

// pairs lists the tool calls with no later result and the results with no
// earlier call, in message order.
func pairs(msgs []Message) []Unpaired {
	open := map[string]int{} // call id → message index, while unanswered
	var out []Unpaired
	for i := range msgs {
		m := &msgs[i]
		if m.ToolCallID != "" {
			if _, ok := open[m.ToolCallID]; ok {
				delete(open, m.ToolCallID)
			} else {
				out = append(out, Unpaired{Message: i, ToolCallID: m.ToolCallID, Kind: "result"})
			}
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				continue
			}
			if at, ok := open[c.ID]; ok { // the same id called again before any result
				out = append(out, Unpaired{Message: at, ToolCallID: c.ID, Kind: "call"})
			}
			open[c.ID] = i
		}
	}
	for i := range msgs {
		for _, c := range msgs[i].ToolCalls {
			if at, ok := open[c.ID]; ok && at == i {
				out = append(out, Unpaired{Message: i, ToolCallID: c.ID, Kind: "call"})
				delete(open, c.ID)
			}
		}
	}
	// Keep message order across both kinds.
	sortUnpaired(out)
	return out
}

func sortUnpaired(u []Unpaired) {
	// Insertion sort: the list is short and nearly sorted; stable.
	for i := 1; i < len(u); i++ {
		for j := i; j > 0 && u[j].Message < u[j-1].Message; j-- {
			u[j], u[j-1] = u[j-1], u[j]
		}
	}
}

// Chars is the size of the message in Unicode code points: its text plus
// the name and arguments of each tool call (an invalid UTF-8 byte counts
// as one).
func (m *Message) Chars() int {
	n := utf8.RuneCountInString(m.Text)
	for _, c := range m.ToolCalls {
		n += utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Arguments)
	}
	return n
}

// parseTime reads a timestamp: an RFC 3339 string (with or without
// fractional seconds), or a number of Unix seconds (milliseconds when it
// is too large to be seconds). null or absent gives the zero time.
func parseTime(raw json.RawMessage) (time.Time, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return time.Time{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return time.Time{}, err
		}
		if s == "" {
			return time.Time{}, nil
		}
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
			if ts, err := time.Parse(layout, s); err == nil {
				return ts, nil
			}
		}
		return time.Time{}, fmt.Errorf("timestamp %q is not RFC 3339", s)
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp must be an RFC 3339 string or Unix seconds, got %s", jsonKind(raw))
	}
	if f > 1e11 || f < -1e11 { // milliseconds
		f /= 1000
	}
	sec := int64(f)
	nsec := int64((f - float64(sec)) * 1e9)
	return time.Unix(sec, nsec).UTC(), nil
}

// argText renders tool-call arguments as text: a JSON string is taken as
// the text it holds (OpenAI sends arguments that way), anything else is
// the JSON itself, compacted.
func argText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) == nil {
		return buf.String()
	}
	return string(raw)
}
