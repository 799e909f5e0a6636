package prices

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// modelEntry is one entry of harpe.yaml's "models:": a preset's window
// fields and its prices and cache.
type modelEntry struct {
	Name           string  `yaml:"name"`
	Provider       string  `yaml:"provider"`
	ContextWindow  int     `yaml:"context_window"`
	OutputLimit    int     `yaml:"output_limit"`
	Tokenizer      string  `yaml:"tokenizer"`
	Source         string  `yaml:"source"`
	AsOf           string  `yaml:"as_of"`
	Prices         *Prices `yaml:"prices"`
	Cache          string  `yaml:"cache"`
	MinCacheTokens int     `yaml:"min_cache_tokens"`
}

// ReadModels reads the "models:" section of a configuration file, as its
// YAML loader gave it (nil when the file has none): the presets it adds
// or changes (window fields only; checked as [NewCatalog] checks them)
// and the prices and cache rules it gives, for NewCatalog. where names a
// key's place for messages ("harpe.yaml:3"); a bad value is an error
// naming the key's line.
func ReadModels(models any, where func(key string) string) ([]Model, []Override, error) {
	if models == nil {
		return nil, nil, nil
	}
	at := where("models") + ": models"
	// Re-encode through YAML so the field names and types are checked the
	// same way whatever the loader made of them.
	raw, err := yaml.Marshal(models)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", at, err)
	}
	var entries map[string]modelEntry
	if err := yaml.Unmarshal(raw, &entries); err != nil {
		return nil, nil, fmt.Errorf("%s: want a map of model name to {context_window, output_limit, tokenizer, source, as_of, prices, cache}: %v", at, err)
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)
	var extra []Model
	var overrides []Override
	for _, name := range names {
		m, o, err := entries[name].read(name, where)
		if err != nil {
			return nil, nil, err
		}
		if o != nil {
			overrides = append(overrides, *o)
		}
		// An entry that gives only prices or a cache rule for a model
		// without a preset adds no preset.
		if _, err := presets(builtin).lookup(name); err == nil || m != (Model{Name: name}) {
			extra = append(extra, m)
		}
	}
	if _, err := withPresets(extra); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", at, err)
	}
	return extra, overrides, nil
}

// read checks one entry and splits it into its window preset and its
// price override (nil when it gives no price, cache rule or minimum).
func (e modelEntry) read(name string, where func(string) string) (Model, *Override, error) {
	key := "models." + strings.ToLower(name)
	m := Model{Name: name, Provider: e.Provider, ContextWindow: e.ContextWindow, OutputLimit: e.OutputLimit,
		Tokenizer: e.Tokenizer, Source: e.Source, AsOf: e.AsOf}
	// YAML reads an unquoted 2026-01-15 as a timestamp.
	m.AsOf = strings.TrimSuffix(m.AsOf, "T00:00:00Z")
	if p := e.Prices; p != nil {
		p.AsOf = strings.TrimSuffix(p.AsOf, "T00:00:00Z")
		if p.Source == "" {
			p.Source = where(key + ".prices")
		}
		if err := p.Check(); err != nil {
			var fe *FieldError
			at := where(key + ".prices")
			if errors.As(err, &fe) {
				at = where(key + ".prices." + fe.Field)
			}
			return m, nil, fmt.Errorf("%s: model %q: prices.%v", at, name, err)
		}
	}
	rule, err := ParseCacheRule(e.Cache)
	if err != nil {
		return m, nil, fmt.Errorf("%s: model %q: %v", where(key+".cache"), name, err)
	}
	if e.Prices == nil && rule == "" && e.MinCacheTokens == 0 {
		return m, nil, nil
	}
	return m, &Override{Name: name, Prices: e.Prices, Cache: rule, MinCacheTokens: e.MinCacheTokens}, nil
}
