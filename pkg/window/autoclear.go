package window

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// autoClearEdit ("clear:auto") clears old tool results when the clear
// pays for itself, deciding at each call from what came before only, as
// a harness must. At call i, with the candidates those clear would
// take (every tool result held save the newest Keep, those of a tool in
// ExcludeTools, those already cleared), freeing s tokens, the oldest of
// them at position q:
//
//	extra now  Δ = (pw − pr)·(W₋ − R) − pw·s
//	saved then    pr·s at every later call that reads the cache
//	n̂ = min(i − 1, s / a)
//	clear iff     Δ ≤ 0, or n̂·pr·s ≥ Δ and Δ ≤ B + 0.01·F
//
// where pr, pw are the model's cache-read and cache-write prices per token
// (OpenAI: pw is the uncached input price; no cache: pr = pw = input, so
// Δ < 0 and every clear pays), W₋ the tokens the previous call sent
// (what the cache holds), R what the cache holds before q (the previous
// window whole when q is past its end; else the window of the latest
// earlier call of the model that ended at or before q, written since the
// last clear and still live; else the system part and the unseen
// overhead; OpenAI caches any prefix, so all before q; never more than
// this call sends before q), n̂ the
// calls the saving is expected to last: until as much has grown
// clearable again, a the tokens cleared so far (s included) per call made,
// and no more calls than made so far; B the saving banked so far (what the earlier clears saved, less
// what they cost) and F what full would have cost so far. When the
// model's cache is cold anyway (its previous call is older than the TTL,
// or there is none) R = W₋ = 0, and after a harness compaction W₋ = R:
// Δ = −pw·s, the clear is free. A call
// over the window limit clears whatever it may. The last condition bounds
// the loss should the session end at once: a clear never puts the session
// more than 1% of full's cost behind.
type autoClearEdit struct {
	Keep         int
	ExcludeTools []string
	ClearInputs  bool
}

// Name returns "clear".
func (autoClearEdit) Name() string { return "clear" }

func (e autoClearEdit) start() editState { return &autoState{cfg: e, lastAt: map[string]time.Time{}} }

// callInfo is what a live harness knows of the call it is about to make.
type callInfo struct {
	model      string
	at         time.Time
	rule       cost.Rule
	pr, pw, pi float64
	limit      int
	minCache   int
	ttl        time.Duration // the Anthropic TTL (0: 5 minutes)
	// real is set when the replay knows what this strategy and full
	// really cost before this call (spent, fullSpent).
	real             bool
	spent, fullSpent float64
	// cached, when cachedKnown, is what the provider reported cached
	// after the previous call (read + written): the cache holds no more
	// (a live context's observation). decided, when set, is told each
	// decision (live.go).
	cachedKnown bool
	cached      int
	decided     func(ClearDecision)
	// saw, when sawKnown, is what the cost model says this call left
	// cached ([ReplayOptions.Live]).
	sawKnown bool
	saw      int
}

type autoState struct {
	cfg    autoClearEdit
	mine   []int // positions cleared, in order
	saving []int // tokens each freed
	// prevTokens, prevLen: the previous call's window and history
	// length; lastAt each model's latest call.
	prevTokens, prevLen int
	lastAt              map[string]time.Time
	calls, resets       int
	clearable           int // tokens cleared so far
	bank, fullSpent     float64
	// frontHeld is the system part and unseen overhead as the cache
	// holds them: as the latest cold call wrote them, no more than any
	// warm call since sent (an overhead sized from the records grows as
	// the counter falls behind them, but the entry keeps what was
	// written; frontSet: there was such a call).
	frontHeld int
	frontSet  bool
	// marks are the cache entries the calls wrote at their windows'
	// ends, on the current path: a clear cuts those that end after it.
	marks []autoMark
}

// autoMark is the entry a call wrote at its window's end: the history
// positions before end, tokens in all, live until until.
type autoMark struct {
	end, tokens int
	model       string
	until       time.Time
	resets      int
}

// abort forgets the clears and entries of the positions from start on
// (n, the results left, is the other edits' measure).
func (s *autoState) abort(_, start int) {
	k := len(s.mine)
	for k > 0 && s.mine[k-1] >= start {
		k--
	}
	s.mine, s.saving = s.mine[:k], s.saving[:k]
	s.cutMarks(start)
}

