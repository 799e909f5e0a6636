package window

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// ReplayOptions tune [Replay].
type ReplayOptions struct {
	// Options build the strategies of [Strategies]; Options.Counter
	// counts every strategy's tokens.
	Options
	// ContextWindow flags calls whose tokens exceed it; 0 flags none.
	ContextWindow int
	// Indices fills [Call.Messages] and [Call.Parts]. Without it a replay
	// costs time in proportion to the transcript, whatever the windows'
	// sizes.
	Indices bool
	// Progress, when set, is called now and then with the messages done
	// and the total, for each strategy in turn.
	Progress func(strategy string, done, total int)
	// OnCall, when set, is given every call of every strategy as it is
	// made, in the order of the strategies, with the compaction just
	// before it (nil for none); Replay then keeps no calls (the results
	// it returns have empty Calls), so its memory does not grow with the
	// calls and their windows. c is valid only during the call, its
	// Parts and Messages too: the next call reuses them.
	OnCall func(strategy string, c *Call, compaction *Event) error
	// OnResult, when set, is given each strategy's result (events and
	// totals) once its calls are done.
	OnResult func(r *Result) error
	// Cost, when set, prices every call under the provider's prompt
	// cache ([CostOptions]): [Call.CallCost] and [Totals.CostTotals].
	Cost *CostOptions
	// CountedSizes keeps the counter's sizes where the transcript records
	// its prompts; by default the messages are sized from the records
	// ([Calibration], [Totals.Calibration]).
	CountedSizes bool
	// Regret, with Cost, sets every strategy's [CostTotals.RegretUSD]:
	// its cost minus that of the cheapest plan (the cheapest strategy).
	Regret bool
	// Live, with Cost, replays clear:auto as a live context runs it
	// (live.go): its loss bound from its own books, not from what full
	// and it really cost, and what the cache held from the usage the
	// cost model gives its own previous call.
	Live bool
	// Limits, when set, replays t under each of these context windows
	// (ContextWindow is set to each in turn) and returns the results of
	// all of them, strategy by strategy, the limits in the order given,
	// each named "STRATEGY@LIMIT" with the limit written short (100000
	// as 100k). With OnCall, one strategy under one limit is replayed at
	// a time, so nothing holds the calls of several limits.
	Limits []int
	// Totals keeps only each strategy's totals, for a caller that sums
	// many sessions: no call is kept (each Result's Calls is empty, not
	// nil, so its JSON says []) and no indices are worked out. OnCall
	// must then be nil; OnResult and Progress are used.
	Totals bool
}

// TranscriptInfo describes the transcript replayed.
type TranscriptInfo struct {
	// File names the input when a report covers several.
	File string `json:"file,omitempty"`
	// ID names the conversation when the file holds several.
	ID       string `json:"conversation,omitempty"`
	Format   string `json:"format"`
	Messages int    `json:"messages"`
	Turns    int    `json:"turns"`
}

// Result is one strategy's replay.
type Result struct {
	Strategy string  `json:"strategy"`
	Calls    []Call  `json:"calls"`
	Events   []Event `json:"events"`
	Totals   Totals  `json:"totals"`
	// Plan is the cheapest plan's clears and drops (the cheapest strategy
	// only).
	Plan []PlanStep `json:"plan,omitempty"`
	// PlanUnfit lists the calls no schedule of the cheapest plan keeps
	// within the window limit, and by how much (the cheapest strategy
	// only).
	PlanUnfit []PlanUnfit `json:"plan_unfit,omitempty"`
}

// Call is one model call of a replay.
type Call struct {
	// Turn is the active turn (0 for a call before the first prompt).
	Turn int `json:"turn"`
	// Call numbers the calls of the transcript from 1.
	Call int `json:"call"`
	// Messages are the transcript indices sent, ascending, the system
	// part included (only with [ReplayOptions.Indices]); their JSON is
	// the runs of consecutive indices ([Indices]).
	Messages Indices `json:"messages"`
	// SummaryChars is the size of the rolling summary sent.
	SummaryChars int `json:"summary_chars"`
	// Chars and Tokens are the size sent (see [Replay] for tokens).
	Chars  int `json:"chars"`
	Tokens int `json:"tokens"`
	// FullTokens is what full sends at this call.
	FullTokens int `json:"full_tokens"`
	// OverWindow is set when Tokens exceed [ReplayOptions.ContextWindow].
	OverWindow bool `json:"over_window"`
	// OverBudget is set when the strategy chose under a budget and the
	// window's counted tokens pass it: what it always keeps (system part,
	// newest prompt) is alone over it.
	OverBudget bool `json:"over_budget"`
	// Parts are the window's pieces with how each was sent, in the order
	// they are sent: the system part, the rolling summary, the
	// conversation (only with [ReplayOptions.Indices]).
	Parts []Part `json:"parts"`
	// MessageCount is the number of messages sent; FullMessages the number
	// full would send.
	MessageCount int `json:"-"`
	FullMessages int `json:"-"`
	// Counted is the counter's tokens of the window as sent, before the
	// overhead is added.
	Counted int `json:"-"`
	// Recorded is set when the transcript has the provider's usage for
	// this call.
	Recorded bool `json:"-"`
	// CallCost is the call's cost (only with [ReplayOptions.Cost]).
	*CallCost
}

