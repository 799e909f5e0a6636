package cost

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

var (
	anthropic = RuleOf(prices.CacheAnthropic)
	openAI    = RuleOf(prices.CacheOpenAI)
	noCache   = RuleOf(prices.CacheNone)
)

// Every rule prices names has its line here, and no other.
func TestRulesNamed(t *testing.T) {
	var names []prices.CacheRule
	for _, r := range rules {
		names = append(names, r.name)
	}
	if !slices.Equal(names, prices.CacheRules) {
		t.Errorf("rules %v, prices.CacheRules %v", names, prices.CacheRules)
	}
	for _, c := range []struct {
		name                  prices.CacheRule
		reads                 Reads
		caches, writes        bool
		wantName              prices.CacheRule
		min0, min2048, step50 int
	}{
		{prices.CacheAnthropic, ReadsEntries, true, true, prices.CacheAnthropic, 0, 2048, 50},
		{prices.CacheOpenAI, ReadsPrefix, true, false, prices.CacheOpenAI, 1024, 2048, 0}, // 50 tokens: no whole step of 128
		{prices.CacheNone, ReadsNothing, false, false, prices.CacheNone, 0, 2048, 50},
		{"", ReadsNothing, false, false, "", 0, 2048, 50},       // no rule
		{"gemini", ReadsNothing, false, false, "", 0, 2048, 50}, // unknown: none
		{"zero", ReadsNothing, false, false, "", 0, 2048, 50},   // the zero Rule
	} {
		r := RuleOf(c.name)
		if c.name == "zero" {
			r = Rule{}
		}
		if r.def().name != c.wantName || r.Reads() != c.reads || r.Caches() != c.caches || r.Writes() != c.writes {
			t.Errorf("RuleOf(%q) = %s reads %d caches %v writes %v, want %s %d %v %v", c.name, r.def().name, r.Reads(), r.Caches(), r.Writes(), c.wantName, c.reads, c.caches, c.writes)
		}
		if got := r.MinTokens(0); got != c.min0 {
			t.Errorf("%q MinTokens(0) = %d, want %d", c.name, got, c.min0)
		}
		if got := r.MinTokens(2048); got != c.min2048 {
			t.Errorf("%q MinTokens(2048) = %d, want %d", c.name, got, c.min2048)
		}
		if got := r.Steps(50); got != c.step50 {
			t.Errorf("%q Steps(50) = %d, want %d", c.name, got, c.step50)
		}
	}
}

func TestRuleLiveAt(t *testing.T) {
	at := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	hour := time.Hour
	for i, c := range []struct {
		rule      Rule
		ttl       time.Duration
		from, to  time.Time
		want      bool
		retention time.Duration
	}{
		{anthropic, hour, at, at.Add(hour), true, hour},                    // the TTL's last instant
		{anthropic, hour, at, at.Add(hour + time.Second), false, hour},     // past it
		{openAI, hour, at, at.Add(5 * time.Minute), true, 5 * time.Minute}, // OpenAI keeps 5 minutes, whatever ttl says
		{openAI, hour, at, at.Add(6 * time.Minute), false, 5 * time.Minute},
		{anthropic, time.Minute, time.Time{}, at, true, time.Minute}, // unknown time: live
		{anthropic, time.Minute, at, time.Time{}, true, time.Minute},
	} {
		if got := c.rule.LiveAt(c.ttl, c.from, c.to); got != c.want {
			t.Errorf("live %d: LiveAt = %v, want %v", i, got, c.want)
		}
		if got := c.rule.Retention(c.ttl); got != c.retention {
			t.Errorf("live %d: Retention = %v, want %v", i, got, c.retention)
		}
	}
}

func TestRuleRead(t *testing.T) {
	for _, c := range []struct {
		rule              Rule
		common, min, want int
	}{
		{openAI, 1023, 1024, 0},    // under the minimum
		{openAI, 1024, 1024, 1024}, // 8 steps
		{openAI, 1151, 1024, 1024}, // 8 steps and 127 tokens
		{openAI, 1152, 1024, 1152}, // 9 steps
		{openAI, 200, 1, 128},
		{anthropic, 1151, 1024, 1151}, // any length
		{anthropic, 1000, 1024, 0},
		{noCache, 5000, 0, 0}, // nothing cached
	} {
		if got := c.rule.Read(c.common, c.min); got != c.want {
			t.Errorf("%s Read(%d, %d) = %d, want %d", c.rule.def().name, c.common, c.min, got, c.want)
		}
	}
}

