package window

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// defaultCheapestKeep is how many of the newest tool results cheapest
// never clears by default: the newest result is always sent whole.
const defaultCheapestKeep = 1

// cheapestStrategy is the schedule of clear edits, found offline for one
// session, that costs least under the provider's prompt cache while
// keeping every call within Limit where that is possible at all (see
// docs/replay.md, "The cheapest plan").
//
// Its space: at any call, the results cleared are the oldest candidates
// (every tool result held save the newest Keep, those of a tool in
// ExcludeTools, and those whose placeholder is not smaller), a prefix that
// only grows — exactly the schedules clear produces with any
// trigger, keep ≥ Keep and at-least. The plan is a dynamic programme over
// the calls and the boundary of that prefix: state (call i, boundary K),
// the cost of call i separable into a part that depends on where the clear
// starts and a part that depends on where it ends, so each call costs
// O(candidates) and the session O(calls × candidates).
//
// It needs the whole session, so it runs only under [Replay]; a conversation
// started from it sends what full sends.
type cheapestStrategy struct {
	Keep         int      `setting:"keep" doc:"newest tool results never cleared"`
	ExcludeTools []string `setting:"exclude" doc:"tools whose results are never cleared"`
	ClearInputs  bool     `setting:"inputs" doc:"also clear the tool calls' arguments"`
	// Limit is the window limit in tokens; 0 takes the replay's
	// [ReplayOptions.ContextWindow], else the first call's model's
	// context window.
	Limit int `setting:"limit" doc:"window limit in tokens (0: the replay's context window, else the model's)"`
	// Label names it in reports ("" gives "cheapest").
	Label string
}

// Name returns the label, or "cheapest".
func (s cheapestStrategy) Name() string {
	if s.Label != "" {
		return s.Label
	}
	return "cheapest"
}

// Baseline returns false: the plan clears.
func (cheapestStrategy) Baseline() bool { return false }

// Start returns full's state: without the session the plan is empty.
func (cheapestStrategy) Start() State { return fullStrategy{}.Start() }

// newCheapest builds "cheapest:keep=1:exclude=Read/Grep:inputs:limit=N".
// PlanStep is one clear of a plan: before call Call, the tool results
// at transcript indices Cleared became placeholders (with their calls'
// arguments when the plan clears inputs), freeing FreedTokens in that
// call's window.
type PlanStep struct {
	Call        int   `json:"call"`
	Cleared     []int `json:"cleared"`
	FreedTokens int   `json:"freed_tokens"`
	// DropBefore, when above 0, says that from this call on the plan
	// sends no message of the conversation before this transcript index:
	// the oldest whole turns are dropped, as windowed drops them, where
	// clears alone do not keep the call within the window limit.
	DropBefore int `json:"drop_before,omitempty"`
}

// cheapestOf returns the cheapest strategy s is, with the edits on top of
// it (a limit edit), or false.
func cheapestOf(s Strategy) (cheapestStrategy, []edit, string, bool) {
	switch x := s.(type) {
	case cheapestStrategy:
		return x, nil, x.Name(), true
	case withEdits:
		if c, ok := x.Base.(cheapestStrategy); ok {
			return c, x.Edits, x.Name(), true
		}
	}
	return cheapestStrategy{}, nil, "", false
}

// planned is a cheapest strategy with its plan: full, its edits, and the
// clears of the plan at their calls.
type planned struct {
	withEdits
	steps []PlanStep
	unfit []PlanUnfit
	usd   float64 // its exact cost (costs on)
	over  int     // its calls over the window limit (costs on)
}

// planEdit clears, before each planned call, the results the plan names.
type planEdit struct {
	steps  []PlanStep
	inputs bool
}

func (planEdit) Name() string { return "plan" }

func (e planEdit) start() editState { return &planState{cfg: e} }

type planState struct {
	cfg  planEdit
	next int
}

func (s *planState) abort(int, int) {}

func (s *planState) apply(c *conversation, _ *Selection, _ int) {
	for s.next < len(s.cfg.steps) && s.cfg.steps[s.next].Call < c.calls {
		s.next++
	}
	if s.next >= len(s.cfg.steps) || s.cfg.steps[s.next].Call != c.calls {
		return
	}
	want := s.cfg.steps[s.next].Cleared
	s.next++
	for _, p := range c.results {
		e := c.h.At(p)
		if _, ok := slices.BinarySearch(want, e.Message.Index); !ok || !replaceable(c.sent[p]) {
			continue
		}
		clearResult(c, p, s.cfg.inputs)
	}
}

// clearResult sends the result at position p as [clearedPlaceholder]
// (and its call's arguments as "{}" with inputs), where that is
// smaller.
func clearResult(c *conversation, p int, inputs bool) {
	ph := countText(c.counter, clearedPlaceholder)
	if _, now := c.sentSize(p); ph >= now {
		return
	}
	id := c.h.At(p).Message.ToolCallID
	c.set(p, sentCleared, len([]rune(clearedPlaceholder)), ph)
	if inputs {
		if cp, ok := c.h.callOf(p); ok {
			if dt := c.inputSaving(cp, id); dt < 0 {
				c.edit(cp, sentCleared, c.inputCharSaving(cp, id), dt)
			}
		}
	}
}

