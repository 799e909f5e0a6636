package window

import (
	"context"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Conversation is one conversation under one strategy, fed message by
// message as an agent loop produces it: the books [Replay] keeps for each
// strategy, open to a caller that has no transcript. It is the hook the
// live context (package live) is built on; [Replay] drives the same books
// through a transcript, so the windows are the same when the messages
// are.
//
// Every message given gets the next index (0, 1, 2, … in the order
// given, the ones not held included), and windows are reported in those
// indices, as a replay reports transcript indices.
//
// A Conversation is not safe for concurrent use; one strategy value may
// serve any number of them at once.
type Conversation struct {
	c     *conversation
	next  int
	parts []Part
	last  *window
	// sent are the messages the latest render sent (system part's
	// non-system messages first), keys how each was sent: the next
	// render copies only from where they differ.
	sent   []transcript.Message
	keys   []sentKey
	sysTxt string
	sysN   int
	sysSum string
	// cached is what the provider reported cached after the latest
	// call (cachedKnown: it was told); decisions are clear:auto's at
	// the latest render.
	cachedKnown bool
	cached      int
	decisions   []ClearDecision
	decideFn    func(ClearDecision)
}

// ClearDecision is one decision of clear:auto at a call
// with old tool results it could clear, in the terms of its rule.
type ClearDecision struct {
	// Cleared says whether it cleared them.
	Cleared bool
	// Results counts the candidates, FreedTokens what clearing them
	// frees (s).
	Results, FreedTokens int
	// Warm: the model's cache was counted on (its previous call within
	// the TTL). OverLimit: the call was over the window limit, which
	// clears whatever it may, whatever it costs.
	Warm, OverLimit bool
	// ExtraNowUSD is what clearing costs at this call beyond not
	// clearing (Δ: the rewrite of the cache from the oldest candidate
	// on, less the write it saves; negative when it saves at once;
	// +Inf where the window would fall below the shortest cached
	// prompt). SavedPerCallUSD is what each later call that reads the
	// cache saves (pr·s), ExpectedCalls how many the rule counts on (n̂),
	// and ExpectedSavingUSD = ExpectedCalls·SavedPerCallUSD −
	// ExtraNowUSD the saving it expects.
	ExtraNowUSD, SavedPerCallUSD, ExpectedCalls, ExpectedSavingUSD float64
}

// decisionOf is the decision clear:auto made at call a on a batch of n.
func decisionOf(a *autoCall, n int, cleared bool) ClearDecision {
	d := ClearDecision{Cleared: cleared, Results: n, FreedTokens: a.freed, Warm: a.warm, OverLimit: a.over}
	if !a.over {
		d.ExtraNowUSD = a.delta
		d.SavedPerCallUSD = a.pr * float64(a.freed)
		d.ExpectedCalls = a.expected
		d.ExpectedSavingUSD = a.expected*d.SavedPerCallUSD - a.delta
	}
	return d
}

type sentKey struct {
	index int
	how   string
}

// NewConversation returns an empty conversation under s; a strategy of
// [Strategies] is built with o.
func NewConversation(s Strategy, o Options) (*Conversation, error) {
	c, err := openConversation(s, o)
	if err != nil {
		return nil, err
	}
	return &Conversation{c: c}, nil
}

// ConversationWindow is what one call of a [Conversation] sends.
type ConversationWindow struct {
	// Parts are the runs of messages sent with how each was sent, in the
	// order they are sent: the system part, the rolling summary, the
	// conversation. Valid until the next Render.
	Parts []Part
	// Messages counts the messages sent, the system part included;
	// Chars and Tokens are their size (the counter's, or the sizes
	// given), without the overhead.
	Messages, Chars, Tokens int
	// Compaction is set when the strategy folded older turns into its
	// summary just before this call.
	Compaction *Compaction
	// OverBudget: the strategy chose under a budget its always-kept part
	// passes alone.
	OverBudget bool
	// Clears are clear:auto's decisions at this call (one per
	// clear:auto edit that had something to clear); valid until the
	// next Render.
	Clears []ClearDecision
}

// held reports whether a message with this tool-call id can be held: a
// tool result is held only when its call is (not in an aborted turn,
// not before the harness's latest summary).
func (v *Conversation) held(m *transcript.Message) bool {
	if m.ToolCallID == "" {
		return true
	}
	p, ok := v.c.h.callAt[m.ToolCallID]
	return ok && p < v.c.h.Len() && p >= v.c.h.reset
}

// entry measures m as the next message (tokens ≥ 0: that size).
func (v *Conversation) entry(m transcript.Message, tokens int) Entry {
	m.Index = v.next
	v.next++
	e := measureEntry(&m, 0, v.c.counter)
	if tokens >= 0 && tokens != e.Tokens {
		e.counted, e.Tokens = e.Tokens, tokens
	}
	return e
}

// AddSystem adds m to the system part, which every window sends, and
// returns its index.
func (v *Conversation) AddSystem(m transcript.Message) int {
	v.c.h.addSystem(v.entry(m, -1))
	return v.next - 1
}

// Begin opens a turn (committing one still open). Its first message, the
// user's prompt, follows with [Conversation.Add].
func (v *Conversation) Begin() { v.c.openTurn() }

// Open reports whether a turn is open.
func (v *Conversation) Open() bool { return v.c.h.open }

// Add appends m to the active turn (a prompt, a reply, a tool call, a
// tool result) and returns its index and whether it is held: a tool
// result whose call is not held (none before it, in an aborted turn, or
// before the harness's summary) is never sent. Without an open turn m
// joins the system part.
func (v *Conversation) Add(m transcript.Message) (int, bool) { return v.AddSized(m, -1) }

// AddSized is [Conversation.Add] with m's tokens given (tokens < 0: the
// counter's): a harness that knows what the provider billed for a
// message sizes it so. Placeholders are counted, and the parts of an
// edited message scaled in proportion.
func (v *Conversation) AddSized(m transcript.Message, tokens int) (int, bool) {
	if v.c.h.open && !v.held(&m) {
		v.next++
		return v.next - 1, false
	}
	e := v.entry(m, tokens)
	n := v.c.h.Len()
	v.c.add(e)
	return v.next - 1, !v.c.h.open || v.c.h.Len() > n
}

// Compacted records that the harness replaced its context with summary
// here (see the package doc): every strategy follows it. It returns the
// summary's index. Sized as [Conversation.AddSized].
func (v *Conversation) Compacted(summary transcript.Message, tokens int) int {
	v.c.compacted(v.entry(summary, tokens))
	return v.next - 1
}

// Commit ends the active turn, keeping it.
func (v *Conversation) Commit() { v.c.Commit() }

// Abort ends the active turn and drops it from the context.
func (v *Conversation) Abort() { v.c.Abort() }

// SetOverhead sets the tokens each call pays beyond its window (tool
// definitions, framing), which clearing's trigger counts.
func (v *Conversation) SetOverhead(tokens int) { v.c.SetOverhead(tokens) }

// FullTokens is what full would send now: the system part and every
// retained message, unedited, without the overhead.
func (v *Conversation) FullTokens() int {
	_, t := v.c.h.Size(v.c.h.reset, v.c.h.Len())
	return v.c.h.sysToks + t
}

// CallFacts are what a harness knows of the call it is about to make,
// for clear:auto: the model, the time, its prices per
// token and cache rule, the window limit. The zero value is a model with
// no cache, under which every clear pays.
type CallFacts struct {
	Model string
	At    time.Time
	// Rule is the model's cache rule ("" is [prices.CacheNone]).
	Rule prices.CacheRule
	// Input, CacheRead and CacheWrite are the prices per token (OpenAI:
	// CacheWrite is unused).
	Input, CacheRead, CacheWrite float64
	// TTL is the Anthropic entry's life (0: 5 minutes).
	TTL time.Duration
	// Limit is the context window (0: none); MinCache the provider's
	// shortest cached prompt.
	Limit, MinCache int
	// Spent and FullSpent, when Known, are what this conversation and
	// full really cost before this call: clear:auto then bounds a
	// clear's worst case by the saving really made.
	Known            bool
	Spent, FullSpent float64
}

// FactsFor returns the facts of a call to model at time at from the
// catalog (nil: [prices.Default]) under rule ("": the model's own) and
// ttl (0: 5 minutes; [cost.AnthropicLongTTL] writes at the 1-hour
// price), as [Replay] gives them to clear:auto. An unknown model has no
// prices: every clear pays.
func FactsFor(cat *prices.Catalog, model string, at time.Time, rule prices.CacheRule, ttl cost.TTL) CallFacts {
	if cat == nil {
		cat = prices.Default()
	}
	var md prices.Model
	if cat != nil {
		md = cat.LookupCall(model)
	}
	return factsOf(md, model, at, rule, ttl)
}

// factsOf are the facts of a call to model (md its catalog entry, the
// zero Model when unknown).
func factsOf(md prices.Model, model string, at time.Time, rule prices.CacheRule, ttl cost.TTL) CallFacts {
	f := CallFacts{Model: model, At: at, Rule: rule, Input: 1, CacheRead: 1, CacheWrite: 1}
	if md.Name != "" {
		f.Model = md.Name
	}
	if f.Rule == "" {
		f.Rule = md.CacheRule()
	}
	f.Limit = md.ContextWindow
	f.MinCache = cost.RuleOf(f.Rule).MinTokens(md.MinCacheTokens)
	if pr := md.Prices; pr != nil {
		f.Input, f.CacheRead, f.CacheWrite = pr.Input/1e6, pr.CacheRead/1e6, pr.CacheWrite5m/1e6
		if ttl == cost.AnthropicLongTTL {
			f.CacheWrite = pr.CacheWrite1h / 1e6
			f.TTL = time.Duration(cost.AnthropicLongTTL)
		}
	}
	return f
}

// info is f as clear:auto reads it.
func (f CallFacts) info() *callInfo {
	return &callInfo{
		model: f.Model, at: f.At, rule: cost.RuleOf(f.Rule),
		pi: f.Input, pr: f.CacheRead, pw: f.CacheWrite,
		limit: f.Limit, minCache: f.MinCache, ttl: f.TTL,
		real: f.Known, spent: f.Spent, fullSpent: f.FullSpent,
	}
}

// SetCall tells the conversation what the next call is (see
// [CallFacts]); it holds until set again.
func (v *Conversation) SetCall(f CallFacts) { v.c.info = f.info() }

// Render chooses the next call's window (running a pending compaction
// and the edits) and describes it. The time it takes grows with what
// changed since the call before and the window's runs, as in a replay.
func (v *Conversation) Render() (ConversationWindow, error) {
	if v.c.info == nil {
		v.SetCall(CallFacts{})
	}
	v.c.info.cachedKnown, v.c.info.cached = v.cachedKnown, v.cached
	if v.decideFn == nil {
		v.decideFn = v.decide
	}
	v.c.info.decided = v.decideFn
	v.cachedKnown = false
	v.decisions = v.decisions[:0]
	w, err := v.c.call()
	if err != nil {
		return ConversationWindow{}, err
	}
	v.last = w
	snap := v.c.snapshotOf(w)
	v.parts = v.c.parts(v.parts[:0], w)
	return ConversationWindow{
		Parts: v.parts, Messages: snap.Messages, Chars: snap.Chars, Tokens: snap.Tokens,
		Compaction: snap.Compaction, OverBudget: snap.OverBudget, Clears: v.decisions,
	}, nil
}

func (v *Conversation) decide(d ClearDecision) { v.decisions = append(v.decisions, d) }

// ObserveCache records what the provider reported cached at the latest
// call (tokens read from the cache plus those written to it): the cache
// holds no more than that for the next call, which clear:auto counts on
// in place of the previous window's size.
func (v *Conversation) ObserveCache(tokens int) {
	v.cachedKnown, v.cached = true, max(0, tokens)
}

// Rendered returns what the latest [Conversation.Render] sends,
// placeholders and summary in place (empty before the first), as
// [ShowCall] does. Messages is reused by the next call: it copies only
// the messages from the first one sent otherwise than the call before
// (the system part is joined again only when it changed).
func (v *Conversation) Rendered() Rendered {
	if v.last == nil {
		return Rendered{Messages: []transcript.Message{}}
	}
	c, w := v.c, v.last
	k, same := 0, true
	put := func(idx int, how string, msg func() transcript.Message) {
		if same && k < len(v.keys) && v.keys[k] == (sentKey{idx, how}) {
			if how == sentCleared && len(v.sent[k].ToolCalls) > 0 {
				// A call's arguments clear result by result.
				v.sent[k] = msg()
			}
			k++
			return
		}
		if same {
			same = false
			v.keys, v.sent = v.keys[:k], v.sent[:k]
		}
		v.keys = append(v.keys, sentKey{idx, how})
		v.sent = append(v.sent, msg())
		k++
	}
	for i := range c.h.sys {
		m := c.h.sys[i].Message
		if m.Role == transcript.RoleSystem {
			continue
		}
		put(m.Index, sentWhole, func() transcript.Message { return *m })
	}
	each := func(p int) {
		put(c.h.At(p).Message.Index, c.sent[p], func() transcript.Message { return c.sentMessage(p) })
	}
	if w.sel.Keep != nil {
		for _, p := range w.sel.Keep {
			each(p)
		}
	} else {
		for _, sp := range w.sel.Spans {
			for p := sp.Lo; p < sp.Hi; p++ {
				each(p)
			}
		}
	}
	if same {
		v.keys, v.sent = v.keys[:k], v.sent[:k]
	}
	if len(c.h.sys) != v.sysN || w.sel.Summary != v.sysSum {
		v.sysN, v.sysSum = len(c.h.sys), w.sel.Summary
		var sys []string
		for i := range c.h.sys {
			if m := c.h.sys[i].Message; m.Role == transcript.RoleSystem {
				sys = append(sys, m.Text)
			}
		}
		if w.sel.Summary != "" {
			sys = append(sys, w.sel.Summary)
		}
		v.sysTxt = strings.Join(sys, "\n\n")
	}
	msgs := v.sent
	if msgs == nil {
		msgs = []transcript.Message{}
	}
	return Rendered{System: v.sysTxt, Summary: w.sel.Summary, Messages: msgs}
}

// Observe records the provider's input tokens for the reply to the
// latest call (summarizing compacts before the next call when they pass
// its high-water mark).
func (v *Conversation) Observe(inputTokens int) { v.c.Observe(inputTokens) }

// Summary returns the rolling summary ("" when there is none).
func (v *Conversation) Summary() string { return v.c.Summary() }

// MessageSizes returns the tokens a [Replay] of t with opts sizes each
// message with, by transcript index: the counter's, or from the records
// ([Calibration]) unless opts.CountedSizes. A caller that drives a
// [Conversation] through t with these sizes ([Conversation.AddSized])
// sees the replay's windows. The calibration is nil when nothing was
// sized from the records.
func MessageSizes(ctx context.Context, t *transcript.Transcript, opts ReplayOptions) ([]int, *Calibration, error) {
	opts.Cost = nil
	r := newReplayer(t, opts)
	if err := r.calibrate(ctx); err != nil {
		return nil, nil, err
	}
	entries := r.measured()
	out := make([]int, len(entries))
	for i := range entries {
		out[i] = entries[i].Tokens
	}
	return out, r.calibration, nil
}

// liveInfo gives the call's facts what a live context would know of the
// call before: what the provider reported cached there ([ReplayOptions.Live]).
func liveInfo(prev, ci *callInfo) {
	if prev != nil && prev.sawKnown {
		ci.cachedKnown, ci.cached = true, prev.saw
	}
}

// liveSaw records what the cost model says call left cached (read +
// written), under a rule that writes (Anthropic's), as a live context
// observes it.
func liveSaw(ci *callInfo, call *Call) {
	if call.CallCost != nil && ci.rule.Writes() {
		ci.sawKnown, ci.saw = true, call.Cache.Read+call.Cache.Write
	}
}
