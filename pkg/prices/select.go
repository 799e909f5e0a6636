package prices

import (
	"slices"
	"strings"
)

// Select picks the models names name, in their order without repeats: a
// name that [Catalog.Lookup] knows (a preset, a dated snapshot of one, or
// a model the price data knows) gives that model; any other, every model
// whose name contains it, case aside: the presets, then the models the
// price data has from the presets' makers (each as Lookup gives it, one
// a preset prices left out). A name that is neither is the error Lookup
// gave for it (an [*UnknownModelError] when no model has that
// name). No names: every preset.
func (c *Catalog) Select(names []string) ([]Model, error) {
	all := c.Models()
	if len(names) == 0 {
		return all, nil
	}
	all = append(all, c.dataModels(all)...)
	var out []Model
	seen := map[string]bool{}
	add := func(m Model) {
		if !seen[m.Name] {
			seen[m.Name] = true
			out = append(out, m)
		}
	}
	for _, name := range names {
		m, err := c.Lookup(name)
		if err == nil {
			add(m)
			continue
		}
		q := strings.ToLower(name)
		if q == "" {
			continue
		}
		contains := func(m Model) bool { return strings.Contains(strings.ToLower(m.Name), q) }
		if !slices.ContainsFunc(all, contains) {
			return nil, err
		}
		for _, m := range all {
			if contains(m) {
				add(m)
			}
		}
	}
	return out, nil
}

// dataModels are the models the price data has from the makers of the
// presets, in the data's order, that no preset is priced as.
func (c *Catalog) dataModels(presets []Model) []Model {
	makers := map[string]bool{}
	priced := map[string]bool{}
	for _, m := range presets {
		makers[m.Provider] = true
		if m.PriceModel != "" {
			priced[m.PriceModel] = true
		}
	}
	var out []Model
	for _, p := range c.db.providers {
		if !makers[p.ID] {
			continue
		}
		for _, dm := range p.Models {
			if priced[p.ID+"/"+dm.ID] {
				continue
			}
			m, err := c.Lookup(dm.ID)
			if err != nil || m.PriceModel != p.ID+"/"+dm.ID || priced[m.PriceModel] {
				continue
			}
			priced[m.PriceModel] = true
			out = append(out, m)
		}
	}
	return out
}