// pcall is what the plan knows of one call.
type pcall struct {
	model      string
	at         time.Time
	rule       cost.Rule
	pr, pw, pi float64 // $ per token: cache read, cache write, uncached
	minCache   int
	front      int  // the unseen overhead block (≥ 0)
	overhead   int  // the overhead as the call's tokens count it
	recorded   bool // the call records its prompt
	sys, sysN  int
	start, end int // the window's conversation: transcript indices [start, end)
	active     int // the active turn's first index
	lo, hi     int // candidates [lo, hi) may be cleared at this call
	div        int // first index where the window differs from the previous call's (MaxInt: none)
	conv       int // the conversation's tokens, nothing cleared
	// sysFront is the front the model's system-part entry holds: the
	// least since the model's cache was last cold (a read keeps the
	// smaller of what the entry holds and what is sent).
	sysFront int
	// held is the recorded cache read where the record shows full's
	// cache held less than the model predicts (full's call evicted):
	// at this call no strategy reads more, and the model's entries are
	// cut to it. -1: no such evidence.
	held int
	// floor is the recorded cache read where it is longer than the model
	// predicts for full (full's call floored): a plan reads at least as
	// much of it as its window shares with full's. 0: none.
	floor int
	// tail is the record's uncached input, the prompt's end after its
	// last cache breakpoint (see cost.Step.Tail): sent uncached, and
	// not in the entry the call leaves. 0: none.
	tail int
	// rEnd and iEnd are how many candidates' results, and calls, come
	// before end: [session.saved] of the whole window, asked for every
	// boundary, without its searches.
	rEnd, iEnd int
	// turns are where the window may start at a later turn
	// ([turnStarts]); recorded only for a call over the limit as sent.
	turns []int
}

// pcand is a candidate result.
type pcand struct {
	idx, cidx int // transcript index of the result and of its call
	sav, isav int // tokens clearing the result and its arguments frees
}

// session is what the plan is computed on.
type session struct {
	calls []pcall
	cands []pcand
	// C and D are prefix sums over transcript indices of the tokens each
	// message is sent with (nothing cleared), and of those of aborted
	// turns; A and Ain of the candidates' savings; cidx the candidates'
	// call indices, made increasing.
	C, D, A, Ain []int
	cidx         []int
	ttl          time.Duration
	limit        int
	fit          []bool // call i fits the limit with everything allowed cleared
	divs         []int  // the calls whose window differs from the previous call's before its end
	// cuts answers the least recorded read over a range of calls of one
	// model ([session.cutBetween]); nil when no call is evicted.
	cuts map[string]*rangeMin
}

// rangeMin answers the least of a fixed list over any range in O(1): a
// sparse table, lv[j][i] the least of v[i : i+2^j].
type rangeMin struct{ lv [][]int }

func newRangeMin(v []int) *rangeMin {
	r := &rangeMin{lv: [][]int{v}}
	for w := 1; 2*w <= len(v); w *= 2 {
		prev := r.lv[len(r.lv)-1]
		next := make([]int, len(v)-2*w+1)
		for i := range next {
			next[i] = min(prev[i], prev[i+w])
		}
		r.lv = append(r.lv, next)
	}
	return r
}

// min returns the least of v[a:b] (MaxInt when empty).
func (r *rangeMin) min(a, b int) int {
	if b <= a {
		return math.MaxInt
	}
	j := 0
	for 2<<j <= b-a {
		j++
	}
	return min(r.lv[j][a], r.lv[j][b-(1<<j)])
}

// cutBetween returns the least recorded read of the evicted calls of
// model strictly between calls e and i: an entry call e wrote holds no
// more by call i (MaxInt: not cut).
func (s *session) cutBetween(model string, e, i int) int {
	if s.cuts == nil {
		return math.MaxInt
	}
	r := s.cuts[model]
	if r == nil {
		return math.MaxInt
	}
	return r.min(e+1, i)
}

// indexCuts builds the books of [session.cutBetween].
func (s *session) indexCuts() {
	byModel := map[string][]int{}
	for i := range s.calls {
		c := &s.calls[i]
		if c.held < 0 {
			continue
		}
		v := byModel[c.model]
		if v == nil {
			v = make([]int, len(s.calls))
			for j := range v {
				v[j] = math.MaxInt
			}
			byModel[c.model] = v
		}
		v[i] = c.held
	}
	if len(byModel) == 0 {
		return
	}
	s.cuts = map[string]*rangeMin{}
	for m, v := range byModel {
		s.cuts[m] = newRangeMin(v)
	}
}

// convSum is the tokens of call i's conversation in [a, b), nothing
// cleared.
func (s *session) convSum(i, a, b int) int {
	c := &s.calls[i]
	if b <= a {
		return 0
	}
	act := c.active
	return s.C[b] - s.C[a] - (s.D[min(b, act)] - s.D[min(max(a, 0), act)])
}

// saved returns the tokens freed in call i's window before transcript
// index x by clearing candidates [lo, K).
func (s *session) saved(i, x, k int) int {
	c := &s.calls[i]
	k = max(k, c.lo)
	nr, ni := c.rEnd, c.iEnd
	if x != c.end {
		nr, ni = s.before(x)
	}
	return s.A[max(c.lo, min(k, nr))] - s.A[c.lo] + s.Ain[max(c.lo, min(k, ni))] - s.Ain[c.lo]
}

// before returns how many candidates' results, and calls, come before
// transcript index x.
func (s *session) before(x int) (results, calls int) {
	results, _ = slices.BinarySearchFunc(s.cands, x, func(p pcand, x int) int { return p.idx - x })
	calls, _ = slices.BinarySearch(s.cidx, x)
	return results, calls
}

