package prices

import (
	"slices"
	"strings"
)

// Select picks the models names name, in their order without repeats: a
// name that [Catalog.Lookup] knows (a preset, a dated snapshot of one, or
// a model the price data knows) gives that model; any other, every
// preset whose name contains it, case aside. A name that is neither is
// the error Lookup gave for it (a [*tokenize.UnknownModelError] when no
// model has that name). No names: every preset.
func (c *Catalog) Select(names []string) ([]Model, error) {
	all := c.Models()
	if len(names) == 0 {
		return all, nil
	}
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
