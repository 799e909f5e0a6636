package cost

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// Step is one call given as a change of the previous call's window, so
// that a long session costs time in proportion to what changes between
// calls, not to the windows' lengths.
//
// A window is its front block (the system prompt and tool definitions a
// transcript does not show: one fixed block whose size may be measured
// anew at each call, always first) and then the blocks after it. Keep
// says how many of the previous call's blocks after the front this
// call's window starts with, identical; Append lists the blocks that
// follow them. A front with another ID than the previous call's starts a
// new prefix: nothing is shared, and Keep is taken as 0.
type Step struct {
	// Model chooses the prices and the cache rule; caches are per model.
	Model string
	// Time is when the call was made (zero: unknown, entries never
	// expire).
	Time time.Time
	// Output is the reply's recorded output tokens.
	Output int
	// Front is the window's first block; its Tokens may change from call
	// to call while its ID stays.
	Front Block
	// Keep is the number of blocks after the front shared with the
	// previous call (clamped to what that call had).
	Keep int
	// Append are the blocks after the kept ones.
	Append []Block
	// Evidence, when set, says the provider's cache held at most Held
	// tokens of this window's prefix at this call (a recorded cache read
	// shorter than the model's, see [Simulator.Step]).
	Evidence bool
	Held     int
	// Exact, with Evidence, cuts the read to Held whenever the model
	// would read more, not only beyond the slack of [Agrees]: the
	// window's tokens are the provider's (sized from the records), so
	// there is no counting slack to allow for.
	Exact bool
	// Floor, when above 0, says the provider's cache held at least Floor
	// tokens of this window's prefix (a recorded read longer than the
	// model's: an entry kept past the modelled TTL, a prefix cached
	// below the modelled minimum, a read past the last breakpoint): the
	// call reads at least that much of its window.
	Floor int
	// Cached says the provider cached this call's prompt (its record
	// reads or writes the cache) whatever the model's minimum cacheable
	// length: the minimum is not applied at this call.
	Cached bool
	// Unsent is how many tokens of this window the provider's prompt did
	// not hold: the call's recorded prompt is that much shorter than the
	// window (the harness dropped content the transcript does not show,
	// e.g. old tool results cleared in place). They are taken out of what
	// the call writes and sends uncached, never out of its read; the
	// cache entries keep the window's prefixes.
	Unsent int
	// TTL, when not 0, is this call's Anthropic cache TTL in place of
	// the simulator's: the entries it writes and refreshes live that
	// long and its writes are priced at that TTL's price (a harness
	// that sets the TTL per request, as the records show).
	TTL TTL
	// Warm says the provider kept this window's cache past the modelled
	// TTL (full's record at this call read more than the model): the
	// entries written before are read as live, expired or not.
	Warm bool
	// Tail, when above 0, is how many tokens at the end of this window
	// the provider received after the request's last cache breakpoint
	// (an Anthropic record's uncached input_tokens): up to what the call
	// would write, they are sent uncached at the input price instead of
	// written, and the entries the call leaves hold its window less
	// them, so the next call reads up to the breakpoint, not past it.
	Tail int
}

// Simulator prices calls one at a time under the cache model ([Simulate]
// is the same over a list of whole windows). It keeps the current
// window as prefix sums and, on it, the cache entries of every model, so
// a call costs time in proportion to the blocks it appends and the
// entries it passes, whatever the window's length.
//
// Compared with matching every prefix of every earlier window, one thing
// is left out: a window that comes back to what an earlier window held
// after a window in between diverged from it (a revert) does not find
// that earlier window's cache. Strategies do not do that: what they drop
// or edit stays dropped or edited.
type Simulator struct {
	// err is the first sum that did not fit an int (see [Simulator.Err]);
	// steps counts the calls stepped.
	err   error
	steps int

	rule     prices.CacheRule
	ttl      time.Duration
	cat      *prices.Catalog
	models   map[string]modelInfo
	unpriced map[string]bool
	totals   Totals

	front string // the current front's ID
	have  bool   // a call was made
	// rel[k] is the tokens of the first k blocks after the front
	// (rel[0] = 0); frontTok the front's tokens now.
	rel      []int
	frontTok int
	// bps are the depths (blocks after the front) that end with a
	// breakpoint block, increasing; the front is depth 0.
	bps []int
	// ents are the Anthropic entries on the current window, by
	// increasing depth.
	ents []aEntry
	// oai is each model's latest OpenAI use of the current window.
	oai map[string]oRec
	// minTokens is the current call's model's minimum cacheable prefix.
	minTokens int
	// trimmed is set by a step whose exact evidence cut the read within
	// the slack of [Agrees] (not an eviction).
	trimmed bool
}