// window returns call i's tokens as the cache sees them (front ≥ 0) and
// as its call counts them, with candidates [lo, K) cleared.
func (s *session) window(i, k int) (cached, counted int) {
	c := &s.calls[i]
	sv := s.saved(i, c.end, k)
	return c.front + c.sys + c.conv - sv, c.sys + c.conv - sv + c.overhead
}

// prefix returns call i's tokens before transcript index x (front and
// system part included) under boundary K, the front taken as front.
func (s *session) prefix(i, x, k, front int) int {
	c := &s.calls[i]
	x = min(x, c.end)
	return front + c.sys + s.convSum(i, c.start, x) - s.saved(i, x, k)
}

// chg is the transcript index from which clearing candidate k changes the
// window.
func (s *session) chg(k int) int { return min(s.cands[k].idx, s.cands[k].cidx) }

// read returns the tokens call i reads from the cache when its window
// first differs from the cached path at transcript index q, under
// boundary K (0 when the model's cache is cold). Where the record shows
// the provider's cache held less at call i (held), no plan reads more
// there: so a clear at a call the provider missed anyway rewrites
// nothing more than sending everything does.
//
// older is the deepest entry written before the latest clear that the
// clear left whole (it ends at or before where the clear began; -1:
// none): the cache keeps it, and a clear that begins after it reads it
// (see [session.modelRead]). read also returns the entry the call reads
// at q when it clears there, the older of the state that clear leaves.
func (s *session) read(i, q, k, lastClear, older int) (int, int) {
	r, used := s.modelRead(i, q, k, lastClear, older)
	c := &s.calls[i]
	if c.held >= 0 {
		r = min(r, c.held)
	}
	if c.floor > r {
		// What the window shares with full's: up to the first cleared
		// result, or all of it.
		shared := c.front + c.sys + c.conv
		if k > c.lo {
			shared = s.prefix(i, s.chg(c.lo), k, c.front)
		}
		if q < math.MaxInt {
			shared = min(shared, s.prefix(i, q, k, c.front))
		}
		r = max(r, min(c.floor, shared))
	}
	return r, used
}

// modelRead is [session.read] before the call's own evidence: the cache
// model, with the entries earlier evidence cut. It returns the read and
// the Anthropic entry it counts on (-1: none).
func (s *session) modelRead(i, q, k, lastClear, older int) (int, int) {
	c := &s.calls[i]
	q = min(q, c.div)
	// The model's previous call, the one that refreshed its entries.
	p := i - 1
	for p >= 0 && s.calls[p].model != c.model {
		p--
	}
	if p < 0 || !c.rule.LiveAt(s.ttl, s.calls[p].at, c.at) {
		return 0, -1
	}
	pc := &s.calls[p]
	front := min(pc.front, c.front)
	switch c.rule.Reads() {
	case cost.ReadsPrefix:
		// The longest prefix shared with the model's previous call.
		end := min(q, pc.end)
		for d := p + 1; d <= i; d++ {
			end = min(end, s.calls[d].div)
		}
		if pc.sysN != c.sysN {
			return 0, -1
		}
		common := min(s.prefix(p, end, k, front), s.prefix(i, end, k, front))
		if n := pc.unsent(); n > 0 {
			// The previous call left in the cache what it sent.
			common = min(common, s.prefix(p, pc.end, k, pc.front)-n)
		}
		return c.rule.Read(common, c.rule.MinTokens(c.minCache)), -1
	case cost.ReadsEntries:
		// The deepest entry of the model at or before q: the end of an
		// earlier call's window (still on the path and live), else the
		// system part's breakpoint. An earlier window's end counts only
		// when it was written at or after the latest clear of the plan
		// that leads to this state (lastClear): an older one was cut by
		// that clear (which started before it), unless it ended before
		// the clear started: the deepest such entry is the state's
		// older, which the cache still holds (a run of small clears,
		// each beginning after the entry the one before read, reads
		// that entry every time).
		// An entry written before a call the record shows evicted holds
		// no more than that call read: the deepest entry may then hold
		// less than the system part's, which that call wrote anew.
		best := 0
		e := s.entryAt(i, q)
		if e >= 0 && e < lastClear {
			e = -1
			if older >= 0 && older < i && s.calls[older].end <= q && s.entryAt(i, s.calls[older].end) == older {
				e = older
			}
		}
		if e >= 0 && entryLive(s, e, i) {
			// The entry holds the front as call e sent it.
			ef := min(front, s.calls[e].front)
			t := min(s.prefix(i, s.calls[e].end, k, ef)-s.calls[e].tail-s.calls[e].unsent(), s.cutBetween(c.model, e, i))
			if t >= c.minCache {
				best = t
			}
		}
		if t := min(front, c.sysFront) + c.sys; t >= c.minCache && pc.sysN == c.sysN {
			return max(best, t), e
		}
		if front >= c.minCache {
			return max(best, front), e
		}
		return best, e
	}
	return 0, -1
}

// entryAt returns the latest call before i of call i's model whose
// window ends at or before transcript index q and is still a prefix of
// call i's (no divergence in between cuts it), -1 for none.
func (s *session) entryAt(i, q int) int {
	c := &s.calls[i]
	lim, b := i, min(q, c.div)
	for lim > 0 {
		// The latest call e < lim whose window ends at or before b.
		e := sort.Search(lim, func(e int) bool { return s.calls[e].end > b }) - 1
		if e < 0 {
			return -1
		}
		// A divergence after e and before lim cuts entries deeper than
		// it.
		d := sort.SearchInts(s.divs, lim) - 1
		if d >= 0 && s.divs[d] > e {
			dv := s.calls[s.divs[d]].div
			b, lim = min(b, dv), s.divs[d]
			if dv < 0 {
				return -1
			}
			continue
		}
		for ; e >= 0 && s.calls[e].model != c.model; e-- {
		}
		if e < 0 || s.calls[e].sysN != c.sysN {
			return -1
		}
		return e
	}
	return -1
}

