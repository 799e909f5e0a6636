package prices

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// CacheRule names a provider's prompt-caching rule, by which the cost
// model prices a call's prompt (pkg/cost).
type CacheRule string

// The cache rules.
const (
	CacheAnthropic CacheRule = "anthropic"
	CacheOpenAI    CacheRule = "openai"
	CacheNone      CacheRule = "none"
)

// CacheRules are the valid rules, in the order help lists them. Each has
// its arithmetic in package cost (cost.RuleOf); docs/cost.md says how to
// add one.
var CacheRules = []CacheRule{CacheAnthropic, CacheOpenAI, CacheNone}

// CacheRuleNames are the names of [CacheRules], in their order.
func CacheRuleNames() []string {
	names := make([]string, len(CacheRules))
	for i, r := range CacheRules {
		names[i] = string(r)
	}
	return names
}

// ParseCacheRule reads a cache rule; "" is the model's own (returned as
// "").
func ParseCacheRule(s string) (CacheRule, error) {
	r := CacheRule(s)
	if s == "" || slices.Contains(CacheRules, r) {
		return r, nil
	}
	return "", fmt.Errorf("unknown cache rule %q; valid: %s", s, strings.Join(CacheRuleNames(), ", "))
}

// ruleOf is the cache rule of a model by who makes it: Anthropic's for
// Claude, wherever it is served (Bedrock, Vertex), OpenAI's for the
// OpenAI models (GPT, o-series) wherever served (Azure) and for Google's
// Gemini 2.5 and later (implicit prefix caching, see [implicitGemini]),
// else none: the other providers' caches are not modelled.
func ruleOf(db *DB, id, provider string) CacheRule {
	id = normalize(id)
	if provider == "" {
		provider = db.Provider(id)
	}
	switch {
	case strings.Contains(id, "claude") || provider == "anthropic":
		return CacheAnthropic
	case provider == "openai":
		return CacheOpenAI
	case implicitGemini(id) > 0:
		return CacheOpenAI
	}
	return CacheNone
}

