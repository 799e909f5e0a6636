package prices

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Prices are a model's prices for one call in US dollars per million
// tokens, its date and tier chosen.
type Prices struct {
	// Input is an uncached prompt token.
	Input float64 `json:"input" yaml:"input"`
	// CacheRead is a prompt token read from the cache (Anthropic "cache
	// hits and refreshes", OpenAI and Gemini "cached input"); the input
	// price where the data gives none.
	CacheRead float64 `json:"cache_read" yaml:"cache_read"`
	// CacheWrite5m and CacheWrite1h are a prompt token written to the
	// cache with Anthropic's 5-minute and 1-hour TTL. Where the data gives
	// no write price a written token is input; no 1-hour price, the
	// 5-minute one.
	CacheWrite5m float64 `json:"cache_write_5m" yaml:"cache_write_5m"`
	CacheWrite1h float64 `json:"cache_write_1h" yaml:"cache_write_1h"`
	// Output is a reply token, reasoning included.
	Output float64 `json:"output" yaml:"output"`
	// Source is where the prices come from; AsOf the date (YYYY-MM-DD)
	// they were recorded as current.
	Source string `json:"source" yaml:"source"`
	AsOf   string `json:"as_of" yaml:"as_of"`
}

// Check rejects a price that is not finite, negative or above
// [MaxPrice]; the error names the field.
func (p *Prices) Check() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"input", p.Input}, {"cache_read", p.CacheRead}, {"cache_write_5m", p.CacheWrite5m}, {"cache_write_1h", p.CacheWrite1h}, {"output", p.Output}} {
		if err := checkPrice(f.v); err != nil {
			return &FieldError{Field: f.name, Err: err}
		}
	}
	return nil
}

// FieldError is a bad value of one field of a price set.
type FieldError struct {
	Field string
	Err   error
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }
func (e *FieldError) Unwrap() error { return e.Err }

// Entry is a model the price data knows: its provider, its id and the
// price sets the call's date and size choose from.
type Entry struct {
	// Provider and Model are the ids of the data ("anthropic",
	// "claude-opus-4-6").
	Provider string
	Model    string
	// Name is the model's display name; ContextWindow its window where
	// the data gives one (0: not given).
	Name          string
	ContextWindow int
	source        string
	prices        []conditional
}

// Varies says how the prices vary: "by date", "by time of day", "above N
// input tokens", joined with "; " ("" when they are one set of figures).
func (e *Entry) Varies() string {
	var out []string
	dated, daily := false, false
	above := map[int]bool{}
	var starts []int
	for _, c := range e.prices {
		dated = dated || !c.start.IsZero()
		daily = daily || c.timeOfDay
		for _, p := range []price{c.p.input, c.p.cacheRead, c.p.cacheWrite, c.p.cacheWrite1h, c.p.output} {
			for _, t := range p.tiers {
				if !above[t.Start] {
					above[t.Start] = true
					starts = append(starts, t.Start)
				}
			}
		}
	}
	if dated {
		out = append(out, "by date")
	}
	if daily {
		out = append(out, "by time of day")
	}
	for _, s := range starts {
		out = append(out, "above "+itoa(s)+" input tokens")
	}
	return strings.Join(out, "; ")
}

func itoa(n int) string {
	s := ""
	if n == 0 {
		return "0"
	}
	for i := 0; n > 0; i++ {
		if i > 0 && i%3 == 0 {
			s = "," + s
		}
		s = string(rune('0'+n%10)) + s
		n /= 10
	}
	return s
}

// At returns the prices of a call at time t whose input (uncached,
// cache reads and cache writes together) is input tokens: the price set
// the constraints choose at t (the newest when t is zero), each price at
// its tier. It is nil when that set prices neither input nor output
// tokens.
func (e *Entry) At(t time.Time, input int) *Prices {
	c := e.choose(t)
	mp := c.p
	if !mp.input.set && !mp.output.set {
		return nil
	}
	p := &Prices{Input: mp.input.at(input), Output: mp.output.at(input), Source: e.source}
	p.CacheRead, p.CacheWrite5m = p.Input, p.Input
	if mp.cacheRead.set {
		p.CacheRead = mp.cacheRead.at(input)
	}
	if mp.cacheWrite.set {
		p.CacheWrite5m = mp.cacheWrite.at(input)
	}
	p.CacheWrite1h = p.CacheWrite5m
	if mp.cacheWrite1h.set {
		p.CacheWrite1h = mp.cacheWrite1h.at(input)
	}
	if !c.start.IsZero() {
		p.AsOf = c.start.Format(time.DateOnly)
	}
	return p
}

