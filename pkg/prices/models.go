// Package prices resolves a model's name to its [Model]: its context
// window and output limit, the tokenizer that counts its tokens, its
// prices (from an embedded snapshot of genai-prices, a file, or
// harpe.yaml) and its prompt-caching rule. [Catalog.Lookup] is the one
// lookup; [Presets] are the built-in window figures.
package prices

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/harpe-dev/harpe/internal/suggest"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Model is a model as harpe knows it, in one place: its context window
// and output limit, the tokenizer that counts its tokens (or the estimate
// it falls back to), its prices and its prompt-caching rule. A name
// resolves to one with [Catalog.Lookup]; the window fields come from a
// preset (zero when harpe has none for the model), the prices from the
// price data or harpe.yaml.
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
	// Tokenizer names the counter ([tokenize.New]): an exact encoding, or
	// "estimate" for models whose tokenizer is not built into harpe.
	Tokenizer string `json:"tokenizer" yaml:"tokenizer"`
	// Source is the public page the window figures come from.
	Source string `json:"source" yaml:"source"`
	// AsOf is the date (YYYY-MM-DD) the window figures were recorded as
	// current.
	AsOf string `json:"as_of" yaml:"as_of"`
	// Prices are the newest prices for a call below every tier; nil when
	// neither the data nor harpe.yaml prices the model. A call's own
	// prices are [Model.At].
	Prices *Prices `json:"prices" yaml:"prices"`
	// PriceSource says where the prices come from: the embedded snapshot
	// ("genai-prices 0.1.8 (2026-09-23)"), a --prices file or harpe.yaml.
	PriceSource string `json:"price_source,omitempty" yaml:"price_source,omitempty"`
	// PriceModel is the price data's provider and model the name matched
	// ("anthropic/claude-opus-4-6"); PriceVaries how its prices vary
	// ("by date; above 200,000 input tokens").
	PriceModel  string `json:"price_model,omitempty" yaml:"price_model,omitempty"`
	PriceVaries string `json:"price_varies,omitempty" yaml:"price_varies,omitempty"`
	// Cache is the prompt-caching rule of the model's calls: from
	// harpe.yaml, else by who makes the model ([CacheRule]). What a cache
	// read and write cost is in Prices (CacheRead, CacheWrite5m,
	// CacheWrite1h, as the price data gives them); how the rule reads,
	// writes and expires an entry (its TTLs) is pkg/cost's, which
	// applies it.
	Cache CacheRule `json:"cache" yaml:"cache"`
	// MinCacheTokens is the shortest prompt prefix the provider caches;
	// 0 means the rule's default (1,024 for "openai").
	MinCacheTokens int `json:"min_cache_tokens,omitempty" yaml:"min_cache_tokens,omitempty"`

	entry *Entry
	fixed bool // Prices come from harpe.yaml: every call pays them
}

// Exact reports whether the model's tokens are counted exactly, rather
// than estimated because its tokenizer is not built into harpe.
func (m Model) Exact() bool { return m.Tokenizer != "estimate" }

// Counter returns the counter of the model's tokenizer ("estimate" when
// it names none); see [tokenize.New].
func (m Model) Counter() (tokenize.Counter, error) {
	if m.Tokenizer == "" {
		return tokenize.Estimate, nil
	}
	return tokenize.New(m.Tokenizer)
}

// preset is a row of the model table: a model's window fields.
type preset struct {
	name, provider string
	window, output int
	tokenizer      string
	source, asOf   string
}

func (p preset) model() Model {
	return Model{Name: p.name, Provider: p.provider, ContextWindow: p.window, OutputLimit: p.output,
		Tokenizer: p.tokenizer, Source: p.source, AsOf: p.asOf}
}

// window is the model's window fields alone: a preset as the table or
// harpe.yaml gives it.
func (m Model) window() Model {
	return Model{Name: m.Name, Provider: m.Provider, ContextWindow: m.ContextWindow, OutputLimit: m.OutputLimit,
		Tokenizer: m.Tokenizer, Source: m.Source, AsOf: m.AsOf}
}

