package window

import (
	"context"
	"math"
	"slices"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// ReplayOptions tune [Replay].
type ReplayOptions struct {
	Options
	// ContextWindow flags calls whose tokens exceed it; 0 flags none.
	ContextWindow int
	// Indices fills [Call.Messages]. Without it a replay costs time in
	// proportion to the transcript, whatever the windows' sizes.
	Indices bool
	// Progress, when set, is called now and then with the messages done
	// and the total, for each strategy in turn.
	Progress func(strategy Strategy, done, total int)
}

// Result is one strategy's replay.
type Result struct {
	Strategy Strategy
	Calls    []Call
	Events   []Event
	Totals   Totals
}

// Call is one model call of a replay.
type Call struct {
	// Turn is the active turn (0 for a call before the first prompt).
	Turn int
	// Call numbers the calls of the transcript from 1.
	Call int
	// Messages are the transcript indices sent, the system part included
	// (only with [ReplayOptions.Indices]).
	Messages []int
	// MessageCount is the number of messages sent; FullMessages the number
	// full would send.
	MessageCount, FullMessages int
	// SummaryChars is the size of the rolling summary sent.
	SummaryChars int
	// Chars and Tokens are the size sent (see [Replay] for tokens).
	Chars, Tokens int
	// FullTokens is what full sends at this call.
	FullTokens int
	// Recorded is set when the transcript has the provider's usage for
	// this call.
	Recorded bool
	// OverWindow is set when Tokens exceed [ReplayOptions.ContextWindow].
	OverWindow bool
	// counted is the counter's tokens, before the record replaced them.
	counted int
}

// Event is something a strategy did between calls.
type Event struct {
	// Kind is "compaction".
	Kind string
	// Turn and Call name the call the event happened before.
	Turn, Call int
	Compaction
}

// Totals sum a replay.
type Totals struct {
	Calls      int
	TokensSent int
	TokensFull int
	// SavedRatio is 1 − TokensSent/TokensFull, rounded to 3 decimals (0
	// when full sends nothing); negative when the strategy sends more.
	SavedRatio      float64
	MaxCallTokens   int
	Compactions     int
	OverWindowCalls int
}

// Replay runs the transcript through each strategy and reports every model
// call: a call happens before each assistant reply (assistant messages
// sharing a non-empty Call are one reply). Calls inside an aborted turn
// happen, with that turn active; the turn is dropped from the context when
// it ends. A tool result with no call before it (or whose call was in
// another turn, aborted), or whose call came before a harness compaction
// summary that is still in effect, is never sent. The transcript's
// compaction markers ([transcript.Transcript.Compactions]) reset the
// retained history of every strategy (see the package doc).
//
// Tokens: full's tokens at a call are the provider's recorded input tokens
// when the transcript has them, else the counter's count of full's window.
// Another strategy's tokens are the counter's count of its window plus the
// same call's overhead, the recorded tokens minus full's counted tokens (0
// without a record), never below 0: the part of the prompt a transcript
// does not show (tool schemas, framing) is paid by every strategy alike.
// Summarizing observes these tokens to decide when to compact.
func Replay(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	for _, s := range strategies {
		if _, err := ParseStrategy(string(s)); err != nil {
			return nil, err
		}
		if err := opts.check(s); err != nil {
			return nil, err
		}
	}
	r := newReplayer(t, opts)
	// Full first: every strategy's call is measured against it.
	wantFull := slices.Contains(strategies, Full)
	fullRes, err := r.run(ctx, Full, nil, opts.Indices && wantFull)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(strategies))
	for _, s := range strategies {
		if s == Full {
			out = append(out, *fullRes)
			continue
		}
		res, err := r.run(ctx, s, fullRes.Calls, opts.Indices)
		if err != nil {
			return nil, err
		}
		out = append(out, *res)
	}
	return out, nil
}

type replayer struct {
	t       *transcript.Transcript
	opts    ReplayOptions
	entries []Entry
	summary []bool // message i is a harness compaction summary
	aborted []bool // turn j was aborted
	orphan  []bool // message i is a tool result without a call before it
}

func newReplayer(t *transcript.Transcript, opts ReplayOptions) *replayer {
	r := &replayer{t: t, opts: opts}
	r.entries = make([]Entry, len(t.Messages))
	r.summary = make([]bool, len(t.Messages))
	maxTurn := 0
	for i := range t.Messages {
		r.entries[i] = Measure(t.Messages[i], opts.ToolResultLimit, opts.Counter)
		maxTurn = max(maxTurn, t.Messages[i].Turn)
	}
	for _, i := range t.Compactions {
		if i >= 0 && i < len(r.summary) {
			r.summary[i] = true
		}
	}
	r.aborted = make([]bool, maxTurn+1)
	for i := range t.Messages {
		if t.Messages[i].Aborted {
			r.aborted[t.Messages[i].Turn] = true
		}
	}
	r.orphan = orphans(t, r.summary, r.aborted, nil)
	return r
}

// orphans marks the tool results no window may send: a result with no call
// before it (the transcript lists it in Unpaired), whose call was in
// another turn that was aborted, whose call is in folded (a rolling
// summary), or whose call came before a harness compaction summary still
// in effect at the result (one not in an aborted turn other than the
// result's): that summary replaced the call. summary marks the harness
// summaries, aborted the aborted turns.
func orphans(t *transcript.Transcript, summary, aborted []bool, folded map[int]bool) []bool {
	isAborted := func(turn int) bool { return turn >= 0 && turn < len(aborted) && aborted[turn] }
	out := make([]bool, len(t.Messages))
	called := map[string]int{}
	lastSummary := -1 // the latest summary in effect for the turn of message i
	prevSummary := -1 // the latest one before the turn of message i, in effect after it
	turn := 0
	for i := range t.Messages {
		m := &t.Messages[i]
		if m.Turn != turn {
			// A new turn: a summary of the turn just ended stays in effect
			// unless that turn was aborted.
			if turn > 0 && isAborted(turn) {
				lastSummary = prevSummary
			}
			prevSummary, turn = lastSummary, m.Turn
		}
		if summary[i] {
			lastSummary = i
		}
		if m.ToolCallID != "" {
			c, ok := called[m.ToolCallID]
			out[i] = !ok || folded[c] || c < lastSummary ||
				(isAborted(t.Messages[c].Turn) && t.Messages[c].Turn != m.Turn)
		}
		for _, tc := range m.ToolCalls {
			called[tc.ID] = i
		}
	}
	return out
}