// Prices per token throughout: input 3, read 0.3, write 3.75.
func TestRulePrices(t *testing.T) {
	for _, c := range []struct {
		rule      Rule
		hit, miss float64
	}{
		{anthropic, 0.3, 3.75}, // read, written
		{openAI, 0.3, 3},       // read, sent uncached
		{noCache, 3, 3},        // input either way
	} {
		if h, m := c.rule.HitPrice(3, 0.3), c.rule.MissPrice(3, 3.75); h != c.hit || m != c.miss {
			t.Errorf("%s: hit %g miss %g, want %g %g", c.rule.def().name, h, m, c.hit, c.miss)
		}
	}
	for _, c := range []struct {
		rule             Rule
		read, total, min int
		parts            Parts
		want             float64
	}{
		{anthropic, 600, 1000, 1024, Parts{Uncached: 1000}, 3000},                        // under the minimum: all uncached
		{anthropic, 600, 2000, 1024, Parts{Read: 600, Write: 1400}, 600*0.3 + 1400*3.75}, // read, the rest written
		{anthropic, 3000, 2000, 1024, Parts{Read: 2000}, 2000 * 0.3},                     // no more read than sent
		{anthropic, 0, 0, 0, Parts{}, 0},                                                 // nothing sent
		{openAI, 600, 2000, 1024, Parts{Read: 600, Uncached: 1400}, 600*0.3 + 1400*3},    // the rest uncached
		{openAI, 0, 500, 1024, Parts{Uncached: 500}, 1500},                               // under the minimum reads nothing anyway
		{noCache, 600, 2000, 1024, Parts{Uncached: 2000}, 2000 * 3},                      // nothing cached
	} {
		p := c.rule.split(c.read, c.total, c.min)
		if p != c.parts {
			t.Errorf("%s split(%d of %d) = %+v, want %+v", c.rule.def().name, c.read, c.total, p, c.parts)
		}
		if got := c.rule.PromptUSD(c.read, c.total, c.min, 3, 0.3, 3.75); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s PromptUSD(%d of %d) = %g, want %g", c.rule.def().name, c.read, c.total, got, c.want)
		}
	}
	for _, c := range []struct {
		rule       Rule
		total, min int
		uncached   bool
	}{
		{anthropic, 1023, 1024, true}, {anthropic, 1024, 1024, false}, {anthropic, 0, 0, true},
		{openAI, 10, 1024, false}, // read nothing, but by the minimum, not sent so
		{noCache, 5000, 0, true},
	} {
		if got := c.rule.SentUncached(c.total, c.min); got != c.uncached {
			t.Errorf("%s SentUncached(%d, %d) = %v", c.rule.def().name, c.total, c.min, got)
		}
	}
}

// What a call billed read 100, write 30, uncached 20 leaves and missed.
func TestRuleLeaves(t *testing.T) {
	p := Parts{Read: 100, Write: 30, Uncached: 20}
	for _, c := range []struct {
		rule           Rule
		leaves, missed int
	}{
		{anthropic, 130, 30}, // read and written; the tail is not in the cache
		{openAI, 150, 20},    // all it sent
		{noCache, 0, 20},
	} {
		if l, m := c.rule.Leaves(p), c.rule.Missed(p); l != c.leaves || m != c.missed {
			t.Errorf("%s: leaves %d missed %d, want %d %d", c.rule.def().name, l, m, c.leaves, c.missed)
		}
	}
	if got := anthropic.Rest(100, 150); got != (Parts{Read: 100, Write: 50}) {
		t.Errorf("anthropic Rest = %+v", got)
	}
	if got := noCache.Rest(100, 150); got != (Parts{Read: 100, Uncached: 50}) {
		t.Errorf("none Rest = %+v", got) // a provider's read under the rule none (a floored call)
	}
}

func TestPartsUnsendUntail(t *testing.T) {
	for _, c := range []struct {
		p      Parts
		unsent int
		tail   int
		want   Parts
	}{
		{Parts{Read: 100, Write: 30, Uncached: 20}, 10, 0, Parts{Read: 100, Write: 20, Uncached: 20}}, // off the write
		{Parts{Read: 100, Write: 30, Uncached: 20}, 40, 0, Parts{Read: 100, Write: 0, Uncached: 10}},  // then the uncached
		{Parts{Read: 100, Write: 30, Uncached: 20}, 60, 0, Parts{Read: 90}},                           // then the read
		{Parts{Read: 100, Write: 30, Uncached: 20}, 200, 0, Parts{}},                                  // no part below 0
		{Parts{Read: 100, Write: 30}, 0, 12, Parts{Read: 100, Write: 18, Uncached: 12}},               // the tail, uncached
		{Parts{Read: 100, Write: 30}, 0, 50, Parts{Read: 100, Uncached: 30}},                          // no more than written
		{Parts{Read: 100, Uncached: 30}, 0, 50, Parts{Read: 100, Uncached: 30}},                       // nothing written
		{Parts{Read: 100, Write: 30}, 0, -5, Parts{Read: 100, Write: 30}},
	} {
		if got := c.p.Unsend(c.unsent).Untail(c.tail); got != c.want {
			t.Errorf("%+v Unsend(%d).Untail(%d) = %+v, want %+v", c.p, c.unsent, c.tail, got, c.want)
		}
	}
	if got := (Parts{Read: 10, Write: 20, Uncached: 30}).USD(3, 0.3, 3.75); math.Abs(got-(10*0.3+20*3.75+30*3)) > 1e-9 {
		t.Errorf("USD = %g", got)
	}
}