// geminiVersion finds a Gemini model's version in its id ("gemini-2.5-
// flash", "google/gemini-3-pro-preview"). It is compiled on first use, as
// are the package's other patterns: a process that never looks up a price
// does not pay for them at start-up.
var geminiVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[/.:-])gemini-(\d+)(?:\.(\d+))?(?:-|$)`)
})

// implicitGemini is the shortest prompt Google's implicit cache serves
// for a Gemini model that has one, 0 for the others. Google's
// context-caching page (https://ai.google.dev/gemini-api/docs/caching,
// last updated 2026-10-13, read 2026-12-02): implicit caching "is enabled
// by default for all Gemini 2.5 and newer models", cache hits are billed
// at the cached-input price and nothing more is charged for the tokens
// that make the cache (Vertex AI's context-cache overview: billed "at the
// standard input token price", no storage cost for implicit caching);
// minimum input 2,048 tokens for Gemini 2.5 Flash and Pro, 4,096 for the
// Gemini 3 models it lists. Google publishes no granularity or lifetime:
// the cost model reads as OpenAI's rule does (the shared prefix in steps
// of 128 tokens, 5 minutes), and where the records are the bill they
// decide.
func implicitGemini(id string) int {
	m := geminiVersion().FindStringSubmatch(id)
	if m == nil {
		return 0
	}
	major, _ := strconv.Atoi(m[1])
	minor := 0
	if m[2] != "" {
		minor, _ = strconv.Atoi(m[2])
	}
	switch {
	case major >= 3:
		return 4096
	case major == 2 && minor >= 5:
		return 2048
	}
	return 0
}

// minCache is the shortest prompt Anthropic caches, by model, as its
// prompt-caching page lists it (docs/cost.md); models not listed cache a
// prompt of any length in the cost model.
var minCache = map[string]int{
	"claude-opus-4-5": 4096, "claude-opus-4-1": 1024, "claude-opus-4": 1024,
	"claude-sonnet-4-5": 1024, "claude-sonnet-4": 1024, "claude-haiku-4-5": 4096,
	"claude-3-7-sonnet": 1024, "claude-3-5-haiku": 2048,
}

// Override is what harpe.yaml's "models:" gives for a model's prices
// and cache: it beats the price data.
type Override struct {
	// Name is the model name, matched without regard to case; a dated
	// snapshot or alias of a preset shares the preset's override.
	Name string
	// Prices replace the data's prices as a whole (nil: keep them); their
	// Source says where they come from ("harpe.yaml:12").
	Prices *Prices
	// Cache and MinCacheTokens replace the rule and minimum ("", 0: keep).
	Cache          CacheRule
	MinCacheTokens int
}

// DataWindow is the context window the price data gives for the model
// (0 when it gives none, or the model is not in the data). A preset's
// window is [Model.ContextWindow]; this is what a model without one can
// go by.
func (m Model) DataWindow() int {
	if m.entry == nil {
		return 0
	}
	return m.entry.ContextWindow
}

// TokenizerOf is the counter harpe uses for a model it has no preset for,
// by who makes it: OpenAI's GPT-4o, GPT-4.1, GPT-4.5, GPT-5 and o-series
// models use o200k_base, older GPT-4 and GPT-3.5 models cl100k_base; any
// other model's tokenizer is not built into harpe ("estimate").
func TokenizerOf(provider, name string) string {
	n := strings.ToLower(name)
	if provider != "openai" {
		return "estimate"
	}
	switch {
	case strings.HasPrefix(n, "gpt-4o"), strings.HasPrefix(n, "gpt-4.1"), strings.HasPrefix(n, "gpt-4.5"),
		strings.HasPrefix(n, "gpt-5"), strings.HasPrefix(n, "chatgpt-4o"), strings.HasPrefix(n, "codex"),
		len(n) > 1 && n[0] == 'o' && n[1] >= '1' && n[1] <= '9':
		return "o200k_base"
	case strings.HasPrefix(n, "gpt-4"), strings.HasPrefix(n, "gpt-3.5"):
		return "cl100k_base"
	}
	return "estimate"
}

// CacheRule is the model's cache rule.
func (m Model) CacheRule() CacheRule { return m.Cache }

// At returns the prices of one of the model's calls at time t (zero: the
// newest prices) whose input, cache reads and writes included, is input
// tokens; nil when the model is unpriced.
func (m Model) At(t time.Time, input int) *Prices {
	if m.fixed || m.entry == nil {
		return m.Prices
	}
	p := m.entry.At(t, input)
	if p != nil && p.AsOf == "" && m.Prices != nil {
		p.AsOf = m.Prices.AsOf
	}
	return p
}

// Catalog resolves a model's name to its [Model]: the model presets for
// windows and tokenizers, a price database, and harpe.yaml's overrides.
type Catalog struct {
	presets  presets
	db       *DB
	asOf     string
	over     []Override
	priceAll string // price every call as this model ("": its own)
	// looked caches lookups by name (a catalog is shared by concurrent
	// replays); at most maxLooked names.
	looked  sync.Map // string → lookup
	nLooked atomic.Int64
}

type lookup struct {
	m   Model
	err error
}

// maxLooked bounds the names a catalog remembers: a transcript naming
// more models than that is looked up afresh each time.
const maxLooked = 4096

// NewCatalog returns a catalog of the built-in presets with the presets
// extra added or overridden (see [ReadModels]; fields left zero keep the
// built-in value), priced from db (nil: the embedded [Snapshot]), with
// overrides applied. Only the window fields of extra are read (name,
// provider, window, output limit, tokenizer, source, date): an entry's
// prices and cache rule are an [Override]. Every preset must have a name,
// a positive context window, an output limit that is not negative and a
// tokenizer [tokenize.New] knows (a tokenizer.json path is read only when
// a command counts with it); an override's prices are checked
// ([Prices.Check]) and its cache rule must be valid.
func NewCatalog(extra []Model, db *DB, overrides []Override) (*Catalog, error) {
	ps := presets(builtin)
	if len(extra) > 0 {
		var err error
		if ps, err = withPresets(extra); err != nil {
			return nil, err
		}
	}
	asOf := ""
	if db == nil {
		db = Snapshot()
		asOf = Info().Published
	}
	for _, o := range overrides {
		if p := o.Prices; p != nil {
			if err := p.Check(); err != nil {
				return nil, fmt.Errorf("model %q: prices.%w", o.Name, err)
			}
		}
		if _, err := ParseCacheRule(string(o.Cache)); err != nil {
			return nil, fmt.Errorf("model %q: %w", o.Name, err)
		}
		if o.MinCacheTokens < 0 {
			return nil, fmt.Errorf("model %q: min_cache_tokens must be a whole number ≥ 0, got %d", o.Name, o.MinCacheTokens)
		}
	}
	return &Catalog{presets: ps, db: db, asOf: asOf, over: slices.Clone(overrides)}, nil
}

// Default is the built-in presets priced from the embedded snapshot.
func Default() *Catalog {
	c, _ := NewCatalog(nil, nil, nil)
	return c
}

// DB returns the price database.
func (c *Catalog) DB() *DB { return c.db }

// PriceAs returns a copy of the catalog that prices every call as the
// model name, cache rule included, whatever model the call names; it is
// an error when the catalog cannot price name.
func (c *Catalog) PriceAs(name string) (*Catalog, error) {
	m, err := c.Lookup(name)
	if err != nil {
		return nil, err
	}
	if m.Prices == nil {
		return nil, fmt.Errorf("model %q has no price (harpe models %s says why)", name, name)
	}
	return &Catalog{presets: c.presets, db: c.db, asOf: c.asOf, over: c.over, priceAll: name}, nil
}

// PricedAs is the model every call is priced as ("" for each call's own).
func (c *Catalog) PricedAs() string { return c.priceAll }

// Models returns the presets, priced, in the presets' order.
func (c *Catalog) Models() []Model {
	ws := c.presets
	out := make([]Model, len(ws))
	for i, w := range ws {
		out[i] = c.price(w, w.Name)
	}
	return out
}

// Lookup returns the model named name, as a call naming it is priced: a
// preset, ignoring case (a dated snapshot such as "gpt-4o-2024-08-06" or
// "claude-sonnet-4-20250514", or a "-latest" alias, finds its family's
// preset when it has none of its own), and its prices; or, without a
// preset, a model only the price data or an override knows (window
// fields zero, the tokenizer its maker's, see [TokenizerOf]). A name none
// of them knows is an [*UnknownModelError] that suggests close names.
func (c *Catalog) Lookup(name string) (Model, error) {
	if v, ok := c.looked.Load(name); ok {
		l := v.(lookup)
		return l.m.clone(), l.err
	}
	m, err := c.lookup(name)
	if c.nLooked.Add(1) <= maxLooked {
		c.looked.Store(name, lookup{m.clone(), err})
	}
	return m, err
}

// clone copies m's prices, so that a caller's change does not reach the
// cache.
func (m Model) clone() Model {
	if m.Prices != nil {
		p := *m.Prices
		m.Prices = &p
	}
	return m
}

func (c *Catalog) lookup(name string) (Model, error) {
	if c.priceAll != "" {
		name = c.priceAll
	}
	w, err := c.presets.lookup(name)
	if err == nil {
		return c.price(w, name), nil
	}
	m := c.price(Model{}, name)
	if m.Prices == nil && c.override(name) == nil {
		return Model{}, err
	}
	return m, nil
}

// LookupCall is [Catalog.Lookup] for a call that names the model name:
// an unknown name is a model without prices (not an error), whose cache
// rule is still the maker's ("claude-next" is Anthropic's).
func (c *Catalog) LookupCall(name string) Model {
	m, err := c.Lookup(name)
	if err == nil {
		return m
	}
	key := "\x00" + name // the unknown name's own entry
	if v, ok := c.looked.Load(key); ok {
		return v.(lookup).m.clone()
	}
	m = c.price(Model{Name: name}, name)
	if c.nLooked.Add(1) <= maxLooked {
		c.looked.Store(key, lookup{m: m.clone()})
	}
	return m
}

func (c *Catalog) override(name string) *Override {
	for i := len(c.over) - 1; i >= 0; i-- {
		if strings.EqualFold(c.over[i].Name, name) {
			return &c.over[i]
		}
	}
	return nil
}

// fastOf says that name is the fast mode of the preset named preset
// ("claude-opus-4-8-fast" of "claude-opus-4-8"), which the preset's own
// prices do not price.
func fastOf(name, preset string) bool {
	return strings.HasSuffix(normalize(name), "-fast") && !strings.HasSuffix(normalize(preset), "-fast")
}

// price prices the preset w (zero: none) for a call naming name.
func (c *Catalog) price(w Model, name string) Model {
	m := w.window()
	e, ok := c.db.Find(name)
	if !ok && w.Name != "" && !fastOf(name, w.Name) {
		e, ok = c.db.Find(w.Name)
	}
	provider := w.Provider
	if ok {
		m.entry = e
		m.PriceModel = e.Provider + "/" + e.Model
		m.PriceVaries = e.Varies()
		m.PriceSource = c.db.Source
		if m.Prices = e.At(time.Time{}, 0); m.Prices != nil && m.Prices.AsOf == "" {
			m.Prices.AsOf = c.asOf
		}
		if m.Name == "" {
			m.Name = e.Model
		}
		if provider == "" {
			provider = e.Provider
		}
	}
	if m.Name == "" {
		m.Name = name
	}
	if m.Provider == "" {
		m.Provider = provider
	}
	if w.Name == "" && ok {
		// No preset: the tokenizer is the maker's, as far as harpe has it.
		m.Tokenizer = TokenizerOf(m.Provider, m.Name)
	}
	m.Cache = ruleOf(c.db, name, provider)
	m.MinCacheTokens = minCache[strings.ToLower(w.Name)]
	if m.Cache == CacheOpenAI {
		if n := implicitGemini(normalize(name)); n > 0 {
			m.MinCacheTokens = n
		}
	}
	o := c.override(name)
	if o == nil && w.Name != "" {
		o = c.override(w.Name)
	}
	if o != nil {
		if o.Prices != nil {
			p := *o.Prices
			m.Prices, m.fixed = &p, true
			m.PriceSource, m.PriceVaries, m.PriceModel = p.Source, "", ""
		}
		if o.Cache != "" {
			m.Cache = o.Cache
		}
		if o.MinCacheTokens > 0 {
			m.MinCacheTokens = o.MinCacheTokens
		}
	}
	if m.Prices == nil {
		m.PriceSource = ""
	}
	return m
}
