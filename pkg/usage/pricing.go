package usage

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// CallCost prices one recorded call as the provider billed it: its usage
// u, answered by model m at time at (zero when the transcript records
// none: the newest prices), at the prices in force then and in the tier
// its whole prompt (uncached input, cache reads and writes) falls in
// ([prices.Model.At]): uncached input, cache reads, cache writes (the
// 1-hour part at the 1-hour price) and output. ok is false, and the cost
// 0, when m has no price then. The listing, the summaries and the
// breakdowns price each call so as it is added, so a session that
// straddles a price change, or has calls in a dearer tier, costs the sum
// of its calls.
func CallCost(m prices.Model, at time.Time, u transcript.Usage) (usd float64, ok bool) {
	p := m.At(at, promptTokens(u))
	if p == nil {
		return 0, false
	}
	w1h := min(u.CacheWrite1h, u.CacheWrite)
	return (float64(u.Input)*p.Input + float64(u.CacheRead)*p.CacheRead +
		float64(u.CacheWrite-w1h)*p.CacheWrite5m + float64(w1h)*p.CacheWrite1h +
		float64(u.Output)*p.Output) / 1e6, true
}

// promptTokens is the whole prompt of a call's usage: uncached input,
// cache reads and cache writes, the size that chooses a price tier
// (saturating at the largest int).
func promptTokens(u transcript.Usage) int {
	n, ok := checked.Add(u.Input, u.CacheRead)
	if ok {
		n, ok = checked.Add(n, u.CacheWrite)
	}
	if !ok {
		return math.MaxInt
	}
	return n
}

// callCost is what the catalog made of one call: offered is false when
// there was no catalog; priced false when it had no price (or the call
// names no model, which no price can fit).
type callCost struct {
	usd             float64
	offered, priced bool
}

// priceCall prices one call with cat (nil: not offered) by [CallCost].
func priceCall(cat *prices.Catalog, model string, at time.Time, u *transcript.Usage) callCost {
	if cat == nil {
		return callCost{}
	}
	if model == "" {
		return callCost{offered: true}
	}
	v, ok := CallCost(cat.LookupCall(model), at, *u)
	return callCost{usd: v, offered: true, priced: ok}
}

// Cost is what the tally's calls cost, summed call by call and rounded
// ([usd.Round]), and the models, sorted, that some call could not be
// priced for (their calls are left out of the sum). cost is nil when the
// calls were not priced, none names its model, or none got a price (the
// cost is unknown, never $0); it is 0 when the models named have no call
// left (every one a repeat of an earlier file's response).
func (t *UsageTally) Cost() (cost *float64, unpriced []string) {
	if !t.priced {
		return nil, nil
	}
	sum, named, priced, calls := 0.0, false, false, false
	for _, m := range t.models() {
		if m == "" {
			continue
		}
		named = true
		mt := t.byModel[m]
		sum += mt.usd
		if mt.unpriced.Calls > 0 {
			unpriced = append(unpriced, m)
		}
		priced = priced || mt.used.Calls > mt.unpriced.Calls
		calls = calls || mt.used.Calls > 0
	}
	if !named {
		return nil, nil
	}
	if !calls {
		// Every call went (each a copy of an earlier file's response):
		// nothing is billed here, which is $0, not an unknown.
		zero := 0.0
		return &zero, nil
	}
	if !priced {
		return nil, unpriced
	}
	sum = usd.Round(sum)
	return &sum, unpriced
}

// UnpricedCalls is what a cost leaves out: the calls of a model that have
// no price, and their tokens (input, cache reads and writes, output).
type UnpricedCalls struct {
	Model  string `json:"model"`
	Calls  int    `json:"calls"`
	Tokens int    `json:"tokens"`
}

// Unpriced returns, models sorted, the calls of the tally that were
// priced with a catalog and got no price, with their tokens; calls that
// record no model count under "". Sums saturate at the largest int.
func (t *UsageTally) Unpriced() []UnpricedCalls {
	var out []UnpricedCalls
	for _, m := range t.models() {
		u := t.byModel[m].unpriced
		if u.Calls == 0 {
			continue
		}
		tok, ok := checked.Sum(u.Input, u.CacheRead, u.CacheWrite, u.Output)
		if !ok {
			tok = math.MaxInt
		}
		out = append(out, UnpricedCalls{Model: m, Calls: u.Calls, Tokens: tok})
	}
	return out
}

// MergeUnpriced adds b's calls and tokens to a's, model by model, sorted
// by model name (sums saturate).
func MergeUnpriced(a, b []UnpricedCalls) []UnpricedCalls {
	out := slices.Clone(a)
	for _, u := range b {
		i := slices.IndexFunc(out, func(x UnpricedCalls) bool { return x.Model == u.Model })
		if i < 0 {
			out = append(out, u)
			continue
		}
		out[i].Calls = saturatingAdd(out[i].Calls, u.Calls)
		out[i].Tokens = saturatingAdd(out[i].Tokens, u.Tokens)
	}
	slices.SortFunc(out, func(x, y UnpricedCalls) int { return strings.Compare(x.Model, y.Model) })
	return out
}

func saturatingAdd(a, b int) int {
	if n, ok := checked.Add(a, b); ok {
		return n
	}
	return math.MaxInt
}

// addTally adds o's calls, per model, and their costs to t.
func (t *UsageTally) addTally(o *UsageTally) error {
	for _, m := range o.models() {
		if err := t.addModel(m, o.byModel[m]); err != nil {
			return err
		}
	}
	t.priced = t.priced || o.priced
	return nil
}

// addModel adds one model's calls mt to t.
func (t *UsageTally) addModel(m string, mt *modelTally) error {
	sum := modelTally{}
	if r := t.byModel[m]; r != nil {
		sum = *r
	}
	total := RecordedUsage{}
	if t.Total != nil {
		total = *t.Total
	}
	if err := sum.used.Add(&mt.used); err != nil {
		return err
	}
	if err := sum.unpriced.Add(&mt.unpriced); err != nil {
		return err
	}
	if err := total.Add(&mt.used); err != nil {
		return err
	}
	sum.usd += mt.usd
	if t.byModel == nil {
		t.byModel = map[string]*modelTally{}
	}
	t.byModel[m], t.Total = &sum, &total
	return nil
}

// only is the part of t answered by model m, as a tally of its own.
func (t *UsageTally) only(m string) *UsageTally {
	one := &UsageTally{priced: t.priced}
	if mt := t.byModel[m]; mt != nil {
		u := mt.used
		c := *mt
		one.Total, one.byModel = &u, map[string]*modelTally{m: &c}
	}
	return one
}
