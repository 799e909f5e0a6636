package tokenize

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/suggest"
)

// Model is a model preset: the size of its context window and output, the
// counter that counts its tokens, and what the provider charges for it.
type Model struct {
	// Name is the API name ("gpt-4o", "claude-sonnet-4-5").
	Name string `json:"name" yaml:"name"`
	// Provider is who serves it ("openai", "anthropic", …).
	Provider string `json:"provider" yaml:"provider"`
	// ContextWindow is the total tokens of input and output per call.
	ContextWindow int `json:"context_window" yaml:"context_window"`
	// OutputLimit is the most tokens one reply can have; 0 when the
	// provider publishes no separate limit.
	OutputLimit int `json:"output_limit" yaml:"output_limit"`
	// Tokenizer names the counter: an exact encoding, or "estimate" for
	// models whose tokenizer is not built into harpe.
	Tokenizer string `json:"tokenizer" yaml:"tokenizer"`
	// Source is the public page the window figures come from.
	Source string `json:"source" yaml:"source"`
	// AsOf is the date (YYYY-MM-DD) the window figures were recorded as
	// current.
	AsOf string `json:"as_of" yaml:"as_of"`
	// Prices are what the provider charges, per million tokens; nil when
	// harpe has no published figure for the model.
	Prices *Prices `json:"prices" yaml:"prices"`
	// Cache names the provider's prompt-caching rule that prices a replay:
	// "anthropic", "openai" or "none"; "" means the provider's default
	// (see [Model.CacheRule]).
	Cache string `json:"cache,omitempty" yaml:"cache"`
	// MinCacheTokens is the shortest prompt prefix the provider caches;
	// 0 means the rule's default (1,024 for "openai").
	MinCacheTokens int `json:"min_cache_tokens,omitempty" yaml:"min_cache_tokens"`
}

// Prices are a model's list prices in US dollars per million tokens.
type Prices struct {
	// Input is an uncached prompt token.
	Input float64 `json:"input" yaml:"input"`
	// CacheRead is a prompt token read from the cache (Anthropic "cache
	// hits and refreshes", OpenAI and Gemini "cached input").
	CacheRead float64 `json:"cache_read" yaml:"cache_read"`
	// CacheWrite5m and CacheWrite1h are a prompt token written to the
	// cache with Anthropic's 5-minute and 1-hour TTL; 0 where writing is
	// free (OpenAI, Gemini's implicit caching).
	CacheWrite5m float64 `json:"cache_write_5m" yaml:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h" yaml:"cache_write_1h"`
	// Output is a reply token, reasoning included.
	Output float64 `json:"output" yaml:"output"`
	// Source is the public page the prices come from; AsOf the date
	// (YYYY-MM-DD) they were recorded as current.
	Source string `json:"source" yaml:"source"`
	AsOf   string `json:"as_of" yaml:"as_of"`
}

// Exact reports whether the model's tokens are counted exactly, rather
// than estimated because its tokenizer is not built into harpe.
func (m Model) Exact() bool { return m.Tokenizer != "estimate" }

// Cache rules, for [Model.CacheRule].
const (
	CacheAnthropic = "anthropic"
	CacheOpenAI    = "openai"
	CacheNone      = "none"
)

// CacheRule is the prompt-caching rule the model's calls are billed by:
// Cache when set, else "anthropic" for Anthropic models, "openai" for
// OpenAI models and "none" for the rest (Gemini's implicit caching has no
// published granularity, so harpe does not model it).
func (m Model) CacheRule() string {
	if m.Cache != "" {
		return m.Cache
	}
	switch m.Provider {
	case "anthropic":
		return CacheAnthropic
	case "openai":
		return CacheOpenAI
	}
	return CacheNone
}

// Sources of the built-in figures.
const (
	srcOpenAI    = "https://platform.openai.com/docs/models"
	srcAnthropic = "https://docs.anthropic.com/en/docs/about-claude/models/overview"
	srcGemini    = "https://ai.google.dev/gemini-api/docs/models"
	srcLlama     = "https://www.llama.com/docs/model-cards-and-prompt-formats/"
	srcMistral   = "https://docs.mistral.ai/getting-started/models/models_overview/"
	srcQwen      = "https://help.aliyun.com/zh/model-studio/models"

	// Price pages, read on pricesAsOf (docs/cost.md lists what each
	// figure was checked against).
	srcAnthropicPrices = "https://platform.claude.com/docs/en/about-claude/pricing"
	srcOpenAIPrices    = "https://developers.openai.com/api/docs/pricing"
	srcGeminiPrices    = "https://ai.google.dev/gemini-api/docs/pricing"
	pricesAsOf         = "2026-12-01"
)