// cutMarks drops the entries that end after position q.
func (s *autoState) cutMarks(q int) {
	k := len(s.marks)
	for k > 0 && s.marks[k-1].end > q {
		k--
	}
	s.marks = s.marks[:k]
}

// entryBefore returns the tokens of the latest live entry of model that
// ends at or before position q (0: none).
func (s *autoState) entryBefore(q int, model string, at time.Time, resets int) int {
	for j := len(s.marks) - 1; j >= 0; j-- {
		m := &s.marks[j]
		if m.end > q || m.model != model || m.resets != resets {
			continue
		}
		if at.IsZero() || m.until.IsZero() || !at.After(m.until) {
			return m.tokens
		}
		return 0
	}
	return 0
}

// autoCall is what clear:auto knows of the call it decides at.
type autoCall struct {
	ci                  *callInfo
	tokens              int
	pr, pw              float64 // the cache-read and cache-write rates per token (see autoClearEdit)
	ttl                 time.Duration
	warm, nearly        bool // the model's cache is warm; or may be, near the TTL's end
	prevTokens, prevLen int  // the previous call's window and history length
	freed, q            int  // the tokens the batch frees, the position of its oldest
	// delta, expected: the rule's Δ and n̂ (pays sets them); over: the
	// call was over the window limit.
	delta, expected float64
	over            bool
}

func (s *autoState) apply(c *conversation, sel *Selection, tokens int) {
	a := s.begin(c, sel, tokens)
	batch := s.batch(c, sel, &a)
	a.prevTokens, a.prevLen = s.prevTokens, s.prevLen
	if a.ci.cachedKnown {
		a.prevTokens = min(a.prevTokens, a.ci.cached)
	}
	s.prevTokens, s.prevLen = tokens, c.h.Len()
	if c.h.resets != s.resets {
		s.marks = s.marks[:0]
	}
	cleared := len(batch) > 0 && s.pays(c, sel, &a)
	if len(batch) > 0 && a.ci.decided != nil {
		a.ci.decided(decisionOf(&a, len(batch), cleared))
	}
	if cleared {
		s.clear(c, batch, &a)
	}
	s.resets = c.h.resets
	// This call's entry; a warm call that cleared nothing read the
	// previous call's entry whole, which refreshes it.
	if n := len(s.marks); n > 0 && a.warm && !cleared && s.marks[n-1].model == a.ci.model {
		s.marks[n-1].until = expiryAt(a.ci.at, a.ttl)
	}
	s.marks = append(s.marks, autoMark{end: c.h.Len(), tokens: s.prevTokens, model: a.ci.model, until: expiryAt(a.ci.at, a.ttl), resets: c.h.resets})
}

// begin reads the call's rates and whether the cache is warm, and banks
// what the earlier clears save at this call.
func (s *autoState) begin(c *conversation, sel *Selection, tokens int) autoCall {
	ci := c.info
	if ci == nil {
		ci = &callInfo{pr: 1, pw: 1, pi: 1} // no cache
	}
	s.calls++
	a := autoCall{ci: ci, tokens: tokens, pr: ci.pr, pw: ci.pw, ttl: time.Duration(cost.AnthropicTTL)}
	// What the earlier clears save at this call, and whether the cache
	// is warm.
	held := 0
	for k, p := range s.mine {
		if p >= c.h.reset && sel.contains(p) {
			held += s.saving[k]
		}
	}
	a.pr, a.pw = ci.rule.HitPrice(ci.pi, ci.pr), ci.rule.MissPrice(ci.pi, ci.pw)
	if ci.ttl != 0 {
		a.ttl = ci.ttl
	}
	a.ttl = ci.rule.Retention(a.ttl)
	last, seen := s.lastAt[ci.model]
	a.warm = seen && ci.rule.LiveAt(a.ttl, last, ci.at) && ci.rule.Caches()
	// Near the TTL's end the cache may still be warm: a record's time is
	// its response's, after the request, and a provider measures the TTL
	// its writer chose from the request (a 1-hour session read its cache
	// 1 h 0 min 15 s after the call before).
	a.nearly = !a.warm && seen && ci.rule.Writes() && !last.IsZero() && !ci.at.IsZero() &&
		!ci.at.After(last.Add(a.ttl+ttlSlack))
	s.lastAt[ci.model] = ci.at
	if front := c.overhead + c.h.sysToks; !s.frontSet || !a.warm && !a.nearly {
		s.frontHeld, s.frontSet = front, true
	} else {
		s.frontHeld = min(s.frontHeld, front)
	}
	rate := a.pw
	if a.warm {
		rate = a.pr
	}
	s.bank += rate * float64(held)
	s.fullSpent += rate*float64(min(s.prevTokens+held, tokens+held)) + a.pw*float64(max(0, tokens-s.prevTokens))
	return a
}

