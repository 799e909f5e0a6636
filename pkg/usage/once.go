package usage

import (
	"hash/fnv"
	"math"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Each response once.
//
// A response recorded in several files of one run (the same
// [transcript.Message.Response]: Claude Code's message.id and requestId, which
// a resumed session, a subagent's copy or a checkpoint snapshot repeat) is
// billed once in a summary: in the first session that records it, sessions
// taken in the order they were added to the [SessionSummaries] (the order of
// the files named, a directory's files in sorted path order). Every later copy
// is left out of its session's usage and cost and counted in the session's
// RepeatedResponses and RepeatedUSD instead.
//
// A [SessionSummary] tallies every call it is given, as before; it also
// keeps, for each call that names its response, the response's key and
// what the call added. [SessionSummaries] settles the rows added so far
// when a summary is made of them ([NewSummary], [SessionSummaries.At]):
// it walks them in the order added with the set of keys met, and takes
// each repeat back out of its row. The set holds 16 bytes a response of
// the run while it settles, the calls' records 72 bytes each until then.

// responseKey is a 128-bit FNV-1a hash of a [transcript.Message.Response]: two
// different responses of a run share one with a chance of about n²/2¹²⁹
// (n responses), nil in practice, and the set of them is smaller than the
// ids (about 60 bytes each).
type responseKey [16]byte

func keyOf(response string) responseKey {
	h := fnv.New128a()
	h.Write([]byte(response))
	var k responseKey
	h.Sum(k[:0])
	return k
}

// keyedCall is a call that names its response, as its session tallied
// it: 72 bytes (its model and day are indexes into the session's
// [keyedCalls] models and days).
type keyedCall struct {
	key   responseKey
	usage transcript.Usage
	usd   float64
	// model indexes models, day days: the UTC day the call counted on
	// ("": none yet; Finish moves it to the session's first day, as it
	// does the tally's).
	model, day      uint16
	offered, priced bool
}

// keyedCalls are a session's keyed calls and the names they index: its
// models and days, each once.
type keyedCalls struct {
	calls        []keyedCall
	models, days []string
}

// nameIndex is the index of n in *names, added when new. A session of
// more than 65,536 models or days (never seen) keeps no more calls:
// those are counted in every file.
func nameIndex(names *[]string, n string) (uint16, bool) {
	for i, m := range *names {
		if m == n {
			return uint16(i), true
		}
	}
	if len(*names) > math.MaxUint16 {
		return 0, false
	}
	*names = append(*names, n)
	return uint16(len(*names) - 1), true
}

// keep notes that the call (model, u, c), counted on day, names response.
func (s *SessionSummary) keep(response, model, day string, u *transcript.Usage, c callCost) {
	if response == "" {
		return
	}
	k := &s.responses
	m, ok1 := nameIndex(&k.models, model)
	d, ok2 := nameIndex(&k.days, day)
	if !ok1 || !ok2 {
		return
	}
	k.calls = append(k.calls, keyedCall{key: keyOf(response), usage: *u, usd: c.usd, model: m, day: d, offered: c.offered, priced: c.priced})
}

// keepUnsent notes the calls of t outside its conversation that name
// their response; they count on day "" ([SessionSummary.Finish]).
func (s *SessionSummary) keepUnsent(t *transcript.Transcript) {
	for i := range t.Unsent {
		c := &t.Unsent[i]
		if c.Response != "" {
			s.keep(c.Response, c.Model, "", &c.Usage, priceCall(s.Catalog, c.Model, c.Time, &c.Usage))
		}
	}
}

// undatedTo moves the kept calls with no day to day (the session's
// first), and keeps them in a slice of their own size.
func (s *SessionSummary) undatedTo(day string) {
	k := &s.responses
	for i, n := range k.days {
		if n == "" {
			k.days[i] = day // "" and day both there: two indexes of one day
		}
	}
}

// settled is k in slices of their own size (append left up to twice).
func (k keyedCalls) settled() keyedCalls {
	if k.calls == nil {
		return keyedCalls{}
	}
	return keyedCalls{calls: slices.Clone(k.calls), models: slices.Clone(k.models), days: slices.Clone(k.days)}
}

// repeats is what a session's repeated responses would have added: how
// many, what the priced ones cost, and whether any had a price.
type repeats struct {
	n      int
	usd    float64
	priced bool
}

func (r *repeats) add(o repeats) {
	r.n += o.n
	r.usd += o.usd
	r.priced = r.priced || o.priced
}

// cost is RepeatedUSD: nil when there are no repeats or none had a price
// (an unpriced repeat is never $0).
func (r *repeats) cost() *float64 {
	if r.n == 0 || !r.priced {
		return nil
	}
	v := usd.Round(r.usd)
	return &v
}

// countOnce settles the rows not settled yet, in the order added: the
// first row to record a response keeps it, every later copy is taken out
// of its row's usage (and its day's) and counted in the row's repeats.
// Rows settled by an earlier call are not looked at again: their
// responses are not in the set.
func (ss *SessionSummaries) countOnce() {
	var seen map[responseKey]struct{}
	for j := ss.settled; j < ss.n; j++ {
		t := ss.stored(j).tally
		if t == nil || t.responses.calls == nil {
			continue
		}
		if seen == nil {
			seen = map[responseKey]struct{}{}
		}
		models, days := t.responses.models, t.responses.days
		for i := range t.responses.calls {
			c := &t.responses.calls[i]
			if _, ok := seen[c.key]; !ok {
				seen[c.key] = struct{}{}
				continue
			}
			model, day := models[c.model], days[c.day]
			cost := callCost{usd: c.usd, offered: c.offered, priced: c.priced}
			t.usage.removeCall(model, &c.usage, cost)
			if d := t.days[day]; d != nil {
				d.removeCall(model, &c.usage, cost)
				if d.Total != nil && d.Total.Calls == 0 {
					delete(t.days, day)
				}
			}
			t.repeated.add(repeats{n: 1, usd: c.usd, priced: c.priced})
		}
		t.responses = keyedCalls{}
	}
	ss.settled = ss.n
}

// removeCall takes back a call that [UsageTally.addCall] counted with the
// same figures: they were added, so nothing goes below zero. The model
// stays among the tally's models (it answered). A model left with no call
// costs exactly 0 (no rounding left over).
func (t *UsageTally) removeCall(model string, u *transcript.Usage, c callCost) {
	mt := t.byModel[model]
	if t.Total == nil || mt == nil {
		return
	}
	total, m := *t.Total, *mt
	total.sub(u)
	m.used.sub(u)
	switch {
	case c.priced:
		m.usd -= c.usd
	case c.offered:
		m.unpriced.sub(u)
	}
	if m.used.Calls == 0 {
		m.usd = 0
	}
	t.Total, t.byModel[model] = &total, &m
}

// sub takes one call of usage u out of r.
func (r *RecordedUsage) sub(u *transcript.Usage) {
	r.Calls--
	r.Input -= u.Input
	r.CacheRead -= u.CacheRead
	r.CacheWrite -= u.CacheWrite
	r.CacheWrite1h -= u.CacheWrite1h
	r.Output -= u.Output
}

// dayOf is the UTC day a call at ts counts on ("" when not recorded).
func dayOf(ts time.Time) string {
	if ts.IsZero() {
		return ""
	}
	return ts.UTC().Format(time.DateOnly)
}