// anthropicPrices: input, 5-minute write (1.25×), 1-hour write (2×),
// cache hit (0.1×) and output, as Anthropic's pricing table lists them.
func anthropicPrices(in, w5m, w1h, read, out float64) *Prices {
	return &Prices{Input: in, CacheRead: read, CacheWrite5m: w5m, CacheWrite1h: w1h, Output: out, Source: srcAnthropicPrices, AsOf: pricesAsOf}
}

// openAIPrices: input, cached input and output; writing is free.
func openAIPrices(in, read, out float64) *Prices {
	return &Prices{Input: in, CacheRead: read, Output: out, Source: srcOpenAIPrices, AsOf: pricesAsOf}
}

// geminiPrices: input, context-caching read and output for prompts up to
// 200,000 tokens (the long-prompt tier of the Pro models is not modelled).
func geminiPrices(in, read, out float64) *Prices {
	return &Prices{Input: in, CacheRead: read, Output: out, Source: srcGeminiPrices, AsOf: pricesAsOf}
}

// builtin is the model table. Claude, Gemini, Llama, Mistral and Qwen
// tokenizers are not built into harpe (Llama, Qwen and Gemma publish
// theirs, but not as a tiktoken encoding), so they use the estimate.
// Minimum cacheable lengths are Anthropic's (docs/cost.md cites them).
var builtin = []Model{
	{"gpt-5.2", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-12-11", openAIPrices(1.75, 0.175, 14), "", 0},
	{"gpt-5.1", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-11-13", openAIPrices(1.25, 0.125, 10), "", 0},
	{"gpt-5-codex", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-09-15", openAIPrices(1.25, 0.125, 10), "", 0},
	{"gpt-5", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07", openAIPrices(1.25, 0.125, 10), "", 0},
	{"gpt-5-mini", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07", openAIPrices(0.25, 0.025, 2), "", 0},
	{"gpt-5-nano", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07", openAIPrices(0.05, 0.005, 0.40), "", 0},
	{"gpt-4.1", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14", openAIPrices(2, 0.50, 8), "", 0},
	{"gpt-4.1-mini", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14", openAIPrices(0.40, 0.10, 1.60), "", 0},
	{"gpt-4.1-nano", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14", nil, "", 0},
	{"gpt-4o", "openai", 128000, 16384, "o200k_base", srcOpenAI, "2025-04-14", openAIPrices(2.50, 1.25, 10), "", 0},
	{"gpt-4o-mini", "openai", 128000, 16384, "o200k_base", srcOpenAI, "2025-04-14", openAIPrices(0.15, 0.075, 0.60), "", 0},
	{"o4-mini", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-04-16", nil, "", 0},
	{"o3", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-04-16", nil, "", 0},
	{"o3-mini", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-01-31", nil, "", 0},
	{"o1", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2024-12-17", nil, "", 0},
	{"o1-mini", "openai", 128000, 65536, "o200k_base", srcOpenAI, "2024-09-12", nil, "", 0},
	{"gpt-4-turbo", "openai", 128000, 4096, "cl100k_base", srcOpenAI, "2024-04-09", nil, "", 0},
	{"gpt-4", "openai", 8192, 8192, "cl100k_base", srcOpenAI, "2024-04-09", nil, "", 0},
	{"gpt-3.5-turbo", "openai", 16385, 4096, "cl100k_base", srcOpenAI, "2024-01-25", nil, "", 0},
	{"claude-opus-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-11-24", anthropicPrices(5, 6.25, 10, 0.50, 25), "", 4096},
	{"claude-opus-4-1", "anthropic", 200000, 32000, "estimate", srcAnthropic, "2025-08-05", anthropicPrices(15, 18.75, 30, 1.50, 75), "", 1024},
	{"claude-opus-4", "anthropic", 200000, 32000, "estimate", srcAnthropic, "2025-05-22", anthropicPrices(15, 18.75, 30, 1.50, 75), "", 1024},
	{"claude-sonnet-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-09-29", anthropicPrices(3, 3.75, 6, 0.30, 15), "", 1024},
	{"claude-sonnet-4", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-05-22", anthropicPrices(3, 3.75, 6, 0.30, 15), "", 1024},
	{"claude-haiku-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-10-15", anthropicPrices(1, 1.25, 2, 0.10, 5), "", 4096},
	{"claude-3-7-sonnet", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-02-24", anthropicPrices(3, 3.75, 6, 0.30, 15), "", 1024},
	{"claude-3-5-haiku", "anthropic", 200000, 8192, "estimate", srcAnthropic, "2024-10-22", anthropicPrices(0.80, 1, 1.6, 0.08, 4), "", 2048},
	// gemini-3-pro-preview: $2 input and $12 output (prompts up to 200k) were
	// found, its cache-read price was not: unpriced rather than guessed.
	{"gemini-3-pro-preview", "google", 1048576, 65536, "estimate", srcGemini, "2025-11-18", nil, "", 0},
	{"gemini-3-flash-preview", "google", 1048576, 65536, "estimate", srcGemini, "2025-12-17", geminiPrices(0.50, 0.05, 3), "", 0},
	{"gemini-2.5-pro", "google", 1048576, 65536, "estimate", srcGemini, "2025-06-17", geminiPrices(1.25, 0.125, 10), "", 0},
	{"gemini-2.5-flash", "google", 1048576, 65536, "estimate", srcGemini, "2025-06-17", geminiPrices(0.30, 0.03, 2.50), "", 0},
	{"gemini-2.5-flash-lite", "google", 1048576, 65536, "estimate", srcGemini, "2025-07-22", geminiPrices(0.10, 0.01, 0.40), "", 0},
	{"gemini-2.0-flash", "google", 1048576, 8192, "estimate", srcGemini, "2025-02-05", nil, "", 0},
	{"llama-4-maverick", "meta", 1048576, 0, "estimate", srcLlama, "2025-04-05", nil, "", 0},
	{"llama-4-scout", "meta", 10485760, 0, "estimate", srcLlama, "2025-04-05", nil, "", 0},
	{"llama-3.3-70b", "meta", 131072, 0, "estimate", srcLlama, "2024-12-06", nil, "", 0},
	{"llama-3.1-405b", "meta", 131072, 0, "estimate", srcLlama, "2024-07-23", nil, "", 0},
	{"llama-3.1-8b", "meta", 131072, 0, "estimate", srcLlama, "2024-07-23", nil, "", 0},
	{"mistral-large", "mistral", 131072, 0, "estimate", srcMistral, "2024-11-18", nil, "", 0},
	{"mistral-medium", "mistral", 131072, 0, "estimate", srcMistral, "2025-05-07", nil, "", 0},
	{"mistral-small", "mistral", 131072, 0, "estimate", srcMistral, "2025-03-17", nil, "", 0},
	{"codestral", "mistral", 262144, 0, "estimate", srcMistral, "2025-01-13", nil, "", 0},
	{"qwen-max", "alibaba", 32768, 8192, "estimate", srcQwen, "2025-01-25", nil, "", 0},
	{"qwen-plus", "alibaba", 131072, 8192, "estimate", srcQwen, "2025-01-25", nil, "", 0},
	{"qwen-turbo", "alibaba", 1000000, 8192, "estimate", srcQwen, "2025-01-25", nil, "", 0},
	{"qwen2.5-72b-instruct", "alibaba", 131072, 8192, "estimate", srcQwen, "2024-09-19", nil, "", 0},
}

// Models returns the built-in model presets, newest families first within
// each provider. The slice is a copy.
func Models() []Model { return slices.Clone(builtin) }

// LookupModel returns the built-in preset named name; see
// [Catalog.Lookup].
func LookupModel(name string) (Model, error) { return defaultCatalog.Lookup(name) }

var defaultCatalog = &Catalog{models: builtin}

// Catalog is a table of model presets: the built-in ones with entries
// added or overridden, as a configuration file's models: key gives them.
type Catalog struct {
	models []Model
}

// NewCatalog returns the built-in presets with extra applied in order: an
// entry whose name is already known replaces it (fields left zero keep the
// known value; prices given replace the known prices as a whole), any
// other is added at the end. Every entry must have a
// name, a positive context window, an output limit that is not negative and
// a tokenizer that [New] knows.
func NewCatalog(extra []Model) (*Catalog, error) {
	models := slices.Clone(builtin)
	for _, m := range extra {
		m.Name = strings.TrimSpace(m.Name)
		if m.Name == "" {
			return nil, fmt.Errorf("model without a name")
		}
		i := slices.IndexFunc(models, func(k Model) bool { return strings.EqualFold(k.Name, m.Name) })
		if i >= 0 {
			old := models[i]
			m.Name = old.Name
			m.Provider = cmpOr(m.Provider, old.Provider)
			m.ContextWindow = cmpOr(m.ContextWindow, old.ContextWindow)
			m.OutputLimit = cmpOr(m.OutputLimit, old.OutputLimit)
			m.Tokenizer = cmpOr(m.Tokenizer, old.Tokenizer)
			m.Source = cmpOr(m.Source, old.Source)
			m.AsOf = cmpOr(m.AsOf, old.AsOf)
			if m.Prices == nil {
				m.Prices = old.Prices
			}
			m.Cache = cmpOr(m.Cache, old.Cache)
			m.MinCacheTokens = cmpOr(m.MinCacheTokens, old.MinCacheTokens)
		}
		if p := m.Prices; p != nil {
			for _, f := range []struct {
				name string
				v    float64
			}{{"input", p.Input}, {"cache_read", p.CacheRead}, {"cache_write_5m", p.CacheWrite5m}, {"cache_write_1h", p.CacheWrite1h}, {"output", p.Output}} {
				if f.v < 0 {
					return nil, fmt.Errorf("model %q: prices.%s must be ≥ 0, got %g", m.Name, f.name, f.v)
				}
			}
		}
		switch m.Cache {
		case "", CacheAnthropic, CacheOpenAI, CacheNone:
		default:
			return nil, fmt.Errorf("model %q: unknown cache rule %q; valid: anthropic, openai, none", m.Name, m.Cache)
		}
		if m.MinCacheTokens < 0 {
			return nil, fmt.Errorf("model %q: min_cache_tokens must be a whole number ≥ 0, got %d", m.Name, m.MinCacheTokens)
		}
		if m.Tokenizer == "" {
			m.Tokenizer = "estimate"
		}
		if m.ContextWindow <= 0 {
			return nil, fmt.Errorf("model %q: context_window must be a whole number > 0, got %d", m.Name, m.ContextWindow)
		}
		if m.OutputLimit < 0 {
			return nil, fmt.Errorf("model %q: output_limit must be a whole number ≥ 0, got %d", m.Name, m.OutputLimit)
		}
		if _, err := New(m.Tokenizer); err != nil {
			return nil, fmt.Errorf("model %q: %v", m.Name, err)
		}
		if i >= 0 {
			models[i] = m
		} else {
			models = append(models, m)
		}
	}
	return &Catalog{models: models}, nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// Models returns the catalog's presets in order. The slice is a copy.
func (c *Catalog) Models() []Model { return slices.Clone(c.models) }

// dated matches a dated snapshot name: gpt-4o-2024-08-06,
// claude-sonnet-4-20250514, claude-3-7-sonnet-latest.
var dated = regexp.MustCompile(`^(.+?)-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$`)

// Lookup returns the preset named name, ignoring case. A dated snapshot
// ("gpt-4o-2024-08-06", "claude-sonnet-4-20250514") or a "-latest" alias
// finds its family's entry when it has none of its own. An unknown name
// gives an [*UnknownModelError] that suggests close names.
func (c *Catalog) Lookup(name string) (Model, error) {
	if m, ok := c.find(name); ok {
		return m, nil
	}
	if sub := dated.FindStringSubmatch(name); sub != nil {
		if m, ok := c.find(sub[1]); ok {
			return m, nil
		}
	}
	return Model{}, &UnknownModelError{Name: name, Suggestions: c.closeNames(name)}
}

func (c *Catalog) find(name string) (Model, bool) {
	for _, m := range c.models {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Model{}, false
}

// UnknownModelError is the error of a lookup that finds no preset.
type UnknownModelError struct {
	Name string
	// Suggestions are the closest known names, best first (at most 5).
	Suggestions []string
}

func (e *UnknownModelError) Error() string {
	msg := fmt.Sprintf("unknown model %q", e.Name)
	if len(e.Suggestions) > 0 {
		msg += "; did you mean " + strings.Join(e.Suggestions, ", ")
	}
	return msg + " (harpe models lists them all)"
}

// closeNames returns up to five known names close to name: those that
// contain it or that it contains, and those within an edit distance of a
// third of its length, nearest first, ties in table order.
func (c *Catalog) closeNames(name string) []string {
	q := strings.ToLower(name)
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, m := range c.models {
		n := strings.ToLower(m.Name)
		d := suggest.Distance(q, n)
		switch {
		case q != "" && (strings.Contains(n, q) || strings.Contains(q, n)):
			cs = append(cs, cand{m.Name, min(d, 1)})
		case d <= max(2, len(q)/3):
			cs = append(cs, cand{m.Name, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	out := make([]string, 0, 5)
	for _, x := range cs {
		if len(out) == 5 {
			break
		}
		out = append(out, x.name)
	}
	return out
}