// batch returns the candidates, and sets the tokens they free and the
// position of the oldest of them (its call's, when inputs are cleared).
func (s *autoState) batch(c *conversation, sel *Selection, a *autoCall) []int {
	limit := len(c.results) - s.cfg.Keep
	var batch []int
	a.freed, a.q = 0, -1
	for i := 0; i < limit; i++ {
		p := c.results[i]
		if p < c.h.reset || !replaceable(c.sent[p]) || !sel.contains(p) || slices.Contains(s.cfg.ExcludeTools, c.h.toolName(p)) {
			continue
		}
		_, now := c.sentSize(p)
		dt := now - countText(c.counter, clearedPlaceholder)
		if dt <= 0 {
			continue
		}
		if s.cfg.ClearInputs {
			if cp, ok := c.h.callOf(p); ok {
				dt -= min(0, c.inputSaving(cp, c.h.At(p).Message.ToolCallID))
				if a.q < 0 {
					a.q = cp
				}
			}
		}
		if a.q < 0 {
			a.q = p
		}
		batch = append(batch, p)
		a.freed += dt
	}
	return batch
}

// pays decides whether clearing the batch pays (see autoClearEdit), and
// banks its cost when it does.
func (s *autoState) pays(c *conversation, sel *Selection, a *autoCall) bool {
	ci, pr, pw, freed := a.ci, a.pr, a.pw, float64(a.freed)
	if ci.limit > 0 && a.tokens > ci.limit {
		a.over = true
		return true
	}
	prevTokens := a.prevTokens
	delta := -pw * freed
	if a.warm {
		read := s.cacheRead(c, sel, a)
		if c.h.resets != s.resets {
			// The harness compacted since: the conversation is
			// written anew whatever is cleared.
			prevTokens = read
		}
		delta = (pw-pr)*float64(max(0, prevTokens-read)) - pw*freed
	}
	// The calls this clear's saving lasts: until as much again has
	// grown clearable (at the rate seen so far), at most as many as
	// made so far.
	if a.warm && a.tokens-a.freed < ci.minCache {
		// Below the provider's shortest cached prompt the window
		// would be sent uncached: not a saving to count on.
		delta = math.Inf(1)
	}
	expected := float64(s.calls - 1)
	if grown := float64(s.clearable+a.freed) / float64(s.calls); grown > 0 {
		expected = min(expected, freed/grown)
	}
	bound := delta <= s.bank+0.01*s.fullSpent
	if ci.real {
		// Against what was really spent: the clear's cost should
		// the cache hold no more than the system part and the
		// unseen overhead before the cleared results, within the
		// saving really banked and 1% of what full really cost so
		// far.
		worst := -pw * freed
		if a.warm || a.nearly {
			worst = (pw-pr)*float64(max(0, prevTokens-s.front(c))) - pw*freed
		}
		bound = worst <= ci.fullSpent-ci.spent+0.01*ci.fullSpent
	}
	a.delta, a.expected = delta, expected
	clearIt := delta <= 0 && (!ci.real || bound) || expected*pr*freed >= delta && bound
	if clearIt {
		s.bank -= delta
	}
	return clearIt
}

// cacheRead is what a warm cache holds before the batch's oldest
// position (see R in autoClearEdit).
func (s *autoState) cacheRead(c *conversation, sel *Selection, a *autoCall) int {
	ci, q := a.ci, a.q
	read := c.overhead + c.h.sysToks
	// What this call sends before q: no cache entry gives more (an
	// entry written when the front was longer, before the harness
	// rewrote its cache, holds a prefix this call no longer sends).
	_, t := c.h.Size(c.h.reset, q)
	before := read + t + c.fenT.sum(q) - c.fenT.sum(c.h.reset) + sel.SummaryToks
	switch {
	case q >= a.prevLen:
		read = a.prevTokens
	case ci.rule.Reads() == cost.ReadsEntries:
		// The deepest entry before q: an earlier call's window
		// end, else the system part.
		read = min(before, max(s.front(c), s.entryBefore(q, ci.model, ci.at, c.h.resets)))
	case ci.rule.Reads() == cost.ReadsPrefix:
		// A prefix rule caches any prefix: all that comes before q.
		read = before
	}
	if read < ci.minCache {
		read = 0 // too short to have been cached
	}
	return read
}

