package cost

import (
	"fmt"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// entry is a cached prefix.
type refEntry struct {
	tokens  int
	expires time.Time // zero: never
}

func (e refEntry) live(t time.Time) bool {
	return e.expires.IsZero() || t.IsZero() || !t.After(e.expires)
}

func refExpiry(t time.Time, ttl time.Duration) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Add(ttl)
}

// keyer returns, for each block k of a window, a key naming the prefix
// that ends with it: equal keys mean equal prefixes. It reuses the keys of
// the previous window's shared prefix, so a window that extends the last
// one hashes only its new blocks.
type refKeyer struct {
	ids  []string
	keys []string
}

func (kr *refKeyer) prefixKeys(blocks []Block) []string {
	n := 0
	for n < len(blocks) && n < len(kr.ids) && blocks[n].ID == kr.ids[n] {
		n++
	}
	kr.ids, kr.keys = kr.ids[:n], kr.keys[:n]
	h := &chain{}
	if n > 0 {
		h.prev = kr.keys[n-1]
	}
	for _, b := range blocks[n:] {
		kr.ids = append(kr.ids, b.ID)
		kr.keys = append(kr.keys, h.add(b.ID))
	}
	return kr.keys
}

// refSimulate is the first, map-based cache model: every prefix of every
// window hashed and looked up. It is quadratic in the window length but
// handles windows that return to an earlier content (reverts); the
// property test checks Simulator against it on windows that do not.
func refSimulate(calls []Call, opt Options) (*Report, error) {
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
	caches := map[string]map[string]refEntry{} // model → prefix key → entry
	unpriced := map[string]bool{}
	rep := &Report{Calls: make([]CallCost, 0, len(calls)), Unpriced: []string{}}
	var kr refKeyer
	for i := range calls {
		c := &calls[i]
		m := cat.LookupCall(c.Model)
		if m.Prices == nil {
			unpriced[c.Model] = true
		}
		rule := opt.Rule
		if rule == "" {
			rule = m.CacheRule()
		}
		cache := caches[m.Name]
		if cache == nil {
			cache = map[string]refEntry{}
			caches[m.Name] = cache
		}
		keys := kr.prefixKeys(c.Blocks)
		total := c.Tokens()
		var p Parts
		switch rule {
		case prices.CacheAnthropic:
			p = refAnthropicCall(c, keys, total, cache, m.MinCacheTokens, time.Duration(ttl))
		case prices.CacheOpenAI:
			p = refOpenAICall(c, keys, total, cache, m.MinCacheTokens)
		default:
			p = Parts{Uncached: total}
		}
		cc := CallCost{Cache: p, OutputTokens: c.Output, Rule: rule}
		if prices := m.At(c.Time, total); prices != nil {
			w := prices.CacheWrite5m
			if ttl == AnthropicLongTTL {
				w = prices.CacheWrite1h
			}
			cc.CostUSD = (float64(p.Uncached)*prices.Input + float64(p.Read)*prices.CacheRead +
				float64(p.Write)*w + float64(c.Output)*prices.Output) / 1e6
		}
		rep.Calls = append(rep.Calls, cc)
		t := &rep.Totals
		t.Calls++
		t.Cache.Read += p.Read
		t.Cache.Write += p.Write
		t.Cache.Uncached += p.Uncached
		t.OutputTokens += c.Output
		t.CostUSD += cc.CostUSD
	}
	for name := range unpriced {
		rep.Unpriced = append(rep.Unpriced, name)
	}
	slices.Sort(rep.Unpriced)
	return rep, nil
}

// refAnthropicCall applies the Anthropic rule to one call and updates cache.
func refAnthropicCall(c *Call, keys []string, total int, cache map[string]refEntry, minTokens int, ttl time.Duration) Parts {
	if total < minTokens || total == 0 {
		return Parts{Uncached: total}
	}
	read, at := 0, -1
	sum := 0
	for k, b := range c.Blocks {
		sum += b.Tokens
		if e, ok := cache[keys[k]]; ok && e.live(c.Time) {
			read, at = min(e.tokens, sum), k // the same IDs are the same tokens
		}
	}
	if at >= 0 { // the read refreshes the entry
		cache[keys[at]] = refEntry{tokens: read, expires: refExpiry(c.Time, ttl)}
	}
	// Write at every breakpoint past the read, and at the end.
	sum = 0
	for k, b := range c.Blocks {
		sum += b.Tokens
		if (b.Breakpoint || k == len(c.Blocks)-1) && k > at && sum >= minTokens {
			cache[keys[k]] = refEntry{tokens: sum, expires: refExpiry(c.Time, ttl)}
		} else if (b.Breakpoint || k == len(c.Blocks)-1) && k < at {
			if e, ok := cache[keys[k]]; ok && e.live(c.Time) {
				cache[keys[k]] = refEntry{tokens: e.tokens, expires: refExpiry(c.Time, ttl)}
			}
		}
	}
	return Parts{Read: read, Write: total - read}
}

// refOpenAICall applies the OpenAI rule to one call and updates cache: every
// prefix of the window is remembered.
func refOpenAICall(c *Call, keys []string, total int, cache map[string]refEntry, minTokens int) Parts {
	if minTokens <= 0 {
		minTokens = OpenAIMinTokens
	}
	common, sum := 0, 0
	for k, b := range c.Blocks {
		sum += b.Tokens
		e, ok := cache[keys[k]]
		if !ok || !e.live(c.Time) {
			break
		}
		common = min(e.tokens, sum)
	}
	read := 0
	if common >= minTokens {
		read = common / OpenAIStep * OpenAIStep
	}
	sum = 0
	for k, b := range c.Blocks {
		sum += b.Tokens
		cache[keys[k]] = refEntry{tokens: sum, expires: refExpiry(c.Time, OpenAIRetention)}
	}
	return Parts{Read: read, Uncached: total - read}
}