// choose picks the price set for time t as genai-prices does: the last
// set whose constraint holds at t (no constraint always holds), else the
// first. With t zero: the last set that is not limited to a time of day.
func (e *Entry) choose(t time.Time) *conditional {
	for i := len(e.prices) - 1; i >= 0; i-- {
		c := &e.prices[i]
		switch {
		case t.IsZero():
			if !c.timeOfDay {
				return c
			}
		case c.timeOfDay:
			u := t.UTC()
			s := float64(u.Hour()*3600+u.Minute()*60+u.Second()) + float64(u.Nanosecond())/1e9
			if (c.toSc < c.fromSec && (s >= c.fromSec || s < c.toSc)) || (s >= c.fromSec && s < c.toSc) {
				return c
			}
		case c.start.IsZero() || !t.Before(c.start):
			return c
		}
	}
	return &e.prices[0]
}

// Provider returns the id of the provider whose model match rule matches
// the model id ("anthropic" for any id containing "claude"), "" when none
// does.
func (db *DB) Provider(id string) string {
	if p := db.providerFor(normalize(id)); p != nil {
		return p.ID
	}
	return ""
}

func (db *DB) providerFor(id string) *provider {
	for _, p := range db.providers {
		if p.ModelMatch != nil && p.ModelMatch.Matches(id) {
			return p
		}
	}
	return nil
}

func (db *DB) providerByID(id string) *provider {
	for _, p := range db.providers {
		if p.ID == id {
			return p
		}
	}
	for _, p := range db.providers {
		if p.ProviderMatch != nil && p.ProviderMatch.Matches(id) {
			return p
		}
	}
	return nil
}

func normalize(id string) string { return strings.ToLower(strings.TrimSpace(id)) }

// bedrock matches a Bedrock model id: a region or "global" prefix, a
// vendor prefix, or a version suffix ("us.anthropic.claude-…-v1:0").
var bedrock = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:[a-z]{2,7}(?:-[a-z]+)?\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer|twelvelabs|moonshot)\.|-v\d+(?::\d+)?$`)
})

// Find returns the entry of the model id, as genai-prices finds it from
// a model id alone: the first provider whose model match rule matches the
// id, in it the first model whose match rule matches, else the same with
// a compact date "-20250929" written "-2025-09-29", else the provider's
// fallback providers. Then, where that finds nothing: a Bedrock id
// ("us.anthropic.claude-sonnet-4-5-20250929-v1:0") is looked up in the
// provider "aws", a Vertex id ("claude-sonnet-4-5@20250929") with "@"
// read as "-". The id is lowercased and trimmed first.
func (db *DB) Find(id string) (*Entry, bool) {
	id = normalize(id)
	if id == "" {
		return nil, false
	}
	e, ok := db.find(id)
	if base, cut := strings.CutSuffix(id, "-fast"); cut && ok {
		if std, _ := db.find(base); std != nil && std.Provider == e.Provider && std.Model == e.Model {
			// The standard model's rule swallowed the fast-mode id.
			return db.fast(id, std)
		}
	}
	return e, ok
}

// fast is the entry of a fast-mode id ("claude-opus-4-8-fast": Claude
// Code's reader names so a response whose usage says `speed: "fast"`),
// std the standard model's entry. genai-prices 0.1.8 lists Anthropic's
// fast modes only through resellers (github-copilot's
// "claude-opus-4.8-fast", openrouter's "anthropic/claude-opus-4.6-fast"),
// with no 1-hour cache write price: the fast entry is the standard one's
// price sets, every figure scaled by the listing's input price over the
// standard one's (2 for Opus 4.8, 6 for Opus 4.6). Without a listing the
// id has no price (never the standard one's).
func (db *DB) fast(id string, std *Entry) (*Entry, bool) {
	want := strings.ReplaceAll(id, ".", "-")
	var listing *model
	for _, p := range db.providers {
		for _, m := range p.Models {
			mid := strings.ToLower(m.ID)
			mid = mid[strings.LastIndexByte(mid, '/')+1:]
			if listing == nil && strings.ReplaceAll(mid, ".", "-") == want {
				listing = m
			}
		}
	}
	if listing == nil || len(listing.prices) == 0 || len(std.prices) == 0 {
		return nil, false
	}
	fastIn := listing.prices[len(listing.prices)-1].p.input
	stdIn := std.prices[len(std.prices)-1].p.input
	if !fastIn.set || !stdIn.set || fastIn.base <= 0 || stdIn.base <= 0 {
		return nil, false
	}
	k := fastIn.base / stdIn.base
	scale := func(p price) price {
		p.base *= k
		p.tiers = slices.Clone(p.tiers)
		for i := range p.tiers {
			p.tiers[i].Price *= k
		}
		return p
	}
	e := *std
	e.Model, e.Name = std.Model+"-fast", listing.Name
	e.prices = make([]conditional, len(std.prices))
	for i, c := range std.prices {
		c.p = modelPrice{scale(c.p.input), scale(c.p.cacheRead), scale(c.p.cacheWrite), scale(c.p.cacheWrite1h), scale(c.p.output)}
		e.prices[i] = c
	}
	return &e, true
}

// find is [DB.Find] without the fast-mode rule; id is normalized.
func (db *DB) find(id string) (*Entry, bool) {
	if p := db.providerFor(id); p != nil {
		if e := db.inProvider(p, id); e != nil {
			return e, true
		}
	}
	if bedrock().MatchString(id) {
		if p := db.providerByID("aws"); p != nil {
			if e := db.inProvider(p, id); e != nil {
				return e, true
			}
		}
	}
	if strings.Contains(id, "@") {
		return db.Find(strings.ReplaceAll(id, "@", "-"))
	}
	return nil, false
}

// FindIn returns the entry of the model id in the provider named
// provider (its id, or a name its provider match rule matches).
func (db *DB) FindIn(provider, id string) (*Entry, bool) {
	p := db.providerByID(normalize(provider))
	if p == nil {
		return nil, false
	}
	e := db.inProvider(p, normalize(id))
	return e, e != nil
}

var compactDate = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-20\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])`)
})

