package cost

import (
	"fmt"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Figures of the cache rules, read on 2026-12-01 from Anthropic's
// prompt-caching guide (https://platform.claude.com/docs/en/build-with-claude/prompt-caching:
// 5-minute TTL refreshed on use, or 1 hour) and OpenAI's
// (https://developers.openai.com/api/docs/guides/prompt-caching: prompts
// of 1,024 tokens or more, hits in 128-token steps, 5 to 10 minutes of
// inactivity). docs/cost.md quotes them.
const (
	// AnthropicTTL is how long an Anthropic cache entry lives unused; each
	// read refreshes it.
	AnthropicTTL = 5 * time.Minute
	// AnthropicLongTTL is the 1-hour TTL Anthropic offers at a higher write
	// price.
	AnthropicLongTTL = time.Hour
	// OpenAIMinTokens is the shortest prompt OpenAI caches.
	OpenAIMinTokens = 1024
	// OpenAIStep is the granularity of OpenAI cache hits.
	OpenAIStep = 128
	// OpenAIRetention is how long harpe keeps an OpenAI prefix cached after
	// its last use: the low end of the "5 to 10 minutes of inactivity"
	// OpenAI documents.
	OpenAIRetention = 5 * time.Minute
)

// Block is one piece of a call's window.
type Block struct {
	// ID identifies the block's content as sent, such as
	// "12/whole/9f86d081884c7d65": the same ID means the same tokens.
	ID string `json:"id"`
	// Tokens is its size.
	Tokens int `json:"tokens"`
	// Breakpoint marks an Anthropic cache_control breakpoint after this
	// block (the end of the window always is one).
	Breakpoint bool `json:"breakpoint,omitempty"`
}

// Call is one request to the model.
type Call struct {
	// Model is the model asked; it chooses the prices and the cache rule,
	// and caches are per model.
	Model string `json:"model"`
	// Time is when the call was made; zero when unknown (cache entries
	// then never expire).
	Time time.Time `json:"time"`
	// Blocks is the window in the order sent.
	Blocks []Block `json:"blocks"`
	// Output is the reply's tokens (recorded; a replay does not change
	// what the model answered).
	Output int `json:"output"`
}

// Tokens is the size of the call's window.
func (c *Call) Tokens() int {
	n := 0
	for _, b := range c.Blocks {
		n += b.Tokens
	}
	return n
}

// Parts are a call's prompt tokens by how the provider bills them.
type Parts struct {
	Read     int `json:"read"`
	Write    int `json:"write"`
	Uncached int `json:"uncached"`
}

// CallCost is what one call cost under the cache model.
type CallCost struct {
	Cache        Parts   `json:"cache"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
	// Rule is the cache rule applied.
	Rule string `json:"rule"`
}

// Totals sums the calls of a [Report].
type Totals struct {
	Calls        int     `json:"calls"`
	Cache        Parts   `json:"cache"`
	OutputTokens int     `json:"output_tokens"`
	CostUSD      float64 `json:"cost_usd"`
}

// Report is the result of [Simulate].
type Report struct {
	Calls  []CallCost `json:"calls"`
	Totals Totals     `json:"totals"`
	// Unpriced lists, sorted, the models that have no prices in the
	// catalog (or none at all): their calls are priced at zero.
	Unpriced []string `json:"unpriced"`
}

// Options tune [Simulate].
type Options struct {
	// Rule overrides every model's cache rule: "anthropic", "openai" or
	// "none"; "" keeps each model's own.
	Rule string
	// TTL is the Anthropic write TTL: [AnthropicTTL] (the default, when 0)
	// or [AnthropicLongTTL], which writes at the 1-hour price.
	TTL time.Duration
	// Catalog gives the models; nil means the built-in presets.
	Catalog *tokenize.Catalog
}

// entry is a cached prefix.
type entry struct {
	tokens  int
	expires time.Time // zero: never
}

func (e entry) live(t time.Time) bool {
	return e.expires.IsZero() || t.IsZero() || !t.After(e.expires)
}

func expiry(t time.Time, ttl time.Duration) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.Add(ttl)
}

// keyer returns, for each block k of a window, a key naming the prefix
// that ends with it: equal keys mean equal prefixes. It reuses the keys of
// the previous window's shared prefix, so a window that extends the last
// one hashes only its new blocks.
type keyer struct {
	ids  []string
	keys []string
}

func (kr *keyer) prefixKeys(blocks []Block) []string {
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

// Simulate prices calls in order under the cache model: see the package
// documentation for the rules.
func Simulate(calls []Call, opt Options) (*Report, error) {
	switch opt.Rule {
	case "", tokenize.CacheAnthropic, tokenize.CacheOpenAI, tokenize.CacheNone:
	default:
		return nil, fmt.Errorf("unknown cache rule %q; valid: anthropic, openai, none", opt.Rule)
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
		var err error
		if cat, err = tokenize.NewCatalog(nil); err != nil {
			return nil, err
		}
	}
	// Every window's running sums (the prefix sums the rules take) and
	// the totals over calls must fit an int: a wrapped sum would price
	// a call that was never made.
	for i := range calls {
		if _, ok := checked.Sum(blockTokens(calls[i].Blocks)...); !ok {
			return nil, fmt.Errorf("call %d: %w", i+1, &transcript.OverflowError{What: "the window's block tokens"})
		}
	}
	caches := map[string]map[string]entry{} // model → prefix key → entry
	unpriced := map[string]bool{}
	rep := &Report{Calls: make([]CallCost, 0, len(calls)), Unpriced: []string{}}
	var kr keyer
	for i := range calls {
		c := &calls[i]
		m, err := cat.Lookup(c.Model)
		var prices *tokenize.Prices
		if err == nil {
			prices = m.Prices
		} else {
			m = tokenize.Model{Name: c.Model}
		}
		if prices == nil {
			unpriced[c.Model] = true
		}
		rule := opt.Rule
		if rule == "" {
			rule = m.CacheRule()
		}
		cache := caches[m.Name]
		if cache == nil {
			cache = map[string]entry{}
			caches[m.Name] = cache
		}
		keys := kr.prefixKeys(c.Blocks)
		total := c.Tokens()
		var p Parts
		switch rule {
		case tokenize.CacheAnthropic:
			p = anthropicCall(c, keys, total, cache, m.MinCacheTokens, ttl)
		case tokenize.CacheOpenAI:
			p = openAICall(c, keys, total, cache, m.MinCacheTokens)
		default:
			p = Parts{Uncached: total}
		}
		cc := CallCost{Cache: p, OutputTokens: c.Output, Rule: rule}
		if prices != nil {
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
		var ok [4]bool
		t.Cache.Read, ok[0] = checked.Add(t.Cache.Read, p.Read)
		t.Cache.Write, ok[1] = checked.Add(t.Cache.Write, p.Write)
		t.Cache.Uncached, ok[2] = checked.Add(t.Cache.Uncached, p.Uncached)
		t.OutputTokens, ok[3] = checked.Add(t.OutputTokens, c.Output)
		if ok != [4]bool{true, true, true, true} {
			return nil, fmt.Errorf("call %d: %w", i+1, &transcript.OverflowError{What: "the calls' cache read, cache write, uncached and output tokens"})
		}
		t.CostUSD += cc.CostUSD
	}
	for name := range unpriced {
		rep.Unpriced = append(rep.Unpriced, name)
	}
	slices.Sort(rep.Unpriced)
	return rep, nil
}

// anthropicCall applies the Anthropic rule to one call and updates cache.
func anthropicCall(c *Call, keys []string, total int, cache map[string]entry, minTokens int, ttl time.Duration) Parts {
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
		cache[keys[at]] = entry{tokens: read, expires: expiry(c.Time, ttl)}
	}
	// Write at every breakpoint past the read, and at the end.
	sum = 0
	for k, b := range c.Blocks {
		sum += b.Tokens
		if (b.Breakpoint || k == len(c.Blocks)-1) && k > at && sum >= minTokens {
			cache[keys[k]] = entry{tokens: sum, expires: expiry(c.Time, ttl)}
		} else if (b.Breakpoint || k == len(c.Blocks)-1) && k < at {
			if e, ok := cache[keys[k]]; ok && e.live(c.Time) {
				cache[keys[k]] = entry{tokens: e.tokens, expires: expiry(c.Time, ttl)}
			}
		}
	}
	return Parts{Read: read, Write: total - read}
}

// openAICall applies the OpenAI rule to one call and updates cache: every
// prefix of the window is remembered.
func openAICall(c *Call, keys []string, total int, cache map[string]entry, minTokens int) Parts {
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
		cache[keys[k]] = entry{tokens: sum, expires: expiry(c.Time, OpenAIRetention)}
	}
	return Parts{Read: read, Uncached: total - read}
}

// blockTokens lists the tokens of each block.
func blockTokens(blocks []Block) []int {
	ns := make([]int, len(blocks))
	for i, b := range blocks {
		ns[i] = b.Tokens
	}
	return ns
}