// entryLive reports whether the entry call e wrote is live at call i: it
// lives a TTL from its write, refreshed once by the model's next call
// when that read it.
func entryLive(s *session, e, i int) bool {
	ec := &s.calls[e]
	exp := ec.at
	for n := e + 1; n < i; n++ {
		if s.calls[n].model == ec.model {
			if ec.rule.LiveAt(s.ttl, ec.at, s.calls[n].at) && s.calls[n].div >= ec.end {
				exp = s.calls[n].at
			}
			break
		}
	}
	return ec.rule.LiveAt(s.ttl, exp, s.calls[i].at)
}

// callCost is call i's price with window tokens w, read r: as the cost
// model bills it, less what the record shows was not sent, the tail
// sent uncached.
func (s *session) callCost(i, w, r int) float64 {
	c := &s.calls[i]
	p := cost.Parts{Uncached: max(0, w)}
	if !c.rule.SentUncached(w, c.minCache) {
		p = c.rule.Rest(r, w)
	}
	return p.Unsend(c.unsent()).Untail(c.tail).USD(c.pi, c.pr, c.pw)
}

// unsent is what call c's window holds that its recorded prompt does
// not ([cost.Step.Unsent]).
func (c *pcall) unsent() int {
	if c.recorded && c.overhead < 0 {
		return -c.overhead
	}
	return 0
}

// solve is the dynamic programme: it returns the boundary in effect at
// each call of the cheapest plan. g[k] is the least cost of the calls so
// far that leaves candidates [0, k) cleared; a call either keeps the
// boundary (its read is the previous call's window) or moves it from k'
// to k, its read then the cache up to where candidate k' changes the
// window. Its cost is read·(pr − pw) + w(k)·pw (Anthropic; OpenAI and no
// cache alike), a part in k' and a part in k, so the best k' for every k
// is a running minimum: O(candidates) per call.
//
// The way back is not kept for every call (calls × candidates of it
// grow with the square of a session): the forward pass keeps the state
// before every segment of about √calls calls, and the way back runs each
// segment again from its state, keeping its rows only. Memory is then
// O(candidates × √calls), the time twice the forward pass's, the plan
// the same.
func (s *session) solve() []int {
	return s.solveIn(int(math.Ceil(math.Sqrt(float64(len(s.calls))))))
}

// dpRow is the programme's state before a call: g[k] the least cost of
// the calls so far that leaves candidates [0, k) cleared, lc[k] the call
// of the latest clear on the best way to k (-1: none), ent[k] the
// deepest entry written before that clear that it left whole (-1: none;
// see [session.read]).
type dpRow struct {
	g       []float64
	lc, ent []int
}

func newDPRow(m int) dpRow {
	return dpRow{make([]float64, m+1), make([]int, m+1), make([]int, m+1)}
}

func (d dpRow) copyFrom(e dpRow) {
	copy(d.g, e.g)
	copy(d.lc, e.lc)
	copy(d.ent, e.ent)
}

// solveIn is [session.solve] with segments of seg calls.
func (s *session) solveIn(seg int) []int {
	n, m := len(s.calls), len(s.cands)
	seg = max(1, seg)
	cur, next := newDPRow(m), newDPRow(m)
	for k := range cur.g {
		cur.g[k], cur.lc[k], cur.ent[k] = math.Inf(1), -1, -1
	}
	cur.g[0] = 0
	// marks[j] is the state before call j·seg.
	marks := make([]dpRow, 0, (n+seg-1)/seg)
	merged := make([]int, n)
	for i := 0; i < n; i++ {
		if i%seg == 0 {
			mk := newDPRow(m)
			mk.copyFrom(cur)
			marks = append(marks, mk)
		}
		merged[i] = s.step(i, cur, next, nil)
		cur, next = next, cur
	}
	k := 0
	for j := range cur.g {
		if cur.g[j] < cur.g[k] {
			k = j
		}
	}
	out := make([]int, n)
	rows := make([][]int32, min(seg, n))
	for j := len(marks) - 1; j >= 0; j-- {
		a, b := j*seg, min(n, (j+1)*seg)
		cur.copyFrom(marks[j])
		marks[j] = dpRow{} // let it go
		for i := a; i < b; i++ {
			if rows[i-a] == nil {
				rows[i-a] = make([]int32, m+1)
			}
			s.step(i, cur, next, rows[i-a])
			cur, next = next, cur
		}
		for i := b - 1; i >= a; i-- {
			out[i] = k
			k = int(rows[i-a][k])
			if k == s.calls[i].lo {
				k = merged[i]
			}
		}
	}
	return out
}