func (db *DB) inProvider(p *provider, id string) *Entry {
	if e := db.search(p, id, true); e != nil {
		return e
	}
	if d := dashDate(id); d != id {
		return db.search(p, d, true)
	}
	return nil
}

// dashDate writes each compact calendar date "-20250929" that ends the id
// or is followed by "-" or ":" as "-2025-09-29".
func dashDate(id string) string {
	var b strings.Builder
	last := 0
	for _, loc := range compactDate().FindAllStringIndex(id, -1) {
		i, j := loc[0], loc[1]
		if j < len(id) && id[j] != '-' && id[j] != ':' {
			continue
		}
		d := id[i+1 : j]
		if t, err := time.Parse("20060102", d); err != nil || t.Format("20060102") != d {
			continue
		}
		b.WriteString(id[last:i])
		b.WriteString("-" + d[:4] + "-" + d[4:6] + "-" + d[6:])
		last = j
	}
	if last == 0 {
		return id
	}
	b.WriteString(id[last:])
	return b.String()
}

func (db *DB) search(p *provider, id string, fallback bool) *Entry {
	for _, m := range p.Models {
		if m.Match.Matches(id) {
			return &Entry{Provider: p.ID, Model: m.ID, Name: m.Name, ContextWindow: m.ContextWindow, source: db.Source, prices: m.prices}
		}
	}
	if !fallback {
		return nil
	}
	for _, f := range p.Fallback {
		for _, q := range db.providers {
			if q.ID == f {
				if e := db.search(q, id, false); e != nil {
					return e
				}
			}
		}
	}
	return nil
}

// Providers returns the provider ids in the data's order.
func (db *DB) Providers() []string {
	out := make([]string, len(db.providers))
	for i, p := range db.providers {
		out[i] = p.ID
	}
	return out
}

// Unsupported lists the regular expressions of the data's match rules
// that harpe cannot read; they never match.
func (db *DB) Unsupported() []string {
	var out []string
	for _, p := range db.providers {
		for _, m := range []*Match{p.ModelMatch, p.ProviderMatch} {
			if m != nil {
				out = append(out, m.unsupported()...)
			}
		}
		for _, m := range p.Models {
			out = append(out, m.Match.unsupported()...)
		}
	}
	return out
}
