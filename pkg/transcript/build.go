package transcript

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// builder collects the messages of one transcript. Turns are numbered and
// tool calls paired as messages settle, so a reader may decide late that a
// message opens a turn (Codex marks human prompts with a separate event).
//
// With a sink, the builder hands each message on once the next turn has
// opened (nothing can change it any more) and drops it: memory then holds
// one turn, not the whole transcript.
type builder struct {
	t        *Transcript
	opens    []bool // for t.Messages: whether each opens a turn
	base     int    // messages handed to the sink and dropped
	settled  int    // messages numbered and paired so far
	lastOpen int    // index of the latest turn-opening message, or -1
	sink     func(*Message) error
	sinkErr  error
	calls    map[string]int // open tool calls: id → message index
	scratch  Message        // stands in for a message already handed on

	// With a sink: the input's name, the line being read (JSONL), and
	// for t.Messages the line each came from (its usage's line when that
	// came later), so that an overflow the sink reports names it; ctx
	// stops the hand-over once done.
	name  string
	line  int
	lines []int
	ctx   context.Context
}

func newBuilder(format Format) *builder {
	return &builder{t: &Transcript{Format: format, Skipped: map[string]int{}}, lastOpen: -1, calls: map[string]int{}}
}

// count is the number of messages added so far.
func (b *builder) count() int { return b.base + len(b.t.Messages) }

// msg returns message i for a late change. A message already handed to
// the sink can no longer change: the change goes to a scratch copy.
func (b *builder) msg(i int) *Message {
	if i < b.base {
		b.scratch = Message{}
		return &b.scratch
	}
	return &b.t.Messages[i-b.base]
}

// add appends m. opens says whether m opens a new turn (a human prompt).
// It returns the index of the message.
func (b *builder) add(m Message, opens bool) int {
	if opens {
		b.flush(b.count())
	}
	m.Index = b.count()
	b.t.Messages = append(b.t.Messages, m)
	b.opens = append(b.opens, opens)
	if b.sink != nil {
		b.lines = append(b.lines, b.line)
	}
	if opens {
		b.lastOpen = m.Index
	}
	return m.Index
}

// usageAt notes that message i's usage was read from the current line.
func (b *builder) usageAt(i int) {
	if b.sink != nil && i >= b.base {
		b.lines[i-b.base] = b.line
	}
}

// open marks message i as opening a turn.
func (b *builder) open(i int) {
	if i < b.base {
		return
	}
	b.flush(i)
	b.opens[i-b.base] = true
	b.lastOpen = max(b.lastOpen, i)
}

// skip counts a record that is not a message.
func (b *builder) skip(kind string) { b.t.Skipped[kind]++ }

// abort marks every message of the current turn, so far, as aborted.
// Before the first turn there is nothing to abort: the event is counted
// as skipped.
func (b *builder) abort() {
	if b.lastOpen < 0 {
		b.skip("abort")
		return
	}
	for i := b.lastOpen; i < b.count(); i++ {
		b.msg(i).Aborted = true
	}
}

// compaction records that the harness compacted its context at the next
// message to be added.
func (b *builder) compaction() {
	n := b.count()
	if c := b.t.Compactions; len(c) > 0 && c[len(c)-1] == n {
		return
	}
	b.t.Compactions = append(b.t.Compactions, n)
}

// settle numbers the turns of messages up to (not including) upto and
// pairs their tool calls and results.
func (b *builder) settle(upto int) {
	t := b.t
	for i := b.settled; i < upto; i++ {
		m := &t.Messages[i-b.base]
		if b.opens[i-b.base] {
			t.Turns++
		}
		m.Turn = t.Turns
		if id := m.ToolCallID; id != "" {
			if _, ok := b.calls[id]; ok {
				delete(b.calls, id)
			} else {
				t.Unpaired = append(t.Unpaired, Unpaired{Message: i, ToolCallID: id, Kind: "result"})
			}
		}
		for _, c := range m.ToolCalls {
			if c.ID == "" {
				continue
			}
			if at, ok := b.calls[c.ID]; ok { // the same id called again before any result
				t.Unpaired = append(t.Unpaired, Unpaired{Message: at, ToolCallID: c.ID, Kind: "call"})
			}
			b.calls[c.ID] = i
		}
	}
	b.settled = max(b.settled, upto)
}

// flush settles the messages before upto and, with a sink, hands them on
// and drops them.
func (b *builder) flush(upto int) {
	if b.sink == nil || upto <= b.base {
		return
	}
	b.settle(upto)
	k := upto - b.base
	for i := 0; i < k; i++ {
		if b.sinkErr == nil && b.ctx != nil {
			b.sinkErr = b.ctx.Err()
		}
		if b.sinkErr == nil {
			where := ""
			if b.lines[i] == 0 { // a JSON document's
				where = fmt.Sprintf("message %d", b.base+i)
			}
			b.sinkErr = placeOverflow(b.sink(&b.t.Messages[i]), b.name, b.lines[i], where)
		}
	}
	clear(b.t.Messages[:k]) // let the texts go
	b.t.Messages = b.t.Messages[k:]
	b.opens = b.opens[k:]
	b.lines = b.lines[k:]
	b.base = upto
}

// finish settles every message, lists the calls left without a result,
// and returns the transcript (with a sink: without its messages).
func (b *builder) finish() *Transcript {
	t := b.t
	// A compaction marker with no message after it points nowhere.
	for len(t.Compactions) > 0 && t.Compactions[len(t.Compactions)-1] >= b.count() {
		t.Compactions = t.Compactions[:len(t.Compactions)-1]
		t.Skipped["compaction_without_summary"]++
	}
	if b.sink != nil {
		b.flush(b.count())
		t.Messages = nil
	} else {
		b.settle(b.count())
	}
	open := make([]Unpaired, 0, len(b.calls))
	for id, at := range b.calls {
		open = append(open, Unpaired{Message: at, ToolCallID: id, Kind: "call"})
	}
	// Message order; within a message, the order of its calls.
	slices.SortFunc(open, func(x, y Unpaired) int {
		if x.Message != y.Message {
			return cmp.Compare(x.Message, y.Message)
		}
		if c := cmp.Compare(b.callPos(x), b.callPos(y)); c != 0 {
			return c
		}
		return strings.Compare(x.ToolCallID, y.ToolCallID)
	})
	t.Unpaired = append(t.Unpaired, open...)
	slices.SortStableFunc(t.Unpaired, func(x, y Unpaired) int { return cmp.Compare(x.Message, y.Message) })
	b.calls = nil
	return t
}

// callPos is the position of u's call within its message, when the message
// is still held; 0 otherwise (ids then sort by name).
func (b *builder) callPos(u Unpaired) int {
	if u.Message < b.base || b.t.Messages == nil {
		return 0
	}
	for k, c := range b.t.Messages[u.Message-b.base].ToolCalls {
		if c.ID == u.ToolCallID {
			return k
		}
	}
	return 0
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
		return time.Time{}, fmt.Errorf("timestamp must be an RFC 3339 string or Unix seconds, got %s", jsonl.Kind(raw))
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