// step runs call i: from the state d before it (which it changes) to nd
// after it; it returns the boundary below lo that lo stands for at call
// i, and sets fr[k], when fr is not nil, to the boundary before call i
// of the best way to have k at call i (k itself: no clear).
func (s *session) step(i int, d, nd dpRow, fr []int32) int {
	c := &s.calls[i]
	inf := math.Inf(1)
	g, lc, ent, ng, nlc, nent := d.g, d.lc, d.ent, nd.g, nd.lc, nd.ent
	m := len(g) - 1
	// Candidates before the window's start are not sent: a boundary
	// below lo is lo.
	merged := c.lo
	for k := 0; k < c.lo; k++ {
		if g[k] < g[c.lo] {
			g[c.lo] = g[k]
			lc[c.lo], ent[c.lo] = lc[k], ent[k]
			merged = k
		}
		g[k] = inf
	}
	for k := range ng {
		ng[k] = inf
		if fr != nil {
			fr[k] = int32(k)
		}
	}
	for k := c.lo; k <= m; k++ {
		if g[k] == inf {
			continue
		}
		w, counted := s.window(i, k)
		if s.fit[i] && counted > s.limit {
			continue
		}
		r, _ := s.read(i, math.MaxInt, k, lc[k], ent[k])
		ng[k] = g[k] + s.callCost(i, w, r)
		nlc[k], nent[k] = lc[k], ent[k]
	}
	cacheless := !c.rule.Caches()
	best, bestK, bestE := inf, -1, -1 // min over k' < k of g[k'] + r(k')·(pr − pw)
	bestU, bestUK, bestUE := inf, -1, -1
	for k := c.lo; k <= c.hi; k++ {
		if bestUK >= 0 {
			w, counted := s.window(i, k)
			if !(s.fit[i] && counted > s.limit) {
				v, fk, fe := best+s.callCost(i, w, 0), bestK, bestE
				if c.rule.SentUncached(w, c.minCache) {
					v, fk, fe = bestU+s.callCost(i, w, 0), bestUK, bestUE
				}
				if fk >= 0 && v < ng[k] {
					ng[k] = v
					if fr != nil {
						fr[k] = int32(fk)
					}
					nlc[k], nent[k] = i, fe
				}
			}
		}
		if k < c.hi && g[k] < inf {
			var part float64
			used := -1
			if !cacheless {
				var r int
				r, used = s.read(i, s.chg(k), k, lc[k], ent[k])
				part = float64(r) * (c.rule.HitPrice(c.pi, c.pr) - c.rule.MissPrice(c.pi, c.pw))
			}
			if v := g[k] + part; v < best {
				best, bestK, bestE = v, k, used
			}
			if g[k] < bestU {
				bestU, bestUK, bestUE = g[k], k, used
			}
		}
	}
	return merged
}

// collect replays the session under full (with edits, a limit) and
// gathers what the plan needs.
func (r *replayer) collect(ctx context.Context, base Strategy, full []Call, cs cheapestStrategy) (*session, error) {
	k := r.newCollector(full, cs)
	r.probe = k.observe
	defer func() { r.probe = nil }()
	if _, err := r.run(ctx, base, full, false); err != nil {
		return nil, err
	}
	k.finish()
	return k.s, nil
}

// collector gathers, call by call of the probe replay, what a cheapest
// plan needs: each message's tokens, the candidates and the calls.
type collector struct {
	r        *replayer
	s        *session
	cs       cheapestStrategy
	full     []Call
	cat      *prices.Catalog
	rule     prices.CacheRule
	fallback string
	// tok and ab are each message's tokens as sent, and as sent when its
	// turn was aborted (else 0), by transcript index.
	tok, ab     []int
	seen, rseen int // the history entries and results already looked at
	cands       []pcand
	models      map[string]prices.Model
	// limit is the plan's window limit (known from the first call).
	limit int
	// turnsKept counts the turn starts recorded (pcall.turns).
	turnsKept int
}

// newCollector reads the prices, cache rule and TTL the replay prices with.
func (r *replayer) newCollector(full []Call, cs cheapestStrategy) *collector {
	k := &collector{r: r, s: &session{ttl: time.Duration(cost.AnthropicTTL)}, cs: cs, full: full, models: map[string]prices.Model{}}
	if co := r.opts.Cost; co != nil {
		k.cat, k.rule, k.fallback = co.Catalog, co.Rule, co.Model
		if co.TTL != 0 {
			k.s.ttl = time.Duration(co.TTL)
		}
	}
	if k.cat == nil {
		k.cat = prices.Default()
	}
	n := len(r.t.Messages)
	k.tok = make([]int, n)
	k.ab = make([]int, n)
	return k
}

// observe is the probe: it records one call of the replay.
func (k *collector) observe(c *conversation, w *window, m *transcript.Message, call *Call, overhead int) {
	k.sizes(c)
	k.candidates(c)
	pc := pcall{at: m.Timestamp, front: max(0, overhead), overhead: overhead, recorded: m.InputTokens != nil, sys: c.h.sysToks, sysN: len(c.h.sys), end: m.Index, div: math.MaxInt}
	k.price(&pc, m)
	k.bounds(&pc, c, m)
	if runs := runsOf(w, nil); len(runs) > 0 && runs[0].Lo > c.h.reset && runs[0].Lo < c.h.Len() {
		// The plan's drops: the window starts at a later turn.
		pc.start = c.h.At(runs[0].Lo).Message.Index
		pc.lo, _ = slices.BinarySearchFunc(k.cands, pc.start, func(p pcand, x int) int { return p.idx - x })
		pc.hi = max(pc.hi, pc.lo)
	}
	pc.conv = call.Counted - pc.sys
	k.evidence(&pc, m)
	if len(k.s.calls) == 0 {
		k.limit = k.r.limitFor(k.cs, &session{calls: []pcall{pc}})
	}
	if k.limit > 0 && (call.Counted+overhead > k.limit || k.turnsKept < maxDropStates) {
		// Where the window may start later: at a call over the limit
		// (a drop it needs), and, while the programme of
		// [session.dropScheduleDP] stays bounded, at every call (a drop
		// before it is needed can be cheaper: it rewrites the cache
		// once where later drops would rewrite it each time).
		pc.turns = turnStarts(c)
		k.turnsKept += len(pc.turns)
	}
	k.s.calls = append(k.s.calls, pc)
}

