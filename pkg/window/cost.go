package window

import (
	"math"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// CostOptions turn on the cost of a replay ([ReplayOptions.Cost]): every
// call of every strategy is priced under the provider's prompt cache
// ([cost.Simulator]).
//
// A call's window becomes blocks in the order sent: first one fixed front
// block, the unseen overhead (tool definitions and system prompt the
// transcript does not show: the call's recorded prompt minus full's
// counted tokens, 0 without a record; a cache breakpoint), then each
// message of the system part (the last one a breakpoint), the rolling
// summary, and each message of the conversation. A message's block is
// the same from call to call as long as it is sent the same way with the
// same size; sent otherwise (cleared, masked, cut, or a new summary) it
// is another block, so the cache holds only up to the first block that
// changed. Between two calls only the blocks from the first change on
// are handed to the simulator, so pricing is linear in the calls.
//
// A transcript none of whose messages names a model, replayed with
// neither Model nor Rule set, is not priced: its calls carry no cost.
type CostOptions struct {
	// Rule overrides every model's cache rule: "anthropic", "openai",
	// "none" ("" keeps each model's own).
	Rule prices.CacheRule
	// Model prices the calls whose transcript names no model ("": none,
	// priced at 0 under the rule none).
	Model string
	// TTL is the Anthropic cache TTL ([cost.Options.TTL]).
	TTL cost.TTL
	// Catalog gives the models; nil means the built-in presets.
	Catalog *prices.Catalog
}

// CallCost is what a replayed call would cost: its prompt tokens split by
// how the provider bills them, the recorded output and the price. For
// full, where the transcript records cache usage, Recorded gives the
// provider's record of the same call.
type CallCost struct {
	// Model is the model the call is priced as ("" for none).
	Model string `json:"model,omitempty"`
	// CacheRule is the cache rule applied.
	CacheRule prices.CacheRule `json:"cache_rule"`
	// Cache splits the window's tokens: read from the cache, written to
	// it, sent uncached.
	Cache cost.Parts `json:"cache"`
	// OutputTokens is the recorded output of the call (the same for
	// every strategy: a replay does not change the answer).
	OutputTokens int `json:"output_tokens"`
	// CostUSD is the call's price in US dollars (rounded to 1e-9); null
	// in JSON when its model has no price ([cost.Priced]).
	CostUSD cost.Priced `json:"cost_usd"`
	// RecordedUsage is the provider's record (full only).
	RecordedUsage *RecordedCache `json:"recorded,omitempty"`
	// Evicted is set at a call where the record shows the provider's
	// cache held less than the model of full's calls predicts: the
	// cache was taken to hold only what the record shows, for every
	// strategy alike (see [CostOptions]).
	Evicted bool `json:"evicted,omitempty"`

	// cut and floored (full's calls) say the record's evidence changed
	// the read: cut it (an eviction, or a trim within the counting
	// slack where sizes come from the records) or raised it.
	cut, floored bool
}

// RecordedCache is a call's recorded prompt usage.
type RecordedCache struct {
	CacheRead  int `json:"cache_read"`
	CacheWrite int `json:"cache_write"`
	// Input is the uncached input.
	Input int `json:"input"`
}

// CostTotals sum the cost of a strategy's calls.
type CostTotals struct {
	Cache        cost.Parts `json:"cache"`
	OutputTokens int        `json:"output_tokens"`
	// CostUSD is what the strategy's calls cost; FullCostUSD what full's
	// cost (both rounded to 1e-9).
	// Where no call has a price, these four are unknown ([cost.Priced]: null
	// in JSON, never $0).
	CostUSD     cost.Priced `json:"cost_usd"`
	FullCostUSD cost.Priced `json:"full_cost_usd"`
	// SavedUSD is FullCostUSD − CostUSD (negative when the strategy
	// costs more); SavedCostRatio is SavedUSD / FullCostUSD rounded to 3
	// decimals (0 when full costs nothing), the money counterpart of
	// [Totals.SavedRatio].
	SavedUSD       cost.Priced `json:"saved_usd"`
	SavedCostRatio cost.Priced `json:"saved_cost_ratio"`
	// UnpricedModels lists, sorted, the models named by calls that have
	// no prices: their calls are left out of the dollar figures.
	UnpricedModels []string `json:"unpriced_models"`
	// unpriced tallies the calls and tokens of UnpricedModels as they
	// are priced, so [Result.Unpriced] has them when the calls are not
	// kept.
	unpriced []cost.Unpriced
	// Agreement (full only, where the transcript records cache usage)
	// counts the calls whose modelled cache read agrees with the recorded
	// one ([cost.Agrees]: within 2% or 50 tokens).
	Agreement *cost.Agreement `json:"recorded_agreement,omitempty"`
	// EvictedCalls counts the calls priced with the cache cut to what the
	// record shows ([CallCost.Evicted]).
	EvictedCalls int `json:"evicted_calls,omitempty"`
	// RecordedCostUSD (full only, where the transcript records cache
	// usage) is the recorded usage of full's calls priced at the same
	// prices: the bill (rounded to 1e-9).
	RecordedCostUSD *float64 `json:"recorded_cost_usd,omitempty"`
	// RegretUSD is CostUSD minus what the cheapest plan costs under the
	// same window limit and cache ([ReplayOptions.Regret] only).
	RegretUSD *float64 `json:"regret_usd,omitempty"`
	// Why says, where the strategy costs more than full, why
	// ([CostWhy]); nil where it costs no more.
	Why *CostWhy `json:"why,omitempty"`

	usd, fullUSD, recordedUSD, regret float64 // unrounded
	hasRegret                         bool
	priced                            int // calls that had a price
	// rewrites counts the calls that paid again for what the cache
	// held; fullRewrites is full's rewrites.Calls (for Why).
	rewrites     rewrites
	fullRewrites int
}

// rewrites are read from a strategy's own books: a call rewrites the
// cache when it pays the write price (under OpenAI's rule, the uncached
// input price) for tokens its model's previous call left in the cache
// and it does not read: the window changed before the end of what was
// cached (an edit, a dropped turn, a new summary), or the entries
// expired. A call's rewritten tokens are the least of what it writes
// (sends uncached) and what the previous call left less what this one
// reads.
type rewrites struct {
	// Calls counts the calls that rewrote, of Of priced calls.
	Calls, Of int
	// Tokens is the tokens rewritten, in all.
	Tokens int
	// Price names the price most of them were paid at: "5-minute
	// write", "1-hour write" or "uncached input" ("" for none).
	Price string
	// by is Tokens by price: 5-minute, 1-hour, uncached.
	by [3]int
}

// The prices rewrites.Price names.
var rewritePrices = [3]string{"5-minute write", "1-hour write", "uncached input"}

func (rw *rewrites) add(u *rewrites) {
	rw.Calls += u.Calls
	rw.Of += u.Of
	rw.Tokens += u.Tokens
	for k := range rw.by {
		rw.by[k] += u.by[k]
	}
	rw.settle()
}

func (rw *rewrites) settle() {
	rw.Price = ""
	best := 0
	for k, n := range rw.by {
		if n > best {
			best, rw.Price = n, rewritePrices[k]
		}
	}
}

// CostWhy says in one line, from a strategy's own books, why it costs
// more than full: how many of its calls rewrote the cache (and how many
// of full's did), how many tokens each rewrote on average, and at which
// price. A report writes it as a line (report's replay tables).
type CostWhy struct {
	// ExtraUSD is what the strategy costs more than full (rounded to
	// 1e-9).
	ExtraUSD float64 `json:"extra_usd"`
	// Calls of Of calls rewrote the cache; FullCalls of full's did.
	Calls     int `json:"calls"`
	Of        int `json:"of"`
	FullCalls int `json:"full_calls"`
	// PerCall is the tokens a rewriting call rewrote, on average
	// (rounded); Price the price most of them were paid at
	// (the price of the most of its rewritten tokens).
	PerCall int    `json:"per_call"`
	Price   string `json:"price"`
}

func roundUSD(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// unpricedAll tells a strategy whose calls named a model and none had a
// price: its dollar figures are unknown, never $0.
func (ct *CostTotals) unpricedAll() bool {
	return ct != nil && ct.priced == 0 && len(ct.UnpricedModels) > 0
}

// unpriced is the value of a [cost.Priced] figure with no price in it.
var unpriced = cost.Priced(math.NaN())

// settle sets the rounded dollar figures and the saving from the
// unrounded sums.
func (ct *CostTotals) settle() {
	ct.CostUSD = cost.Priced(roundUSD(ct.usd))
	ct.FullCostUSD = cost.Priced(roundUSD(ct.fullUSD))
	ct.SavedUSD = cost.Priced(roundUSD(ct.fullUSD - ct.usd))
	ct.SavedCostRatio = 0
	if ct.hasRegret {
		g := roundUSD(ct.regret)
		ct.RegretUSD = &g
	}
	if ct.fullUSD > 0 {
		ct.SavedCostRatio = cost.Priced(math.Round((1-ct.usd/ct.fullUSD)*1000) / 1000)
	}
	ct.Why = nil
	if ct.unpricedAll() {
		ct.CostUSD, ct.FullCostUSD, ct.SavedUSD, ct.SavedCostRatio = unpriced, unpriced, unpriced, unpriced
		ct.RegretUSD, ct.RecordedCostUSD = nil, nil
		return
	}
	if ct.CostUSD > ct.FullCostUSD {
		w := &CostWhy{ExtraUSD: roundUSD(ct.usd - ct.fullUSD), Calls: ct.rewrites.Calls, Of: ct.rewrites.Of,
			FullCalls: ct.fullRewrites, Price: ct.rewrites.Price}
		if w.Calls > 0 {
			w.PerCall = int(math.Round(float64(ct.rewrites.Tokens) / float64(w.Calls)))
		}
		ct.Why = w
	}
}

// add adds u's sums to ct, as totals over several sessions are worked out:
// tokens (checked), dollars, the unpriced models and the agreement with
// the record.
func (ct *CostTotals) add(u *CostTotals) error {
	var ok [4]bool
	var read, write, uncached, out int
	read, ok[0] = checked.Add(ct.Cache.Read, u.Cache.Read)
	write, ok[1] = checked.Add(ct.Cache.Write, u.Cache.Write)
	uncached, ok[2] = checked.Add(ct.Cache.Uncached, u.Cache.Uncached)
	out, ok[3] = checked.Add(ct.OutputTokens, u.OutputTokens)
	if ok != [4]bool{true, true, true, true} {
		return &checked.OverflowError{What: "the cache and output tokens of the sessions"}
	}
	ct.Cache = cost.Parts{Read: read, Write: write, Uncached: uncached}
	ct.OutputTokens = out
	ct.usd += u.usd
	ct.fullUSD += u.fullUSD
	ct.priced += u.priced
	ct.EvictedCalls += u.EvictedCalls
	ct.rewrites.add(&u.rewrites)
	ct.fullRewrites += u.fullRewrites
	if u.RecordedCostUSD != nil {
		ct.recordedUSD += u.recordedUSD
		r := roundUSD(ct.recordedUSD)
		ct.RecordedCostUSD = &r
	}
	if u.hasRegret {
		ct.regret += u.regret
		ct.hasRegret = true
	}
	for _, m := range u.UnpricedModels {
		if !slices.Contains(ct.UnpricedModels, m) {
			ct.UnpricedModels = append(ct.UnpricedModels, m)
		}
	}
	slices.Sort(ct.UnpricedModels)
	if a := u.Agreement; a != nil {
		if ct.Agreement == nil {
			ct.Agreement = &cost.Agreement{}
		}
		ct.Agreement.Calls += a.Calls
		ct.Agreement.Agree += a.Agree
		ct.Agreement.Share = math.Round(float64(ct.Agreement.Agree)/float64(ct.Agreement.Calls)*1000) / 1000
	}
	ct.settle()
	return nil
}

// costRun prices one strategy's calls.
type costRun struct {
	sim *cost.Simulator
	// pure (full only, where the transcript records cache usage) prices
	// full's calls by the model alone, without the records' evidence:
	// its reads are what [CostTotals.Agreement] compares.
	pure *cost.Simulator
	opts *CostOptions
	// full is set for full itself, which shows the recorded usage.
	full, records bool
	// recordTTL: no TTL was given, so a call whose record writes the
	// cache writes with the TTL of most of its record's writes.
	recordTTL bool
	// exact is set where the messages are sized from the records: the
	// windows are in the provider's tokens, and the record's read is
	// taken both ways and to the token (see [CostOptions]).
	exact  bool
	blocks []cost.Block // scratch
	// left is, by model, what the model's previous call left in the
	// cache (for the rewrites).
	left map[string]int
	// trace, in tests, is given every call's whole window as blocks.
	trace func(model string, at time.Time, blocks []cost.Block)
}

// recordsCache reports whether t records cache usage on any call: a
// call shows a cache read or write, or t is of a harness whose records
// always name the cache read (a 0 there is a call that read nothing:
// Gemini CLI writes "cached": 0, Codex cached_input_tokens 0) and some
// call has a record.
func recordsCache(t *transcript.Transcript) bool {
	named := namesCacheRead(t.Format)
	for i := range t.Messages {
		if u := t.Messages[i].Usage; u != nil && (named || u.CacheRead > 0 || u.CacheWrite > 0) {
			return true
		}
	}
	return false
}

// namesCacheRead reports whether every usage record of the format names
// its cache read, 0 included.
func namesCacheRead(format transcript.Format) bool {
	switch format {
	case transcript.FormatGeminiCLI, transcript.FormatCodex:
		return true
	}
	return false
}

// costBooks are what a conversation remembers of the previous call's window
// to find where the next one first differs from it.
type costBooks struct {
	on      bool
	have    bool
	sysN    int
	summary string
	hasSum  bool
	runs    []Span
	// dirty are the positions edited since the last call; abortedAt the
	// lowest position an abort dropped since then (positions from there
	// on may hold other messages now).
	dirty     []int
	abortedAt int
}

func (b *costBooks) noteEdit(p int) {
	if b.on {
		b.dirty = append(b.dirty, p)
	}
}

func (b *costBooks) noteAbort(start int) {
	if b.on {
		b.abortedAt = min(b.abortedAt, start)
	}
}

// runsOf returns the positions w sends as runs, appended to buf.
func runsOf(w *window, buf []Span) []Span {
	buf = buf[:0]
	if w.sel.Keep == nil {
		for _, s := range w.sel.Spans {
			if s.Hi <= s.Lo {
				continue
			}
			if n := len(buf); n > 0 && buf[n-1].Hi == s.Lo {
				buf[n-1].Hi = s.Hi
				continue
			}
			buf = append(buf, s)
		}
		return buf
	}
	for _, p := range w.sel.Keep {
		if n := len(buf); n > 0 && buf[n-1].Hi == p {
			buf[n-1].Hi++
			continue
		}
		buf = append(buf, Span{p, p + 1})
	}
	return buf
}

// commonRuns returns how many positions a and b share from the start.
func commonRuns(a, b []Span) int {
	n, i, j := 0, 0, 0
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	pa, pb := a[0].Lo, b[0].Lo
	for i < len(a) && j < len(b) && pa == pb {
		l := min(a[i].Hi-pa, b[j].Hi-pb)
		n += l
		pa += l
		pb += l
		if pa == a[i].Hi {
			if i++; i < len(a) {
				pa = a[i].Lo
			}
		}
		if pb == b[j].Hi {
			if j++; j < len(b) {
				pb = b[j].Lo
			}
		}
	}
	return n
}

// indexOf returns the index in the sequence of runs of the first
// position ≥ p (the sequence's length when none is).
func indexOf(runs []Span, p int) int {
	n := 0
	for _, r := range runs {
		if p < r.Hi {
			return n + max(0, p-r.Lo)
		}
		n += r.Hi - r.Lo
	}
	return n
}

// costStep turns window w into a step: the blocks after the front that
// it shares with the previous call's window, then the rest.
func (c *conversation) costStep(w *window, overhead int, buf []cost.Block) cost.Step {
	b := &c.cost
	runs := runsOf(w, nil)
	keep := 0
	sysN := len(c.h.sys)
	hasSum := w.sel.Summary != ""
	sumN := 0
	if hasSum {
		sumN = 1
	}
	if b.have {
		switch {
		case sysN != b.sysN:
			keep = min(sysN, b.sysN)
		case hasSum != b.hasSum || w.sel.Summary != b.summary:
			keep = sysN
		default:
			conv := commonRuns(b.runs, runs)
			if b.abortedAt < math.MaxInt {
				conv = min(conv, indexOf(runs, b.abortedAt))
			}
			for _, p := range b.dirty {
				if w.sel.contains(p) {
					conv = min(conv, indexOf(runs, p))
				}
			}
			keep = sysN + sumN + conv
		}
	}
	buf = buf[:0]
	for k := keep; k < sysN; k++ {
		buf = append(buf, cost.Block{Tokens: c.h.sys[k].Tokens, Breakpoint: k == sysN-1})
	}
	if hasSum && keep <= sysN {
		buf = append(buf, cost.Block{Tokens: w.sel.SummaryToks})
	}
	skip := max(0, keep-sysN-sumN)
	for _, r := range runs {
		if l := r.Hi - r.Lo; skip >= l {
			skip -= l
			continue
		}
		for p := r.Lo + skip; p < r.Hi; p++ {
			buf = append(buf, cost.Block{Tokens: c.h.At(p).Tokens + c.rawT[p]})
		}
		skip = 0
	}
	b.have, b.sysN, b.summary, b.hasSum = true, sysN, w.sel.Summary, hasSum
	b.runs = runs
	b.dirty = b.dirty[:0]
	b.abortedAt = math.MaxInt
	return cost.Step{Front: cost.Block{ID: cost.OverheadID, Tokens: max(0, overhead), Breakpoint: true}, Keep: keep, Append: buf}
}

// price prices call (made before message m) under the cost model. ref
// is full's call at the same place (nil for full itself): where the
// records cut full's cache, this call's cache is cut alike. w's runs are
// read once, by costStep; sharedWithFull, heldOfFull and tailWithFull
// walk them as it left them (c.cost.runs).
func (cr *costRun) price(c *conversation, w *window, m *transcript.Message, call, ref *Call, overhead int, t *Totals) error {
	st := c.costStep(w, overhead, cr.blocks)
	cr.blocks = st.Append[:0]
	st.Model, st.Time = m.Model, m.Timestamp
	if st.Model == "" {
		st.Model = cr.opts.Model
	}
	if m.Usage != nil {
		st.Output = m.Usage.Output
	}
	if cr.trace != nil {
		cr.trace(st.Model, st.Time, c.costBlocks(w, overhead))
	}
	if u := m.Usage; cr.recordTTL && cr.records && u != nil && u.CacheWrite > 0 {
		// The harness chose the TTL of this request (Claude Code writes
		// 1-hour entries from some calls, 5-minute ones from others).
		st.TTL = cost.AnthropicTTL
		if 2*u.CacheWrite1h > u.CacheWrite {
			st.TTL = cost.AnthropicLongTTL
		}
	}
	if m.InputTokens != nil && overhead < 0 {
		// Full's window holds more than the recorded prompt: in the
		// provider's tokens (sized from the records), the harness left
		// out what the transcript still shows; in the counter's, the
		// counter counts more than the provider. No strategy sends those
		// tokens: every call sends its window less them ([Call.Tokens]).
		st.Unsent = -overhead
	}
	var pure cost.CallCost
	if cr.pure != nil {
		pure = cr.pure.Step(st)
		if err := cr.pure.Err(); err != nil {
			return err
		}
	}
	if cr.records && m.Usage != nil {
		// The record is evidence of what the provider's cache held:
		// full's own call decides where it changes the read, every
		// other strategy follows it there.
		//
		// Where the record is the bill of the call as priced (it names
		// its model, priced as that model under its own cache rule) and
		// the messages are sized from the records, it is taken to the
		// token and both ways: a read cut within the counting slack, and
		// a read longer than the model's. Priced as another model or
		// rule it shows evictions only.
		read := m.Usage.CacheRead
		own := ownRecord(cr.opts, m)
		exact := cr.exact && own
		st.Cached = own && (m.Usage.CacheRead > 0 || m.Usage.CacheWrite > 0)
		if own && m.Usage.Input > 0 {
			// The record's uncached input is the prompt's tail after the
			// last cache breakpoint: sent uncached, never written. A
			// strategy sends it so as far as its window ends as full's.
			st.Tail = m.Usage.Input
			if ref != nil {
				st.Tail = c.tailWithFull(w, st.Tail)
			}
		}
		switch {
		case ref == nil:
			// A read longer than the model's is taken whether or not
			// the messages are sized from the records: full's window
			// is the recorded prompt either way (its front is the
			// prompt less the counted messages), so the read fits it.
			st.Evidence, st.Held, st.Exact = true, read, exact
			if own {
				st.Floor = read
			}
		case ref.CallCost != nil && (ref.Evicted || ref.cut):
			st.Evidence, st.Held, st.Exact = true, read, exact
		case ref.CallCost != nil && ref.floored:
			// The provider held that much of full's window: of this
			// window, as far as it is the same as full's, or as far as
			// it sends what its own previous call sent (an earlier edit
			// shortens what is held by what it took out).
			held := c.heldOfFull(w, st.Keep, read, ref.Tokens, call.Tokens)
			held = cost.RuleOf(ref.CallCost.CacheRule).Steps(held) // the provider reads whole steps
			st.Floor = max(min(read, c.sharedWithFull(w, overhead)), held)
			st.Warm = exact
		}
	}
	cc := cr.sim.Step(st)
	if err := cr.sim.Err(); err != nil {
		return err
	}
	call.CallCost = &CallCost{Model: st.Model, CacheRule: cc.Rule, Cache: cc.Cache, OutputTokens: cc.OutputTokens,
		CostUSD: cost.Priced(roundUSD(cc.CostUSD)), Evicted: cc.Evicted, cut: cc.Cut, floored: cc.Floored}
	ct := t.CostTotals
	cr.rewrites(&ct.rewrites, st.Model, cc)
	switch {
	case st.Model != "" && !cr.sim.Priced(st.Model):
		ct.unpriced = cost.MergeUnpriced(ct.unpriced, []cost.Unpriced{{Model: st.Model, Calls: 1, Tokens: call.Tokens + cc.OutputTokens}})
		call.CallCost.CostUSD = unpriced
	case st.Model != "":
		ct.priced++
	default:
		// A call that names no model (and no --model) has no price:
		// its cost is unknown, never $0.
		call.CallCost.CostUSD = unpriced
	}
	var ok [4]bool
	ct.Cache.Read, ok[0] = checked.Add(ct.Cache.Read, cc.Cache.Read)
	ct.Cache.Write, ok[1] = checked.Add(ct.Cache.Write, cc.Cache.Write)
	ct.Cache.Uncached, ok[2] = checked.Add(ct.Cache.Uncached, cc.Cache.Uncached)
	ct.OutputTokens, ok[3] = checked.Add(ct.OutputTokens, cc.OutputTokens)
	if ok != [4]bool{true, true, true, true} {
		return &checked.OverflowError{What: "the cache and output tokens of the calls"}
	}
	ct.usd += cc.CostUSD
	if cc.Evicted {
		ct.EvictedCalls++
	}
	if cr.full && cr.records && m.Usage != nil {
		u := m.Usage
		call.RecordedUsage = &RecordedCache{CacheRead: u.CacheRead, CacheWrite: u.CacheWrite, Input: u.Input}
		ct.recordedUSD += cr.sim.RecordedCost(st.Model, st.Time, *u)
		a := ct.Agreement
		a.Calls++
		if cost.Agrees(pure.Cache.Read, u.CacheRead) {
			a.Agree++
		}
	}
	return nil
}

// ownRecord reports whether m's record is the bill of the call as it is
// priced: it names its model, priced as that model under its own cache
// rule (no [CostOptions.Rule], no [prices.Catalog.PriceAs]).
func ownRecord(co *CostOptions, m *transcript.Message) bool {
	return m.Model != "" && co.Rule == "" && (co.Catalog == nil || co.Catalog.PricedAs() == "")
}

// sharedWithFull returns the tokens w starts with that full's window at
// the same call sends alike: the unseen overhead, the system part, then
// the conversation from its start up to the first message w leaves out
// or sends otherwise (none after a rolling summary).
func (c *conversation) sharedWithFull(w *window, overhead int) int {
	t := max(0, overhead) + c.h.sysToks
	if w.sel.Summary != "" {
		return t
	}
	want := c.h.reset
	for _, r := range c.cost.runs {
		if r.Lo != want {
			return t
		}
		for p := r.Lo; p < r.Hi; p++ {
			if how := c.sent[p]; how != "" && how != sentWhole {
				return t
			}
			t += c.h.At(p).Tokens + c.rawT[p]
		}
		want = r.Hi
	}
	return t
}

// heldOfFull returns the tokens w starts with that the provider held,
// given that it held read tokens of full's window at the same call, full
// sent fullSent tokens and w sends sent. Where w differs from full's
// window only in what its previous call sent alike (the first keep
// blocks after the front, [cost.Step.Keep]: earlier clears and drops,
// none new) and only in front of what full did not read (full's last
// fullSent-read tokens, which w sends as full does), w's previous prompt
// is full's less the same edits, so the provider held of it what it held
// of full's, less what the edits took out. 0 where that does not hold.
//
// It walks from the end, not from the start: a window whose counted
// messages pass the recorded prompt has lost its front (see
// [cost.Step.Unsent]), so offsets from the start would miss it.
func (c *conversation) heldOfFull(w *window, keep, read, fullSent, sent int) int {
	sysN := len(c.h.sys)
	removed := fullSent - sent
	if w.sel.Summary != "" || keep < sysN || removed <= 0 || read <= removed {
		return 0
	}
	runs := c.cost.runs
	// last: the newest position w sends otherwise or leaves out; at: the
	// number of w's positions up to it (those must be kept blocks).
	last, at, n := -1, 0, 0
	want := c.h.reset
	for _, r := range runs {
		if r.Lo > want {
			// A gap: the block after it must be one w's previous call
			// sent, so that its prompt had the gap too.
			last, at = r.Lo-1, n+1
		}
		for p := r.Lo; p < r.Hi; p++ {
			n++
			if how := c.sent[p]; how != "" && how != sentWhole {
				last, at = p, n
			}
		}
		want = r.Hi
	}
	if want < c.h.Len() {
		return 0 // w ends before full's window does
	}
	if last < 0 || at > keep-sysN {
		return 0
	}
	tail := 0
	for p := last + 1; p < c.h.Len(); p++ {
		tail += c.h.At(p).Tokens
	}
	if tail < fullSent-read {
		return 0
	}
	return read - removed
}

// tailWithFull returns the tokens, up to limit, that w ends with and
// full's window at the same call ends with alike: the conversation's
// newest messages, back to the first one w leaves out or sends
// otherwise; all of limit when w is full's window whole (the record's
// tail may reach past the messages' own tokens).
func (c *conversation) tailWithFull(w *window, limit int) int {
	runs := c.cost.runs
	t, want := 0, c.h.Len()
	for i := len(runs) - 1; i >= 0 && runs[i].Hi == want; i-- {
		for p := runs[i].Hi - 1; p >= runs[i].Lo && t < limit; p-- {
			if how := c.sent[p]; how != "" && how != sentWhole {
				return t
			}
			t += c.h.At(p).Tokens + c.rawT[p]
		}
		want = runs[i].Lo
	}
	if t < limit && want == c.h.reset && w.sel.Summary == "" {
		return limit
	}
	return min(t, limit)
}

// rewrites counts call cc of model in rw and keeps what it
// leaves in the cache.
func (cr *costRun) rewrites(rw *rewrites, model string, cc cost.CallCost) {
	if cr.left == nil {
		cr.left = map[string]int{}
	}
	p := cc.Cache
	rw.Of++
	ru := cost.RuleOf(cc.Rule)
	if !ru.Caches() {
		return
	}
	// What the call paid for and did not read; what it leaves that the
	// next call can read (the cache serves whole steps: what a call
	// sends past its last step was never there to read again).
	paid, leaves, k := ru.Missed(p), ru.Steps(ru.Leaves(p)), 2
	if ru.Writes() {
		k = 0
		if cc.WriteTTL == cost.AnthropicLongTTL {
			k = 1
		}
	}
	if n := min(paid, cr.left[model]-p.Read); n > 0 {
		rw.Calls++
		rw.Tokens += n
		rw.by[k] += n
		rw.settle()
	}
	cr.left[model] = leaves
}

// finish rounds the totals and sets the saving against full's cost and
// why the strategy costs more (fullRewrites: full's rewriting calls).
func (cr *costRun) finish(t *Totals, fullUSD float64, fullRewrites int) {
	ct := t.CostTotals
	ct.fullUSD = fullUSD
	ct.fullRewrites = fullRewrites
	ct.UnpricedModels = slices.DeleteFunc(cr.sim.Unpriced(), func(s string) bool { return s == "" })
	ct.settle()
	if a := ct.Agreement; a != nil {
		if a.Calls == 0 {
			ct.Agreement = nil
		} else {
			a.Share = math.Round(float64(a.Agree)/float64(a.Calls)*1000) / 1000
			if !ct.unpricedAll() {
				r := roundUSD(ct.recordedUSD)
				ct.RecordedCostUSD = &r
			}
		}
	}
}

// costBlocks lists w's whole window as conversation.costStep describes it,
// each block named by what it is (tests compare the steps against it).
func (c *conversation) costBlocks(w *window, overhead int) []cost.Block {
	out := []cost.Block{{ID: cost.OverheadID, Tokens: max(0, overhead), Breakpoint: true}}
	for k, e := range c.h.sys {
		out = append(out, cost.Block{ID: cost.ContentID(e.Message.Index, "system"), Tokens: e.Tokens, Breakpoint: k == len(c.h.sys)-1})
	}
	if w.sel.Summary != "" {
		out = append(out, cost.Block{ID: cost.ContentID(-1, "summary", w.sel.Summary), Tokens: w.sel.SummaryToks})
	}
	for _, p := range w.positions() {
		how := c.sent[p]
		if how == "" {
			how = sentWhole
		}
		m := c.sentMessage(p)
		parts := []string{m.Text}
		for _, tc := range m.ToolCalls {
			parts = append(parts, tc.Name, tc.Arguments)
		}
		out = append(out, cost.Block{ID: cost.ContentID(m.Index, string(how), parts...), Tokens: c.h.At(p).Tokens + c.rawT[p]})
	}
	return out
}