// front is the system part and unseen overhead the cache holds now
// ([autoState.frontHeld]).
func (s *autoState) front(c *conversation) int {
	f := c.overhead + c.h.sysToks
	if s.frontSet {
		f = min(f, s.frontHeld)
	}
	return f
}

// clear clears the batch and cuts the entries it invalidates.
func (s *autoState) clear(c *conversation, batch []int, a *autoCall) {
	s.cutMarks(a.q)
	for _, p := range batch {
		before := tokensOf(c, p)
		clearResult(c, p, s.cfg.ClearInputs)
		s.mine = append(s.mine, p)
		s.saving = append(s.saving, before-tokensOf(c, p))
		s.clearable += before - tokensOf(c, p)
	}
	s.prevTokens = a.tokens - a.freed
}

// ttlSlack is how long past the TTL clear:auto still counts on a cache
// that may be warm when it bounds a clear's loss.
const ttlSlack = 30 * time.Second

// tokensOf is the tokens position p is sent with now, its call's
// arguments included when they were cleared with it.
func tokensOf(c *conversation, p int) int {
	_, t := c.sentSize(p)
	if cp, ok := c.h.callOf(p); ok && c.sent[cp] == sentCleared {
		_, ct := c.sentSize(cp)
		t += ct
	}
	return t
}

// callInfoOf returns what a harness knows of the call before reply m:
// its model, time, prices, cache rule and window limit.
func (r *replayer) callInfoOf(m *transcript.Message) *callInfo {
	co := r.opts.Cost
	if co == nil {
		return &callInfo{model: m.Model, at: m.Timestamp, pr: 1, pw: 1, pi: 1, limit: r.opts.ContextWindow} // no cache
	}
	model := m.Model
	if model == "" {
		model = co.Model
	}
	if r.models == nil {
		r.models = map[string]prices.Model{}
	}
	md, ok := r.models[model]
	if !ok {
		cat := co.Catalog
		if cat == nil {
			cat = prices.Default()
		}
		if cat != nil {
			md = cat.LookupCall(model)
		}
		r.models[model] = md
	}
	f := factsOf(md, model, m.Timestamp, co.Rule, co.TTL)
	if r.opts.ContextWindow != 0 {
		f.Limit = r.opts.ContextWindow
	}
	return f.info()
}

// buildAutoClear builds "clear:auto" with its settings: keep (default 1),
// exclude, inputs; trigger and at-least are the rule's to choose.
func buildAutoClear(o Options, p specParams, err error) (edit, error) {
	if err != nil {
		return nil, err
	}
	for _, k := range []string{"trigger", "at-least"} {
		if _, ok := p[k]; ok {
			return nil, &autoSettingError{k}
		}
	}
	e := autoClearEdit{ExcludeTools: o.Clear.ExcludeTools, ClearInputs: o.Clear.ClearInputs}
	if e.Keep, err = p.Int("keep", defaultCheapestKeep); err != nil {
		return nil, err
	}
	if v, ok := p["exclude"]; ok {
		e.ExcludeTools = nil
		for _, t := range splitTools(v) {
			e.ExcludeTools = append(e.ExcludeTools, t)
		}
	}
	e.ClearInputs, err = p.Bool("inputs", e.ClearInputs)
	return e, err
}

type autoSettingError struct{ key string }

func (e *autoSettingError) Error() string {
	return "auto: " + e.key + " is not a setting of clear:auto, which decides when to clear itself"
}

// splitTools splits "Read/Grep".
func splitTools(v string) []string {
	var out []string
	for _, t := range strings.Split(v, "/") {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

func expiryAt(t time.Time, ttl time.Duration) time.Time {
	if t.IsZero() {
		return t
	}
	return t.Add(ttl)
}