// run replays one strategy. full holds full's calls (nil when running
// full itself).
func (r *replayer) run(ctx context.Context, s Strategy, full []Call, indices bool) (*Result, error) {
	c, err := New(s, r.opts.Options)
	if err != nil {
		return nil, err
	}
	// The history never holds more than the transcript: size it once.
	n := len(r.t.Messages)
	c.hist = make([]Entry, 0, n)
	c.cumC = append(make([]int, 0, n+1), 0)
	c.cumT = append(make([]int, 0, n+1), 0)
	res := &Result{Strategy: s, Calls: make([]Call, 0, len(full)), Events: []Event{}}
	cur := 0
	prevCall := ""
	msgs := r.t.Messages
	for i := range msgs {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if r.opts.Progress != nil {
				r.opts.Progress(s, i, len(msgs))
			}
		}
		m := &msgs[i]
		e := r.entries[i]
		if m.Turn != cur {
			r.end(c, cur)
			cur = m.Turn
			if cur > 0 {
				// A turn opens, possibly with a harness summary.
				c.openTurn()
				switch {
				case r.orphan[i]:
				case r.summary[i]:
					c.compacted(e)
				default:
					c.push(e)
				}
				continue
			}
		}
		if r.summary[i] {
			c.compacted(e)
			continue
		}
		if r.orphan[i] {
			continue
		}
		if m.Role == transcript.RoleAssistant && !m.Meta {
			if m.Call == "" || m.Call != prevCall {
				if err := r.call(c, res, m, full, indices); err != nil {
					return nil, err
				}
			}
			prevCall = m.Call
		}
		switch {
		case m.Turn > 0:
			c.add(e)
		case isSystemPart(m):
			c.addSystem(e)
		default:
			// Replies and tool traffic before the first prompt form a
			// turn of their own, which windows may drop like any other.
			if !c.open {
				c.openTurn()
			}
			c.push(e)
		}
	}
	r.end(c, cur)
	if r.opts.Progress != nil {
		r.opts.Progress(s, len(msgs), len(msgs))
	}
	res.Totals = totals(res)
	return res, nil
}

// end closes turn cur: committed, or dropped when it was aborted.
func (r *replayer) end(c *Context, cur int) {
	if cur > 0 && cur < len(r.aborted) && r.aborted[cur] {
		c.Abort()
	} else {
		c.Commit()
	}
}

// call takes the snapshot before reply m.
func (r *replayer) call(c *Context, res *Result, m *transcript.Message, full []Call, indices bool) error {
	snap, pos, err := c.snapshot(indices)
	if err != nil {
		return err
	}
	n := len(res.Calls)
	call := Call{
		Turn:         m.Turn,
		Call:         n + 1,
		MessageCount: snap.Messages,
		SummaryChars: snap.SummaryChars,
		Chars:        snap.Chars,
		Tokens:       snap.Tokens,
		Recorded:     m.InputTokens != nil,
		counted:      snap.Tokens,
	}
	if pos != nil {
		call.Messages = c.indices(pos)
	}
	if full == nil {
		// Full itself: the record when there is one.
		call.FullMessages = snap.Messages
		if m.InputTokens != nil {
			call.Tokens = *m.InputTokens
		}
		call.FullTokens = call.Tokens
	} else {
		f := full[n]
		call.FullMessages = f.MessageCount
		call.FullTokens = f.FullTokens
		if m.InputTokens != nil {
			call.Tokens = max(0, snap.Tokens+*m.InputTokens-f.counted)
		}
	}
	call.OverWindow = r.opts.ContextWindow > 0 && call.Tokens > r.opts.ContextWindow
	c.Observe(call.Tokens)
	if snap.Compaction != nil {
		res.Events = append(res.Events, Event{Kind: "compaction", Turn: call.Turn, Call: call.Call, Compaction: *snap.Compaction})
	}
	res.Calls = append(res.Calls, call)
	return nil
}

func totals(res *Result) Totals {
	t := Totals{Calls: len(res.Calls), Compactions: len(res.Events)}
	for _, c := range res.Calls {
		t.TokensSent += c.Tokens
		t.TokensFull += c.FullTokens
		t.MaxCallTokens = max(t.MaxCallTokens, c.Tokens)
		if c.OverWindow {
			t.OverWindowCalls++
		}
	}
	if t.TokensFull > 0 {
		t.SavedRatio = math.Round((1-float64(t.TokensSent)/float64(t.TokensFull))*1000) / 1000
	}
	return t
}

// isSystemPart reports whether m belongs to the system part every window
// keeps: a system message, or injected context (Meta), before the first
// user prompt.
func isSystemPart(m *transcript.Message) bool {
	return m.Turn == 0 && (m.Role == transcript.RoleSystem || m.Meta)
}

// Summarized returns the transcript indices folded into the summary that
// call n (1-based) is sent with: every compaction's Folded up to it.
func (r *Result) Summarized(n int) []int {
	var out []int
	for _, e := range r.Events {
		if e.Call <= n {
			out = append(out, e.Folded...)
		}
	}
	return out
}
