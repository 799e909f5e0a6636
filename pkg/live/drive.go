package live

import (
	"context"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// DriveOptions tune [Drive].
type DriveOptions struct {
	// Sizes, when set, are the messages' tokens by transcript index
	// ([window.MessageSizes] gives a replay's); else the counter's.
	Sizes []int
	// ContextWindow is the window limit clear:auto is told (0: none).
	ContextWindow int
}

// Drive runs the transcript through c as an agent loop would have: the
// system part, each turn opened by its first message (a harness
// compaction summary recorded as such), every message added in order,
// a render before each assistant reply (assistant messages sharing a
// non-empty Call are one reply), the provider's recorded prompt observed
// after it, and each turn committed, or aborted when the transcript says
// so. The overhead of a call that records its prompt is the record less
// what full would have sent over the same messages, as [window.Replay]
// counts it. each is given every call's snapshot; an error from it stops
// the drive. c should be fresh (no system prompt or history), so its
// indices are the transcript's.
func Drive(ctx context.Context, t *transcript.Transcript, c *Context, o DriveOptions, each func(*Snapshot) error) error {
	summary := make([]bool, len(t.Messages))
	for _, i := range t.Compactions {
		if i >= 0 && i < len(summary) {
			summary[i] = true
		}
	}
	aborted := map[int]bool{}
	for i := range t.Messages {
		if t.Messages[i].Aborted {
			aborted[t.Messages[i].Turn] = true
		}
	}
	v := c.conv
	size := func(i int) int {
		if o.Sizes != nil {
			return o.Sizes[i]
		}
		return -1
	}
	end := func(turn int) {
		if turn > 0 && aborted[turn] {
			v.Abort()
		} else {
			v.Commit()
		}
	}
	cur, prevCall := 0, ""
	sysEnd := window.SystemPartEnd(t.Messages)
	for i := range t.Messages {
		if i&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		m := &t.Messages[i]
		if m.Turn != cur {
			end(cur)
			cur = m.Turn
			if cur > 0 {
				v.Begin()
				if summary[i] {
					v.Compacted(*m, size(i))
				} else {
					v.AddSized(*m, size(i))
				}
				continue
			}
		}
		if summary[i] {
			v.Compacted(*m, size(i))
			continue
		}
		if m.Role == transcript.RoleAssistant && !m.Meta {
			if m.Call == "" || m.Call != prevCall {
				if err := c.driveCall(ctx, m, o, each); err != nil {
					return err
				}
			}
			prevCall = m.Call
		}
		switch {
		case m.Turn > 0:
			v.AddSized(*m, size(i))
		case i < sysEnd:
			v.AddSystem(*m)
		default:
			// Replies before the first prompt form a turn of their own.
			if !v.Open() {
				v.Begin()
			}
			v.AddSized(*m, size(i))
		}
	}
	end(cur)
	return nil
}

// driveCall renders the call before reply m and observes its record.
func (c *Context) driveCall(ctx context.Context, m *transcript.Message, o DriveOptions, each func(*Snapshot) error) error {
	overhead := 0
	if m.InputTokens != nil {
		overhead = *m.InputTokens - c.conv.FullTokens()
	}
	c.conv.SetOverhead(overhead)
	if !c.priced {
		c.conv.SetCall(window.CallFacts{Model: m.Model, At: m.Timestamp, Input: 1, CacheRead: 1, CacheWrite: 1, Limit: o.ContextWindow})
	}
	s, err := c.Render(ctx)
	if err != nil {
		return err
	}
	observed := s.Tokens
	if m.InputTokens != nil {
		observed = max(0, s.Tokens+overhead)
	}
	c.conv.Observe(observed)
	return each(s)
}