// Sources of the built-in figures.
const (
	srcOpenAI    = "https://platform.openai.com/docs/models"
	srcAnthropic = "https://docs.anthropic.com/en/docs/about-claude/models/overview"
	srcGemini    = "https://ai.google.dev/gemini-api/docs/models"
	srcLlama     = "https://www.llama.com/docs/model-cards-and-prompt-formats/"
	srcMistral   = "https://docs.mistral.ai/getting-started/models/models_overview/"
	srcQwen      = "https://help.aliyun.com/zh/model-studio/models"
)

// published is the model table of the makers' published models. Claude, Gemini, Llama, Mistral and Qwen
// tokenizers are not built into harpe (Llama, Qwen and Gemma publish
// theirs, but not as a tiktoken encoding), so they use the estimate.
var published = []preset{
	{"gpt-5.2", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-12-11"},
	{"gpt-5.1", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-11-13"},
	{"gpt-5-codex", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-09-15"},
	{"gpt-5", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07"},
	{"gpt-5-mini", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07"},
	{"gpt-5-nano", "openai", 400000, 128000, "o200k_base", srcOpenAI, "2025-08-07"},
	{"gpt-4.1", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14"},
	{"gpt-4.1-mini", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14"},
	{"gpt-4.1-nano", "openai", 1047576, 32768, "o200k_base", srcOpenAI, "2025-04-14"},
	{"gpt-4o", "openai", 128000, 16384, "o200k_base", srcOpenAI, "2025-04-14"},
	{"gpt-4o-mini", "openai", 128000, 16384, "o200k_base", srcOpenAI, "2025-04-14"},
	{"o4-mini", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-04-16"},
	{"o3", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-04-16"},
	{"o3-mini", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2025-01-31"},
	{"o1", "openai", 200000, 100000, "o200k_base", srcOpenAI, "2024-12-17"},
	{"o1-mini", "openai", 128000, 65536, "o200k_base", srcOpenAI, "2024-09-12"},
	{"gpt-4-turbo", "openai", 128000, 4096, "cl100k_base", srcOpenAI, "2024-04-09"},
	{"gpt-4", "openai", 8192, 8192, "cl100k_base", srcOpenAI, "2024-04-09"},
	{"gpt-3.5-turbo", "openai", 16385, 4096, "cl100k_base", srcOpenAI, "2024-01-25"},
	{"claude-opus-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-11-24"},
	{"claude-opus-4-1", "anthropic", 200000, 32000, "estimate", srcAnthropic, "2025-08-05"},
	{"claude-opus-4", "anthropic", 200000, 32000, "estimate", srcAnthropic, "2025-05-22"},
	{"claude-sonnet-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-09-29"},
	{"claude-sonnet-4", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-05-22"},
	{"claude-haiku-4-5", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-10-15"},
	{"claude-3-7-sonnet", "anthropic", 200000, 64000, "estimate", srcAnthropic, "2025-02-24"},
	{"claude-3-5-haiku", "anthropic", 200000, 8192, "estimate", srcAnthropic, "2024-10-22"},
	{"gemini-3-pro-preview", "google", 1048576, 65536, "estimate", srcGemini, "2025-11-18"},
	{"gemini-3-flash-preview", "google", 1048576, 65536, "estimate", srcGemini, "2025-12-17"},
	{"gemini-2.5-pro", "google", 1048576, 65536, "estimate", srcGemini, "2025-06-17"},
	{"gemini-2.5-flash", "google", 1048576, 65536, "estimate", srcGemini, "2025-06-17"},
	{"gemini-2.5-flash-lite", "google", 1048576, 65536, "estimate", srcGemini, "2025-07-22"},
	{"gemini-2.0-flash", "google", 1048576, 8192, "estimate", srcGemini, "2025-02-05"},
	{"llama-4-maverick", "meta", 1048576, 0, "estimate", srcLlama, "2025-04-05"},
	{"llama-4-scout", "meta", 10485760, 0, "estimate", srcLlama, "2025-04-05"},
	{"llama-3.3-70b", "meta", 131072, 0, "estimate", srcLlama, "2024-12-06"},
	{"llama-3.1-405b", "meta", 131072, 0, "estimate", srcLlama, "2024-07-23"},
	{"llama-3.1-8b", "meta", 131072, 0, "estimate", srcLlama, "2024-07-23"},
	{"mistral-large", "mistral", 131072, 0, "estimate", srcMistral, "2024-11-18"},
	{"mistral-medium", "mistral", 131072, 0, "estimate", srcMistral, "2025-05-07"},
	{"mistral-small", "mistral", 131072, 0, "estimate", srcMistral, "2025-03-17"},
	{"codestral", "mistral", 262144, 0, "estimate", srcMistral, "2025-01-13"},
	{"qwen-max", "alibaba", 32768, 8192, "estimate", srcQwen, "2025-01-25"},
	{"qwen-plus", "alibaba", 131072, 8192, "estimate", srcQwen, "2025-01-25"},
	{"qwen-turbo", "alibaba", 1000000, 8192, "estimate", srcQwen, "2025-01-25"},
	{"qwen2.5-72b-instruct", "alibaba", 131072, 8192, "estimate", srcQwen, "2024-09-19"},
}

// builtin are the presets: the published models, then the open models
// that are presets for their tokenizer.json ([openPresets]).
var builtin = func() []Model {
	out := make([]Model, len(published), len(published)+len(openPresets))
	for i, p := range published {
		out[i] = p.model()
	}
	return append(out, openPresets...)
}()

// Presets returns the built-in model presets (window fields only),
// newest families first within each provider. The slice is a copy;
// [Catalog.Models] gives them priced.
func Presets() []Model { return slices.Clone(builtin) }

// presets is a table of model presets: the built-in ones with entries
// added or overridden, as a configuration file's models: key gives them.
type presets []Model

// withPresets returns the built-in presets with extra applied in order:
// an entry whose name is already known replaces it (fields left zero keep
// the known value), any other is added at the end. Every entry must have
// a name, a positive context window, an output limit that is not negative
// and a tokenizer that [tokenize.New] knows; a tokenizer.json path (a
// name [tokenize.Deferred] reports) is not read here, only when a command
// counts with it.
func withPresets(extra []Model) (presets, error) {
	models := slices.Clone(builtin)
	for _, m := range extra {
		m = m.window()
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
		// A tokenizer.json is read when a command counts with it, not
		// here: most runs use none of the presets a configuration adds.
		if !tokenize.Deferred(m.Tokenizer) {
			if _, err := tokenize.New(m.Tokenizer); err != nil {
				return nil, fmt.Errorf("model %q: %v", m.Name, err)
			}
		}
		if i >= 0 {
			models[i] = m
		} else {
			models = append(models, m)
		}
	}
	return models, nil
}

func cmpOr[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// dated matches a dated snapshot name: gpt-4o-2024-08-06,
// claude-sonnet-4-20250514, claude-3-7-sonnet-latest.
// It is compiled on first use: most runs never look a model up.
var dated = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(.+?)-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$`)
})

// lookup returns the preset named name, ignoring case. A dated snapshot
// ("gpt-4o-2024-08-06", "claude-sonnet-4-20250514") or a "-latest" alias
// finds its family's entry when it has none of its own. An unknown name
// gives an [*UnknownModelError] that suggests close names.
func (ps presets) lookup(name string) (Model, error) {
	if m, ok := ps.find(name); ok {
		return m, nil
	}
	if sub := dated().FindStringSubmatch(name); sub != nil {
		if m, ok := ps.find(sub[1]); ok {
			return m, nil
		}
	}
	return Model{}, &UnknownModelError{Name: name, Suggestions: ps.closeNames(name)}
}

func (ps presets) find(name string) (Model, bool) {
	for _, m := range ps {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Model{}, false
}

// UnknownModelError is the error of a lookup that finds no model.
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
	return msg
}

// closeNames returns up to five known names close to name: those that
// contain it or that it contains, and those within an edit distance of a
// third of its length, nearest first, ties in table order.
func (ps presets) closeNames(name string) []string {
	q := strings.ToLower(name)
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	for _, m := range ps {
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