// aborted reports whether the turn t was aborted.
func (k *collector) aborted(t int) bool {
	return t > 0 && t < len(k.r.aborted) && k.r.aborted[t]
}

// sizes records the tokens of the history's new entries.
func (k *collector) sizes(c *conversation) {
	k.seen = min(k.seen, c.h.Len())
	for p := k.seen; p < c.h.Len(); p++ {
		e := c.h.At(p)
		k.tok[e.Message.Index] = e.Tokens + c.rawT[p]
		k.ab[e.Message.Index] = 0
		if k.aborted(e.Message.Turn) {
			k.ab[e.Message.Index] = k.tok[e.Message.Index]
		}
	}
	k.seen = c.h.Len()
}

// candidates adds the new results that clearing would make smaller
// (positions only grow, save aborts).
func (k *collector) candidates(c *conversation) {
	ph := countText(c.counter, clearedPlaceholder)
	k.rseen = min(k.rseen, len(c.results))
	for _, p := range c.results[k.rseen:] {
		e := c.h.At(p)
		if k.aborted(e.Message.Turn) {
			continue
		}
		if slices.Contains(k.cs.ExcludeTools, c.h.toolName(p)) {
			continue
		}
		_, now := c.sentSize(p)
		if ph >= now {
			continue
		}
		pc := pcand{idx: e.Message.Index, cidx: e.Message.Index, sav: now - ph}
		if k.cs.ClearInputs {
			if cp, ok := c.h.callOf(p); ok {
				if dt := c.inputSaving(cp, e.Message.ToolCallID); dt < 0 {
					pc.cidx, pc.isav = c.h.At(cp).Message.Index, -dt
				}
			}
		}
		if len(k.cands) > 0 && k.cands[len(k.cands)-1].idx >= pc.idx {
			continue
		}
		k.cands = append(k.cands, pc)
	}
	k.rseen = len(c.results)
}

// price sets the call's model, cache rule, cache minimum and prices.
func (k *collector) price(pc *pcall, m *transcript.Message) {
	r := k.r
	pc.model = m.Model
	if pc.model == "" {
		pc.model = k.fallback
	}
	md, ok := k.models[pc.model]
	if !ok {
		md = k.cat.LookupCall(pc.model)
		if md.Name == "" {
			md.Name = pc.model
		}
		k.models[pc.model] = md
	}
	pc.model = md.Name
	rule := k.rule
	if rule == "" {
		rule = md.CacheRule()
	}
	pc.rule = cost.RuleOf(rule)
	pc.minCache = md.MinCacheTokens
	if u := m.Usage; u != nil && r.records && r.calibration != nil && r.opts.Cost != nil && ownRecord(r.opts.Cost, m) && (u.CacheRead > 0 || u.CacheWrite > 0) {
		pc.minCache = 0 // the provider cached this prompt (see cost.Step.Cached)
	}
	switch pr := md.Prices; {
	case r.opts.Cost == nil || pr == nil:
		// Nothing to price: the plan minimises tokens, no cache.
		pc.pi, pc.pr, pc.pw = 1, 1, 1
		pc.rule = cost.Rule{}
	default:
		pc.pi, pc.pr, pc.pw = pr.Input/1e6, pr.CacheRead/1e6, pr.CacheWrite5m/1e6
		if k.s.ttl == time.Duration(cost.AnthropicLongTTL) {
			pc.pw = pr.CacheWrite1h / 1e6
		}
	}
}

// bounds sets the call's window and the candidates it may clear.
func (k *collector) bounds(pc *pcall, c *conversation, m *transcript.Message) {
	pc.start = m.Index
	if c.h.reset < c.h.Len() {
		pc.start = c.h.At(c.h.reset).Message.Index
	}
	pc.active = m.Index
	if c.h.open && len(c.h.turns) > 0 && c.h.turns[len(c.h.turns)-1] < c.h.Len() {
		pc.active = c.h.At(c.h.turns[len(c.h.turns)-1]).Message.Index
	}
	// The newest Keep results are never cleared.
	pc.hi = len(k.cands)
	if keep := k.cs.Keep; keep > 0 {
		if len(c.results) <= keep {
			pc.hi = 0
		} else {
			bound := c.h.At(c.results[len(c.results)-keep]).Message.Index
			pc.hi, _ = slices.BinarySearchFunc(k.cands, bound, func(p pcand, x int) int { return p.idx - x })
		}
	}
	pc.lo, _ = slices.BinarySearchFunc(k.cands, pc.start, func(p pcand, x int) int { return p.idx - x })
	pc.hi = max(pc.hi, pc.lo)
}