// The kinds of event.
const (
	// eventCompaction: the strategy folded older turns into its summary.
	eventCompaction = "compaction"
)

// Event is something a strategy did between calls.
type Event struct {
	// Kind is "compaction" (the strategy folded older turns into its
	// summary).
	Kind string `json:"kind"`
	// Turn and Call name the call the event happened before.
	Turn int `json:"turn"`
	Call int `json:"call"`
	Compaction
}

// Totals sum a replay.
type Totals struct {
	Calls      int `json:"calls"`
	TokensSent int `json:"tokens_sent"`
	TokensFull int `json:"tokens_full"`
	// SavedRatio is 1 − TokensSent/TokensFull, rounded to 3 decimals (0
	// when full sends nothing); negative when the strategy sends more.
	SavedRatio      float64 `json:"saved_ratio"`
	MaxCallTokens   int     `json:"max_call_tokens"`
	Compactions     int     `json:"compactions"`
	OverWindowCalls int     `json:"over_window_calls"`
	OverBudgetCalls int     `json:"over_budget_calls"`
	// CostTotals sum the calls' cost (only with [ReplayOptions.Cost]).
	*CostTotals
	// Calibration says how the messages were sized from the records
	// (the same for every strategy of a session; nil where the
	// transcript records no prompt, or with [ReplayOptions.CountedSizes]).
	Calibration *Calibration `json:"calibration,omitempty"`
}

// Replay runs the transcript through each strategy and reports every model
// call: a call happens before each assistant reply (assistant messages
// sharing a non-empty Call are one reply). Calls inside an aborted turn
// happen, with that turn active; the turn is dropped from the context when
// it ends. A tool result with no call before it (or whose call was in
// another turn, aborted), or whose call came before a harness compaction
// summary that is still in effect, is never sent. The transcript's
// compaction markers ([transcript.Transcript.Compactions]) reset the
// retained history of every strategy (see the package doc). A strategy of
// [Strategies] is built with opts.Options.
//
// Tokens: full's tokens at a call are the provider's recorded input tokens
// when the transcript has them, else the counter's count of full's window.
// Another strategy's tokens (and full's under an edit) are the counter's
// count of its window plus the same call's overhead, the recorded tokens
// minus full's counted tokens over the uncut history (0 without a
// record), never below 0: the part of the prompt a transcript does not
// show (tool schemas, framing) is paid by every strategy alike, and a cut
// or a placeholder never makes a call cost more. Summarizing observes
// these tokens to decide when to compact; clearing compares them with its
// trigger.
//
// Each strategy gets its own state from [Strategy.Start], so replays may
// run concurrently.
//
// [ReplayOptions.Limits] replays under several context windows,
// [ReplayOptions.Totals] keeps only the totals.
func Replay(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	switch {
	case len(opts.Limits) > 0:
		return replayLimits(ctx, t, strategies, opts)
	case opts.Totals:
		return replayTotals(ctx, t, strategies, opts)
	}
	return replay(ctx, t, strategies, opts)
}

