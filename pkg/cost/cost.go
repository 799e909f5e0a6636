package cost

import (
	"fmt"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
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
	AnthropicTTL TTL = TTL(5 * time.Minute)
	// AnthropicLongTTL is the 1-hour TTL Anthropic offers at a higher write
	// price.
	AnthropicLongTTL TTL = TTL(time.Hour)
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
	Rule prices.CacheRule `json:"rule"`
	// Evicted is set when the step's evidence ([Step.Evidence]) cut what
	// the model would have read, beyond the slack of [Agrees].
	Evicted bool `json:"evicted,omitempty"`
	// Cut is set when the evidence cut the read at all (Evicted, or
	// within the slack with [Step.Exact]); Floored when [Step.Floor]
	// raised it.
	Cut     bool `json:"-"`
	Floored bool `json:"-"`
	// WriteTTL is the TTL the call's cache writes were priced at (the
	// Anthropic rule only; 0 under the others).
	WriteTTL TTL `json:"-"`
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
	// Rule overrides every model's cache rule ("" keeps each model's
	// own).
	Rule prices.CacheRule
	// TTL is the Anthropic write TTL: [AnthropicTTL] (the default, when 0)
	// or [AnthropicLongTTL], which writes at the 1-hour price.
	TTL TTL
	// Catalog gives the models and their prices; nil means the built-in
	// presets priced from the embedded snapshot ([prices.Default]).
	Catalog *prices.Catalog
}

// TTL is how long an Anthropic cache entry lives unused: [AnthropicTTL]
// or [AnthropicLongTTL].
type TTL time.Duration

// String is "5m" or "1h" (a duration otherwise).
func (t TTL) String() string {
	switch t {
	case AnthropicTTL:
		return "5m"
	case AnthropicLongTTL:
		return "1h"
	}
	return time.Duration(t).String()
}

// ParseTTL reads "5m" or "1h".
func ParseTTL(s string) (TTL, error) {
	switch s {
	case "5m":
		return AnthropicTTL, nil
	case "1h":
		return AnthropicLongTTL, nil
	}
	return 0, fmt.Errorf("unknown TTL %q; valid: 5m, 1h", s)
}