// evidence records the record's evidence, where full's call was cut by
// it: every strategy's call is priced with the cache cut there alike.
func (k *collector) evidence(pc *pcall, m *transcript.Message) {
	pc.held = -1
	if k.r.records && m.Usage != nil && k.r.opts.Cost != nil && ownRecord(k.r.opts.Cost, m) {
		pc.tail = m.Usage.Input
	}
	if n := len(k.s.calls); k.r.records && n < len(k.full) && k.full[n].CallCost != nil && m.Usage != nil {
		switch f := k.full[n].CallCost; {
		case f.Evicted || f.cut:
			pc.held = m.Usage.CacheRead
		case f.floored:
			pc.floor = m.Usage.CacheRead
		}
	}
}

// finish builds the session's prefix sums, divergences and system fronts
// once the probe replay is over.
func (k *collector) finish() {
	s, cands := k.s, k.cands
	n := len(k.tok)
	s.cands = cands
	s.C = make([]int, n+1)
	s.D = make([]int, n+1)
	for i := 0; i < n; i++ {
		s.C[i+1] = s.C[i] + k.tok[i]
		s.D[i+1] = s.D[i] + k.ab[i]
	}
	s.A = make([]int, len(cands)+1)
	s.Ain = make([]int, len(cands)+1)
	s.cidx = make([]int, len(cands))
	for j, c := range cands {
		s.A[j+1] = s.A[j] + c.sav
		s.Ain[j+1] = s.Ain[j] + c.isav
		s.cidx[j] = c.cidx
		if j > 0 {
			s.cidx[j] = max(s.cidx[j], s.cidx[j-1])
		}
	}
	for i := range s.calls {
		c := &s.calls[i]
		c.rEnd, c.iEnd = s.before(c.end)
	}
	s.divergences()
	s.indexCuts()
	s.systemFronts()
}

// divergences finds where each call's window first differs from the
// previous one's: a new start (a harness compaction), a changed system
// part, or an abort in between (its turn's first message).
func (s *session) divergences() {
	for i := 1; i < len(s.calls); i++ {
		c, p := &s.calls[i], &s.calls[i-1]
		switch {
		case c.sysN != p.sysN:
			c.div = -1
		case c.start != p.start:
			c.div = min(c.start, p.start)
		case s.convSum(i, c.start, p.end) != s.convSum(i-1, p.start, p.end):
			c.div = p.active
		}
		if c.div != math.MaxInt {
			s.divs = append(s.divs, i)
		}
	}
}

// systemFronts sets each call's sysFront: the front of the previous call
// of its model while that model's cache is warm and the system part the
// same.
func (s *session) systemFronts() {
	last := map[string]int{}
	for i := range s.calls {
		c := &s.calls[i]
		c.sysFront = c.front
		if p, ok := last[c.model]; ok && c.rule.LiveAt(s.ttl, s.calls[p].at, c.at) && c.div >= 0 && s.calls[p].sysN == c.sysN {
			c.sysFront = s.calls[p].sysFront
		}
		last[c.model] = i
	}
}

// limitFor returns the window limit of a cheapest plan.
func (r *replayer) limitFor(cs cheapestStrategy, s *session) int {
	if cs.Limit > 0 {
		return cs.Limit
	}
	if r.opts.ContextWindow > 0 {
		return r.opts.ContextWindow
	}
	if len(s.calls) == 0 {
		return 0
	}
	cat := (*prices.Catalog)(nil)
	if r.opts.Cost != nil {
		cat = r.opts.Cost.Catalog
	}
	if cat == nil {
		cat = prices.Default()
	}
	if cat != nil {
		if m, err := cat.Lookup(s.calls[0].model); err == nil {
			return m.ContextWindow
		}
	}
	return 0
}

// plan computes the cheapest plan of s for the replay's transcript: the
// programme's (with the drops a window needs), or the schedule clear:auto
// or clear realizes where that is cheaper priced exactly (see
// [replayer.knownSchedules]).
func (r *replayer) plan(ctx context.Context, s Strategy, full []Call) (*planned, error) {
	best, err := r.programmePlan(ctx, s, full)
	if err != nil || r.opts.Cost == nil {
		return best, err
	}
	cs, edits, name, _ := cheapestOf(s)
	known, err := r.knownSchedules(ctx, edits, cs, full)
	if err != nil {
		return nil, err
	}
	for _, k := range known {
		// The run that realized the schedule priced it; the plan that
		// sends it is priced anew before it is kept.
		if k.over > best.over || k.over == best.over && k.usd >= best.usd {
			continue
		}
		es := append(slices.Clone(edits), planEdit{steps: k.steps, inputs: cs.ClearInputs})
		p := &planned{withEdits: withEdits{Base: fullStrategy{}, Edits: es, Label: name}, steps: k.steps, unfit: best.unfit}
		res, err := r.run(ctx, p.withEdits, full, false)
		if err != nil {
			return nil, err
		}
		p.usd, p.over = res.Totals.usd, res.Totals.OverWindowCalls
		if p.over < best.over || p.over == best.over && p.usd < best.usd {
			best = p
		}
	}
	return best, nil
}