type modelInfo struct {
	m      prices.Model
	priced bool
}

// aEntry is an Anthropic cache entry: the prefix of depth blocks after
// the front, written by model, of tokens tokens.
type aEntry struct {
	depth   int
	model   string
	tokens  int
	expires time.Time // zero: never
	// capped is set when evidence cut the entry to fewer tokens than its
	// prefix ([Step.Evidence]): a shallower entry may hold more.
	capped bool
}

// oRec is a model's latest call sharing depth blocks after the front with
// the current window: every prefix of it is cached until expires.
type oRec struct {
	depth   int
	tokens  int
	expires time.Time
}

func live(expires, t time.Time) bool {
	return expires.IsZero() || t.IsZero() || !t.After(expires)
}

func expiry(t time.Time, ttl time.Duration) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Add(ttl)
}

// NewSimulator returns a simulator with the options of [Simulate].
func NewSimulator(opt Options) (*Simulator, error) {
	if _, err := prices.ParseCacheRule(string(opt.Rule)); err != nil {
		return nil, err
	}
	ttl := opt.TTL
	if ttl == 0 {
		ttl = AnthropicTTL
	}
	if ttl != AnthropicTTL && ttl != AnthropicLongTTL {
		return nil, fmt.Errorf("TTL %v: Anthropic offers %v and %v", ttl, AnthropicTTL, AnthropicLongTTL)
	}
	cat := opt.Catalog
	if cat == nil {
		cat = prices.Default()
	}
	return &Simulator{rule: opt.Rule, ttl: time.Duration(ttl), cat: cat, models: map[string]modelInfo{},
		unpriced: map[string]bool{}, rel: []int{0}, oai: map[string]oRec{}}, nil
}

// RecordedCost prices a call's recorded usage u, made at t, at model's
// prices for that date and prompt size, as the simulator finds them
// ([usage.CallCost]; 0 for a model without prices).
func (s *Simulator) RecordedCost(model string, t time.Time, u transcript.Usage) float64 {
	usd, _ := usage.CallCost(s.model(model).m, t, u)
	return usd
}

// Totals returns the sums of the calls so far.
func (s *Simulator) Totals() Totals { return s.totals }

// Err returns the first sum that did not fit an int, as "call N: " and an
// [*checked.OverflowError] (engine.TokenOverflowError): a window whose
// blocks, or calls whose totals, add up past the largest int. The figures
// of that call and after are not to be trusted; nil when every sum fit.
func (s *Simulator) Err() error { return s.err }

// add is a + b; past the largest int it records what overflowed (once)
// and gives the largest int.
func (s *Simulator) add(a, b int, what string) int {
	n, ok := checked.Add(a, b)
	if !ok {
		if s.err == nil {
			s.err = fmt.Errorf("call %d: %w", s.steps, &checked.OverflowError{What: what})
		}
		return math.MaxInt
	}
	return n
}