// replay is [Replay] under one context window, calls kept or streamed.
func replay(ctx context.Context, t *transcript.Transcript, strategies []Strategy, opts ReplayOptions) ([]Result, error) {
	resolved := make([]Strategy, len(strategies))
	for i, s := range strategies {
		rs, err := resolve(s, opts.Options)
		if err != nil {
			return nil, err
		}
		resolved[i] = withContextWindow(rs, opts.ContextWindow)
	}
	r := newReplayer(t, opts)
	if err := r.calibrate(ctx); err != nil {
		return nil, err
	}
	// Full first, over the uncut history: every strategy's call is
	// measured against it.
	wantFull := slices.ContainsFunc(resolved, Strategy.Baseline)
	stream := opts.OnCall != nil
	fullRes, err := r.run(ctx, fullStrategy{}, nil, opts.Indices && wantFull && !stream)
	if err != nil {
		return nil, err
	}
	plans, regret, err := r.planAll(ctx, resolved, fullRes.Calls)
	if err != nil {
		return nil, err
	}
	out := make([]Result, 0, len(strategies))
	for i, s := range resolved {
		res := fullRes
		switch base := s.Baseline(); {
		case !base || stream:
			ref := fullRes.Calls
			if base {
				ref = nil // the baseline again, streamed: the record is its tokens
			}
			r.stream = stream
			res, err = r.run(ctx, s, ref, opts.Indices)
			r.stream = false
			if err != nil {
				return nil, err
			}
		case s.Name() != fullRes.Strategy:
			named := *fullRes
			named.Strategy = s.Name()
			res = &named
		}
		r.settle(res, plans[i], regret)
		if opts.OnResult != nil {
			if err := opts.OnResult(res); err != nil {
				return nil, err
			}
		}
		out = append(out, *res)
	}
	return out, nil
}

// renderCall replays t through s up to call n (1-based) and returns what
// that call sent, placeholders and summary in place, with its report (and
// parts). It is an error when t has fewer calls.
func renderCall(ctx context.Context, t *transcript.Transcript, s Strategy, opts ReplayOptions, n int) (Rendered, Call, error) {
	s, err := resolve(s, opts.Options)
	if err != nil {
		return Rendered{}, Call{}, err
	}
	s = withContextWindow(s, opts.ContextWindow)
	r := newReplayer(t, opts)
	if err := r.calibrate(ctx); err != nil {
		return Rendered{}, Call{}, err
	}
	fullRes, err := r.run(ctx, fullStrategy{}, nil, false)
	if err != nil {
		return Rendered{}, Call{}, err
	}
	if _, _, _, ok := cheapestOf(s); ok {
		p, err := r.plan(ctx, s, fullRes.Calls)
		if err != nil {
			return Rendered{}, Call{}, err
		}
		s = p.withEdits
	}
	if n < 1 || n > len(fullRes.Calls) {
		return Rendered{}, Call{}, fmt.Errorf("call %d %w: the transcript has %d calls", n, ErrCallRange, len(fullRes.Calls))
	}
	r.renderAt = n
	res, err := r.run(ctx, s, fullRes.Calls, true)
	if err != nil && !errors.Is(err, errRendered) {
		return Rendered{}, Call{}, err
	}
	return r.rendered, res.Calls[n-1], nil
}

// errRendered stops a replay once renderCall has its call.
var errRendered = errors.New("rendered")

type replayer struct {
	t    *transcript.Transcript
	opts ReplayOptions
	// renderAt, when above 0, renders that call into rendered and stops.
	renderAt int
	rendered Rendered
	// stream hands calls to OnCall instead of keeping them.
	stream bool
	// lastParts is how many parts the call before listed; parts and
	// indices, when streaming, are its Parts and Messages, reused.
	lastParts int
	parts     []Part
	indices   Indices
	calls     int    // calls made in the streamed run
	summary   []bool // message i is a harness compaction summary
	aborted   []bool // turn j was aborted
	orphan    []bool // message i is a tool result without a call before it
	// entries are the messages measured whole (edits apply on top)
	entries []Entry
	// fullUSD is what full's calls cost (the reference run's), when
	// costs are on; records is set when t records cache usage.
	fullUSD float64
	// fullRewrites is how many of full's calls rewrote the cache.
	fullRewrites int
	records      bool
	cr           *costRun // the current run's pricing (nil: costs off)
	// calib, during the sizing pass, sizes the messages from the records;
	// calibration is its outcome.
	calib       *calibrator
	calibration *Calibration
	// ttlFromRecords is set when no TTL was given: each recorded call
	// writes with the TTL its record shows.
	ttlFromRecords bool
	// fullBefore[k] is what full's first k calls cost.
	fullBefore []float64
	// trace, in tests, is handed to each run's pricing.
	trace func(model string, at time.Time, blocks []cost.Block)
	// probe, when set, is shown every call (the cheapest plan reads
	// the session so).
	probe func(c *conversation, w *window, m *transcript.Message, call *Call, overhead int)
	// models caches the catalog's models for clear:auto's prices.
	models map[string]prices.Model
}