// programmePlan is [replayer.plan] by the programme alone.
func (r *replayer) programmePlan(ctx context.Context, s Strategy, full []Call) (*planned, error) {
	cs, edits, name, _ := cheapestOf(s)
	for _, e := range edits {
		if _, ok := e.(truncateEdit); !ok {
			return nil, fmt.Errorf("%s: the cheapest plan takes no %s edit: it chooses the clears itself", name, e.Name())
		}
	}
	base := Strategy(fullStrategy{})
	if len(edits) > 0 {
		base = withEdits{Base: fullStrategy{}, Edits: edits, Label: name}
	}
	sess, err := r.collect(ctx, base, full, cs)
	if err != nil {
		return nil, err
	}
	sess.limit = r.limitFor(cs, sess)
	first := sess
	var best *planned
	var seen [][]int
	if forced, _ := first.dropSchedule(1); forced != nil && r.opts.Cost != nil {
		// Some call needs a drop to fit the window. A small session:
		// every drop schedule, each with its cheapest clears, priced
		// exactly.
		if all := first.everyDropSchedule(); all != nil {
			for _, from := range all {
				var unfit []PlanUnfit
				if from == nil {
					unfit = first.overLimit() // with drops, planWith measures them
				}
				p, err := r.planWith(ctx, first, from, unfit, edits, name, cs, full)
				if err != nil {
					return nil, err
				}
				if best == nil || p.over < best.over || p.over == best.over && p.usd < best.usd {
					best = p
				}
			}
			return best, nil
		}
	}
	for _, depth := range dropDepths {
		from, unfit := first.dropSchedule(depth)
		if slices.ContainsFunc(seen, func(f []int) bool { return slices.Equal(f, from) }) {
			continue
		}
		seen = append(seen, from)
		p, err := r.planWith(ctx, first, from, unfit, edits, name, cs, full)
		if err != nil {
			return nil, err
		}
		if best == nil || p.over < best.over || p.over == best.over && p.usd < best.usd {
			best = p
		}
		if from == nil || r.opts.Cost == nil {
			return best, nil // no drop needed, or nothing to price them by
		}
	}
	// One schedule more: the cheapest of every drop schedule by the
	// programme of [session.dropScheduleDP], priced exactly like the rest.
	if from := first.dropScheduleDP(); from != nil && !slices.ContainsFunc(seen, func(f []int) bool { return slices.Equal(f, from) }) {
		_, unfit := first.dropSchedule(1)
		p, err := r.planWith(ctx, first, from, unfit, edits, name, cs, full)
		if err != nil {
			return nil, err
		}
		if p.over < best.over || p.over == best.over && p.usd < best.usd {
			best = p
		}
	}
	return best, nil
}

// dropDepths are how deep a forced drop goes, as a share of the limit
// the call's window is brought to ([session.dropSchedule]): each gives
// a schedule, planned and replayed; the cheapest wins.
var dropDepths = []float64{1, 0.7, 0.4, 0}

// planWith plans the clears on the windows the drops from leave (nil:
// none) and prices the plan exactly.
func (r *replayer) planWith(ctx context.Context, first *session, from []int, unfit []PlanUnfit, edits []edit, name string, cs cheapestStrategy, full []Call) (*planned, error) {
	sess := first
	planBase := Strategy(fullStrategy{})
	if from != nil {
		// Clears alone do not fit some calls: the plan drops the oldest
		// turns they need dropped, and chooses its clears on the
		// windows left. The windows with the drops are measured anew
		// (what a drop leaves is sized as sent); a call still over
		// drops one turn more, a few rounds at most.
		from = slices.Clone(from)
		for round := 0; ; round++ {
			planBase = dropPlan{from: from}
			base := Strategy(planBase)
			if len(edits) > 0 {
				base = withEdits{Base: planBase, Edits: edits, Label: name}
			}
			var err error
			if sess, err = r.collect(ctx, base, full, cs); err != nil {
				return nil, err
			}
			sess.limit = first.limit
			if round == maxDropRounds || !first.dropMore(sess, from) {
				break
			}
		}
		unfit = sess.overLimit()
	}
	sess.fit = make([]bool, len(sess.calls))
	for i := range sess.calls {
		_, counted := sess.window(i, sess.calls[i].hi)
		sess.fit[i] = sess.limit > 0 && counted <= sess.limit
	}
	bounds := sess.solve()
	steps := sess.steps(bounds)
	mk := func(steps []PlanStep) *planned {
		steps = withDrops(slices.Clone(steps), from)
		es := append(slices.Clone(edits), planEdit{steps: steps, inputs: cs.ClearInputs})
		return &planned{withEdits: withEdits{Base: planBase, Edits: es, Label: name}, steps: steps, unfit: unfit}
	}
	p := mk(steps)
	if r.opts.Cost == nil {
		return p, nil
	}
	// The plan's exact cost; the empty plan when that is cheaper and
	// keeps within the limit as well.
	res, err := r.run(ctx, p.withEdits, full, false)
	if err != nil {
		return nil, err
	}
	p.usd, p.over = res.Totals.usd, res.Totals.OverWindowCalls
	if len(steps) > 0 {
		empty := mk(nil)
		er, err := r.run(ctx, empty.withEdits, full, false)
		if err != nil {
			return nil, err
		}
		if er.Totals.usd < p.usd && er.Totals.OverWindowCalls <= res.Totals.OverWindowCalls {
			empty.usd, empty.over = er.Totals.usd, er.Totals.OverWindowCalls
			p = empty
		}
	}
	return p, nil
}

// steps turns the boundary at each call into the plan's clears.
func (s *session) steps(bounds []int) []PlanStep {
	var out []PlanStep
	prev := 0
	for i, k := range bounds {
		lo := max(prev, s.calls[i].lo)
		if k > lo {
			st := PlanStep{Call: i + 1}
			for j := lo; j < k; j++ {
				st.Cleared = append(st.Cleared, s.cands[j].idx)
			}
			st.FreedTokens = s.saved(i, s.calls[i].end, k) - s.saved(i, s.calls[i].end, lo)
			out = append(out, st)
		}
		prev = max(prev, k)
	}
	return out
}
