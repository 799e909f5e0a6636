package usage

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// A Pricer prices one recorded call: its usage u, answered by model at
// time at (zero when the transcript records none). ok is false when it
// has no price for that model at that time. Package cost provides one
// that prices as the provider bills (cost.RecordedPricer); the listing,
// the summaries and the breakdowns price each call with it as it is
// added, so a session that straddles a price change, or has calls in a
// dearer tier, costs the sum of its calls.
type Pricer interface {
	PriceCall(model string, at time.Time, u transcript.Usage) (usd float64, ok bool)
}

// callCost is what a [Pricer] made of one call: offered is false when
// there was no pricer; priced false when it had no price (or the call
// names no model, which no price can fit).
type callCost struct {
	usd             float64
	offered, priced bool
}

// priceCall prices one call with p (nil: not offered).
func priceCall(p Pricer, model string, at time.Time, u *transcript.Usage) callCost {
	if p == nil {
		return callCost{}
	}
	if model == "" {
		return callCost{offered: true}
	}
	v, ok := p.PriceCall(model, at, *u)
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
// offered to a [Pricer] and got no price, with their tokens; calls that
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