func newReplayer(t *transcript.Transcript, opts ReplayOptions) *replayer {
	r := &replayer{t: t, opts: opts}
	r.summary = make([]bool, len(t.Messages))
	maxTurn := 0
	for i := range t.Messages {
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
	if co := opts.Cost; co != nil && co.Model == "" && co.Rule == "" && !namesModel(t) {
		// Nothing to price the calls with: no model named anywhere, and
		// no model or cache rule given.
		r.opts.Cost = nil
	}
	if r.opts.Cost != nil {
		r.records = recordsCache(t)
		r.ttlFromRecords = r.opts.Cost.TTL == 0
		if co := r.opts.Cost; co.TTL == 0 && writes1h(t) {
			// The records write the cache with the 1-hour TTL: so does
			// the replay, unless a TTL is given.
			c := *co
			c.TTL = cost.AnthropicLongTTL
			r.opts.Cost = &c
		}
	}
	return r
}

// writes1h reports whether most of the cache writes t records are
// 1-hour writes.
func writes1h(t *transcript.Transcript) bool {
	all, long := 0, 0
	for i := range t.Messages {
		if u := t.Messages[i].Usage; u != nil {
			all += u.CacheWrite
			long += u.CacheWrite1h
		}
	}
	return long > 0 && 2*long > all
}

// namesModel reports whether any message of t records the model that
// answered it.
func namesModel(t *transcript.Transcript) bool {
	for i := range t.Messages {
		if t.Messages[i].Model != "" {
			return true
		}
	}
	return false
}

// measured returns every message measured whole, once for all
// strategies.
func (r *replayer) measured() []Entry {
	if r.entries == nil {
		r.entries = make([]Entry, len(r.t.Messages))
		for i := range r.t.Messages {
			r.entries[i] = measureEntry(&r.t.Messages[i], 0, r.opts.Counter)
		}
	}
	return r.entries
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

// run replays one strategy. full holds full's calls over the uncut history
// (nil when running that full itself).
func (r *replayer) run(ctx context.Context, s Strategy, full []Call, indices bool) (*Result, error) {
	// The history never holds more than the transcript: size it once.
	c := newContext(s, r.opts.Counter, len(r.t.Messages))
	entries := r.measured()
	name := s.Name()
	res := &Result{Strategy: name, Calls: []Call{}, Events: []Event{}}
	if !r.stream {
		res.Calls = make([]Call, 0, len(full))
	}
	r.calls = 0
	r.cr = nil
	res.Totals.Calibration = r.calibration
	if co := r.opts.Cost; co != nil && r.calib == nil {
		sim, err := cost.NewSimulator(cost.Options{Rule: co.Rule, TTL: co.TTL, Catalog: co.Catalog})
		if err != nil {
			return nil, err
		}
		r.cr = &costRun{sim: sim, opts: co, full: full == nil, records: r.records, exact: r.calibration != nil, recordTTL: r.ttlFromRecords, trace: r.trace}
		c.cost.on = true
		res.Totals.CostTotals = &CostTotals{}
		if r.cr.full && r.records {
			res.Totals.Agreement = &cost.Agreement{}
			if r.cr.pure, err = cost.NewSimulator(cost.Options{Rule: co.Rule, TTL: co.TTL, Catalog: co.Catalog}); err != nil {
				return nil, err
			}
		}
	}
	cur := 0
	prevCall := ""
	msgs := r.t.Messages
	sysEnd := SystemPartEnd(msgs)
	for i := range msgs {
		if i&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if r.opts.Progress != nil && r.calib == nil {
				r.opts.Progress(name, i, len(msgs))
			}
		}
		m := &msgs[i]
		e := entries[i]
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
					if errors.Is(err, errRendered) {
						return res, err
					}
					return nil, err
				}
			}
			prevCall = m.Call
		}
		switch {
		case m.Turn > 0:
			c.add(e)
		case isSystemPart(msgs, i, sysEnd):
			c.h.addSystem(e)
		default:
			// Replies and tool traffic before the first prompt form a
			// turn of their own, which windows may drop like any other.
			if !c.h.open {
				c.openTurn()
			}
			c.push(e)
		}
	}
	r.end(c, cur)
	if r.opts.Progress != nil && r.calib == nil {
		r.opts.Progress(name, len(msgs), len(msgs))
	}
	if !r.stream {
		for i := range res.Calls {
			if err := res.Totals.add(name, &res.Calls[i]); err != nil {
				return nil, err
			}
		}
	}
	res.Totals.finish(len(res.Events))
	if r.cr != nil {
		if full == nil {
			r.fullUSD, r.fullRewrites = res.Totals.usd, res.Totals.rewrites.Calls
		}
		r.cr.finish(&res.Totals, r.fullUSD, r.fullRewrites)
	}
	return res, nil
}