// Unpriced lists, sorted, the models seen so far that have no prices
// (their calls cost 0); "" stands for calls that name no model.
func (s *Simulator) Unpriced() []string {
	out := make([]string, 0, len(s.unpriced))
	for name := range s.unpriced {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// Priced reports whether the simulator has prices for the model.
func (s *Simulator) Priced(model string) bool { return s.model(model).priced }

func (s *Simulator) model(name string) modelInfo {
	if mi, ok := s.models[name]; ok {
		return mi
	}
	m := s.cat.LookupCall(name)
	mi := modelInfo{m: m, priced: m.Prices != nil}
	if !mi.priced {
		s.unpriced[name] = true
	}
	s.models[name] = mi
	return mi
}

// prefix returns the tokens of the prefix of depth blocks after the
// front, the front included.
func (s *Simulator) prefix(depth int) int { return s.frontTok + s.rel[depth] }

// cut makes the current window its first keep blocks after the front
// (all of it dropped, front included, when fresh is set).
func (s *Simulator) cut(keep int, fresh bool) {
	if fresh {
		s.ents, s.bps = s.ents[:0], s.bps[:0]
		clear(s.oai)
		s.rel = s.rel[:1]
		return
	}
	keep = max(0, min(keep, len(s.rel)-1))
	for name, r := range s.oai {
		if r.depth > keep {
			r.tokens -= s.rel[r.depth] - s.rel[keep]
			r.depth = keep
			s.oai[name] = r
		}
	}
	n := len(s.ents)
	for n > 0 && s.ents[n-1].depth > keep {
		n--
	}
	s.ents = s.ents[:n]
	n = len(s.bps)
	for n > 0 && s.bps[n-1] > keep {
		n--
	}
	s.bps = s.bps[:n]
	s.rel = s.rel[:keep+1]
}

// Step prices the next call and updates the caches.
//
// With st.Evidence, where the model would read more than st.Held tokens
// and the two do not [Agrees] (the slack of counting), the cache is taken
// to have held no more than st.Held: the call's model's entries longer
// than that (beyond the slack) are cut to st.Held tokens before the call
// reads, so it reads st.Held. The call then writes what it did not read,
// as any call does, and [CallCost.Evicted] is set.
func (s *Simulator) Step(st Step) CallCost {
	s.steps++
	if d := time.Duration(st.TTL); d != 0 && d != s.ttl && (st.TTL == AnthropicTTL || st.TTL == AnthropicLongTTL) {
		defer func(t time.Duration) { s.ttl = t }(s.ttl)
		s.ttl = d
	}
	s.cut(st.Keep, s.have && st.Front.ID != s.front)
	if !s.have || st.Front.ID != s.front {
		s.bps = s.bps[:0]
		if st.Front.Breakpoint {
			s.bps = append(s.bps, 0)
		}
	}
	s.have, s.front, s.frontTok = true, st.Front.ID, st.Front.Tokens
	for _, b := range st.Append {
		s.rel = append(s.rel, s.add(s.rel[len(s.rel)-1], b.Tokens, windowTokens))
		if b.Breakpoint {
			s.bps = append(s.bps, len(s.rel)-1)
		}
	}
	s.add(s.frontTok, s.rel[len(s.rel)-1], windowTokens) // the whole window
	mi := s.model(st.Model)
	st.Model = mi.m.Name // a dated snapshot shares its family's cache
	rule := s.rule
	if rule == "" {
		rule = mi.m.CacheRule()
	}
	ru := RuleOf(rule)
	var p Parts
	evicted := false
	switch ru.Reads() {
	case ReadsEntries:
		s.minTokens = mi.m.MinCacheTokens
		if st.Cached {
			s.minTokens = 0
		}
		p, evicted = s.anthropic(st, s.minTokens)
	case ReadsPrefix:
		mn := mi.m.MinCacheTokens
		if st.Cached {
			mn = 1 // 0 means the rule's own minimum
		}
		p, evicted = s.openAI(st, ru, ru.MinTokens(mn))
	default:
		p = Parts{Uncached: s.prefix(len(s.rel) - 1)}
	}
	cut := evicted || s.trimmed
	s.trimmed = false
	floored := false
	if total := p.Read + p.Write + p.Uncached; st.Floor > p.Read && total > 0 {
		// The record read more than the model: the provider held it
		// (under the rule none too: a provider that caches implicitly,
		// as Gemini's does, bills its reads so).
		p = ru.Rest(min(st.Floor, total), total)
		floored = true
	}
	if st.Unsent > 0 {
		// The prompt the provider billed was shorter than the window:
		// what was not sent is neither written nor sent uncached, nor
		// read. It comes off the write first, then the uncached input,
		// then the read: the call's parts add up to what it sent.
		p = p.Unsend(st.Unsent)
	}
	d := min(st.Tail, p.Write)
	// Sent after the last breakpoint: uncached, and not in the cache.
	p = p.Untail(d)
	if st.Unsent > 0 || d > 0 {
		// What the call leaves in the cache is what it sent of its
		// window, no more: the next call reads at most that.
		s.hold(st.Model, ru, p)
	}
	cc := CallCost{Cache: p, OutputTokens: st.Output, Rule: rule, Evicted: evicted, Cut: cut, Floored: floored}
	if ru.Writes() {
		cc.WriteTTL = TTL(s.ttl)
	}
	if pr := mi.m.At(st.Time, p.Read+p.Write+p.Uncached); pr != nil {
		w := pr.CacheWrite5m
		if TTL(s.ttl) == AnthropicLongTTL {
			w = pr.CacheWrite1h
		}
		cc.CostUSD = (float64(p.Uncached)*pr.Input + float64(p.Read)*pr.CacheRead +
			float64(p.Write)*w + float64(st.Output)*pr.Output) / 1e6
	}
	t := &s.totals
	t.Calls++
	t.Cache.Read = s.add(t.Cache.Read, p.Read, totalTokens)
	t.Cache.Write = s.add(t.Cache.Write, p.Write, totalTokens)
	t.Cache.Uncached = s.add(t.Cache.Uncached, p.Uncached, totalTokens)
	t.OutputTokens = s.add(t.OutputTokens, st.Output, totalTokens)
	t.CostUSD += cc.CostUSD
	return cc
}

// What the overflow errors name.
const (
	windowTokens = "the window's block tokens"
	totalTokens  = "the calls' cache read, cache write, uncached and output tokens"
)

// anthropic applies the Anthropic rule to the current window; evicted
// reports that the step's evidence cut the read.
func (s *Simulator) anthropic(st Step, minTokens int) (p Parts, evicted bool) {
	end := len(s.rel) - 1
	total := s.prefix(end)
	if total < minTokens || total <= 0 {
		return Parts{Uncached: max(0, total)}, false
	}
	// The deepest live entry of this model; expired entries on top go.
	for n := len(s.ents); n > 0 && !st.Warm && !live(s.ents[n-1].expires, st.Time); n-- {
		s.ents = s.ents[:n-1]
	}
	i := s.deepest(st)
	if st.Evidence && i >= 0 {
		if r := s.entryTokens(i); r > st.Held && !Agrees(r, st.Held) {
			s.evict(st.Model, st.Held, false)
			evicted = true
		} else if r > st.Held && st.Exact {
			s.evict(st.Model, st.Held, true)
			s.trimmed = true
		}
	}
	if evicted || s.trimmed {
		i = s.deepest(st)
	}
	read, at := 0, -1
	if i >= 0 {
		e := &s.ents[i]
		read, at = s.entryTokens(i), e.depth
		e.tokens, e.expires = read, expiry(st.Time, s.ttl) // the read refreshes it
	}
	// Breakpoints below the read are refreshed; past it, and at the end,
	// written. After an eviction every breakpoint is written whole: the
	// call sent its whole window and wrote what it did not read.
	for _, d := range s.bps {
		switch {
		case (evicted || s.trimmed) && d < end:
			s.write(d, st)
		case d < at:
			if i := s.find(d, st.Model); i >= 0 && (st.Warm || live(s.ents[i].expires, st.Time)) {
				s.ents[i].expires = expiry(st.Time, s.ttl)
			}
		case d > at && d < end:
			s.write(d, st)
		}
	}
	if end > at {
		s.write(end, st)
	}
	return Parts{Read: read, Write: total - read}, evicted
}

// deepest returns the index in ents of the live entry of the step's
// model that holds the most tokens, the deepest of equals, or -1. An
// entry that holds its whole prefix holds at least as much as any
// shallower one; only an entry cut by evidence may hold less.
func (s *Simulator) deepest(st Step) int {
	best := -1
	for i := len(s.ents) - 1; i >= 0; i-- {
		e := &s.ents[i]
		if e.model != st.Model || !st.Warm && !live(e.expires, st.Time) {
			continue
		}
		if best < 0 || s.entryTokens(i) > s.entryTokens(best) {
			best = i
		}
		if !e.capped {
			break
		}
	}
	return best
}

// entryTokens is what entry i holds of the current window.
func (s *Simulator) entryTokens(i int) int {
	return min(s.ents[i].tokens, s.prefix(s.ents[i].depth))
}

// evict cuts model's entries that hold more than held tokens (beyond
// the slack of [Agrees], or at all when exact) to held tokens: the
// provider held that much of the prefix and no more.
func (s *Simulator) evict(model string, held int, exact bool) {
	for i := range s.ents {
		e := &s.ents[i]
		if t := min(e.tokens, s.prefix(e.depth)); e.model == model && t > held && (exact || !Agrees(t, held)) {
			e.tokens, e.capped = max(0, held), true
		}
	}
}

// hold caps what the step's model has cached of the current window at
// what the call with parts p left there ([Rule.Leaves]).
func (s *Simulator) hold(model string, ru Rule, p Parts) {
	switch ru.Reads() {
	case ReadsEntries:
		s.evict(model, ru.Leaves(p), true)
	case ReadsPrefix:
		if r, ok := s.oai[model]; ok {
			r.tokens = min(r.tokens, ru.Leaves(p))
			s.oai[model] = r
		}
	}
}

// find returns the index in ents of the entry of model at depth, or -1.
func (s *Simulator) find(depth int, model string) int {
	i, _ := slices.BinarySearchFunc(s.ents, depth, func(e aEntry, d int) int { return e.depth - d })
	for ; i < len(s.ents) && s.ents[i].depth == depth; i++ {
		if s.ents[i].model == model {
			return i
		}
	}
	return -1
}

// write writes the entry of the prefix of depth blocks for the step's
// model, when it is long enough to be cached.
func (s *Simulator) write(depth int, st Step) {
	tok := s.prefix(depth)
	if tok < s.minTokens {
		return
	}
	e := aEntry{depth: depth, model: st.Model, tokens: tok, expires: expiry(st.Time, s.ttl)}
	if i := s.find(depth, st.Model); i >= 0 {
		s.ents[i] = e
		return
	}
	i, _ := slices.BinarySearchFunc(s.ents, depth+1, func(e aEntry, d int) int { return e.depth - d })
	s.ents = slices.Insert(s.ents, i, e)
}

// openAI applies a rule that reads the shared prefix (OpenAI's) to the
// current window: the longest prefix shared with this model's latest
// call, when that is live; evicted reports that the step's evidence cut
// the read.
func (s *Simulator) openAI(st Step, ru Rule, minTokens int) (p Parts, evicted bool) {
	end := len(s.rel) - 1
	total := max(0, s.prefix(end))
	common := 0
	if r, ok := s.oai[st.Model]; ok && (st.Warm || live(r.expires, st.Time)) {
		common = min(r.tokens, s.prefix(r.depth))
	}
	if st.Evidence && common > st.Held && !Agrees(common, st.Held) {
		common, evicted = st.Held, true
	} else if st.Evidence && common > st.Held && st.Exact {
		common, s.trimmed = st.Held, true
	}
	read := 0
	switch {
	case (s.trimmed || evicted) && common == st.Held && common > 0:
		// Cut to the record: the provider's read is already in its own
		// steps.
		read = common
	default:
		read = ru.Read(common, minTokens)
	}
	s.oai[st.Model] = oRec{depth: end, tokens: total, expires: expiry(st.Time, ru.Retention(s.ttl))}
	return Parts{Read: read, Uncached: total - read}, evicted
}

// Simulate prices calls in order under the cache model: see the package
// documentation for the rules. Each call's first block is its front (see
// [Step]); two calls share the blocks after it up to the first whose ID
// or tokens differ.
func Simulate(calls []Call, opt Options) (*Report, error) {
	s, err := NewSimulator(opt)
	if err != nil {
		return nil, err
	}
	rep := &Report{Calls: make([]CallCost, 0, len(calls))}
	var prev []Block
	prevFront := ""
	for i := range calls {
		c := &calls[i]
		st := Step{Model: c.Model, Time: c.Time, Output: c.Output}
		blocks := c.Blocks
		if len(blocks) > 0 {
			st.Front, blocks = blocks[0], blocks[1:]
		}
		k := 0
		for i > 0 && st.Front.ID == prevFront && k < len(blocks) && k < len(prev) && blocks[k] == prev[k] {
			k++
		}
		st.Keep, st.Append = k, blocks[k:]
		prev, prevFront = blocks, st.Front.ID
		rep.Calls = append(rep.Calls, s.Step(st))
		if err := s.Err(); err != nil {
			return nil, err
		}
	}
	rep.Totals = s.Totals()
	rep.Unpriced = s.Unpriced()
	return rep, nil
}