// end closes turn cur: committed, or dropped when it was aborted.
func (r *replayer) end(c *conversation, cur int) {
	if cur > 0 && cur < len(r.aborted) && r.aborted[cur] {
		c.Abort()
	} else {
		c.Commit()
	}
}

// call takes the snapshot before reply m.
func (r *replayer) call(c *conversation, res *Result, m *transcript.Message, full []Call, indices bool) error {
	if r.calib != nil {
		if m.InputTokens != nil {
			r.calib.at(&c.h, *m.InputTokens)
		}
		return nil
	}
	n := len(res.Calls)
	if r.stream {
		n = r.calls
	}
	overhead := 0
	if full != nil && m.InputTokens != nil {
		overhead = *m.InputTokens - full[n].Counted
	}
	c.SetOverhead(overhead)
	prev := c.info
	c.info = r.callInfoOf(m)
	if r.opts.Live {
		liveInfo(prev, c.info)
	}
	if full != nil && res.Totals.CostTotals != nil && n < len(full) && !r.opts.Live {
		// What this strategy and full really cost before this call, for
		// clear:auto's bound.
		if len(r.fullBefore) != len(full)+1 {
			r.fullBefore = make([]float64, len(full)+1)
			for k := range full {
				r.fullBefore[k+1] = r.fullBefore[k]
				if full[k].CallCost != nil {
					r.fullBefore[k+1] += full[k].CallCost.CostUSD.Or(0)
				}
			}
		}
		c.info.real, c.info.spent, c.info.fullSpent = true, res.Totals.CostTotals.usd, r.fullBefore[n]
	}
	w, err := c.call()
	if err != nil {
		return err
	}
	snap := c.snapshotOf(w)
	call := Call{
		Turn:         m.Turn,
		Call:         n + 1,
		MessageCount: snap.Messages,
		SummaryChars: snap.SummaryChars,
		Chars:        snap.Chars,
		Tokens:       snap.Tokens,
		Counted:      snap.Tokens,
		Recorded:     m.InputTokens != nil,
		OverBudget:   snap.OverBudget,
	}
	if indices {
		// Room for the parts of the call before and a few more: a
		// window mostly grows by a few runs, and its parts are then
		// not grown (and copied) run by run.
		var parts []Part
		var msgs Indices
		if r.stream {
			// The call is OnCall's only while it runs: its parts and
			// indices reuse the call before's.
			parts, msgs = r.parts[:0], slices.Grow(r.indices[:0], snap.Messages)
			if msgs == nil {
				msgs = Indices{} // an empty window's "messages" is [], not null
			}
		} else {
			parts, msgs = make([]Part, 0, r.lastParts+r.lastParts/8+4), make(Indices, 0, snap.Messages)
		}
		call.Parts = c.parts(parts, w)
		r.lastParts = len(call.Parts)
		call.Messages = msgs
		for _, p := range call.Parts {
			for i := p.From; i <= p.To && p.Sent != sentSummary; i++ {
				call.Messages = append(call.Messages, i)
			}
		}
		// A system message can follow replies made before the first
		// prompt: the indices are listed in order.
		if !slices.IsSorted(call.Messages) {
			slices.Sort(call.Messages)
		}
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
			call.Tokens = max(0, snap.Tokens+overhead)
		}
	}
	call.OverWindow = r.opts.ContextWindow > 0 && call.Tokens > r.opts.ContextWindow
	if r.cr != nil {
		// The unseen overhead: recorded prompt minus full's counted
		// tokens (full's own count for full itself).
		ov := overhead
		if full == nil && m.InputTokens != nil {
			ov = *m.InputTokens - snap.Tokens
		}
		var ref *Call
		if full != nil {
			ref = &full[n]
		}
		if err := r.cr.price(c, w, m, &call, ref, ov, &res.Totals); err != nil {
			return err
		}
		if r.opts.Live {
			liveSaw(c.info, &call)
		}
	}
	if r.probe != nil {
		r.probe(c, w, m, &call, overhead)
	}
	c.Observe(call.Tokens)
	var ev *Event
	if snap.Compaction != nil {
		res.Events = append(res.Events, Event{Kind: eventCompaction, Turn: call.Turn, Call: call.Call, Compaction: *snap.Compaction})
		ev = &res.Events[len(res.Events)-1]
	}
	if r.stream {
		if err := res.Totals.add(res.Strategy, &call); err != nil {
			return err
		}
		r.calls++
		err := r.opts.OnCall(res.Strategy, &call, ev)
		r.parts, r.indices = call.Parts, call.Messages
		return err
	}
	res.Calls = append(res.Calls, call)
	if r.renderAt == call.Call {
		r.rendered = c.render(w)
		return errRendered
	}
	return nil
}

// add counts call c of strategy. The sums are checked: tokens that do
// not fit an int are a [*engine.TokenOverflowError], never a wrapped
// number.
func (t *Totals) add(strategy string, c *Call) error {
	sent, err := engine.AddTokens(t.TokensSent, c.Tokens, "the tokens "+strategy+" sends")
	if err != nil {
		return err
	}
	full, err := engine.AddTokens(t.TokensFull, c.FullTokens, "the tokens full sends")
	if err != nil {
		return err
	}
	t.Calls++
	t.TokensSent, t.TokensFull = sent, full
	t.MaxCallTokens = max(t.MaxCallTokens, c.Tokens)
	if c.OverWindow {
		t.OverWindowCalls++
	}
	if c.OverBudget {
		t.OverBudgetCalls++
	}
	return nil
}

// Add adds u's sums to t (calls, tokens, the calls over the window or
// the budget, compactions, cost; the largest call is the larger of the
// two) and sets the saved ratios of the sum, as totals over several sessions are
// worked out. Token sums that do not fit an int are a
// [*engine.TokenOverflowError] naming what, and t is left as it was.
func (t *Totals) Add(u Totals, what string) error {
	sent, err := engine.AddTokens(t.TokensSent, u.TokensSent, "the tokens "+what+" sends")
	if err != nil {
		return err
	}
	full, err := engine.AddTokens(t.TokensFull, u.TokensFull, "the tokens full sends")
	if err != nil {
		return err
	}
	if u.CostTotals != nil {
		sum := &CostTotals{UnpricedModels: []string{}}
		if t.CostTotals != nil {
			*sum = *t.CostTotals
			sum.UnpricedModels = slices.Clone(t.CostTotals.UnpricedModels)
			if a := t.CostTotals.Agreement; a != nil {
				ac := *a
				sum.Agreement = &ac
			}
		}
		if err := sum.add(u.CostTotals); err != nil {
			return err
		}
		t.CostTotals = sum
	}
	t.Calls += u.Calls
	t.TokensSent, t.TokensFull = sent, full
	t.MaxCallTokens = max(t.MaxCallTokens, u.MaxCallTokens)
	t.OverWindowCalls += u.OverWindowCalls
	t.OverBudgetCalls += u.OverBudgetCalls
	t.finish(t.Compactions + u.Compactions)
	return nil
}

// finish sets the compactions and the saved ratio.
func (t *Totals) finish(compactions int) {
	t.Compactions = compactions
	if t.TokensFull > 0 {
		t.SavedRatio = math.Round((1-float64(t.TokensSent)/float64(t.TokensFull))*1000) / 1000
	}
}

// isSystemPart reports whether message i of msgs belongs to the system
// part every window keeps: a system message, or injected context (Meta),
// in the leading run of them, before the first prompt and the first reply
// (see [SystemPartEnd]).
func isSystemPart(msgs []transcript.Message, i, end int) bool {
	return i < end && isSystemKind(&msgs[i])
}

func isSystemKind(m *transcript.Message) bool {
	return m.Turn == 0 && (m.Role == transcript.RoleSystem || m.Meta)
}

// SystemPartEnd returns the index of the first message of msgs past the
// system part: the leading run of system messages and injected context
// (Meta) before the first prompt. Injected context that comes after a
// reply, in a session whose prompts all came as injected context (a
// Claude Code session started with a command has no prompt turn), is
// conversation: the harness sends it where it came, after the messages
// before it, not in front of them.
func SystemPartEnd(msgs []transcript.Message) int {
	for i := range msgs {
		if !isSystemKind(&msgs[i]) {
			return i
		}
	}
	return len(msgs)
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
