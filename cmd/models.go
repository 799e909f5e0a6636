package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

// modelsOptions are the flags and arguments of harpe models.
type modelsOptions struct {
	format string
	output string
	names  []string
}

func newModelsCmd(a *app) *cobra.Command {
	opts := &modelsOptions{}
	c := &cobra.Command{
		Use:   "models [NAME|FILTER]...",
		Short: "List the model presets that --model knows, with their prices",
		Long: `List the model presets: each model's context window, output limit (0 when
the provider publishes no separate one), tokenizer, prices in US dollars per
million tokens (input, cache read, cache write with Anthropic's 5-minute and
1-hour TTL, output), its prompt-caching rule, and the date and public page
its figures were taken from. Models whose tokenizer is not built into harpe
(Claude, Gemini, Llama, Mistral, Qwen) are counted with the estimate; a
model with no published price in the table shows "-".

Each argument is a preset name (a dated snapshot such as
claude-sonnet-4-5-20250929 finds its family) or, failing that, a filter:
every preset whose name contains it. With names, the table is followed by
each preset's details and sources.

The configuration file can add or override presets under "models:"; fields
left out of an override keep the built-in value, and prices given replace
the built-in prices as a whole:

  models:
    gpt-4o:
      context_window: 64000
    my-local-model:
      context_window: 32768
      output_limit: 4096
      tokenizer: cl100k_base
      source: our deployment notes
      as_of: 2026-01-15
      prices: {input: 0.5, cache_read: 0.05, output: 1.5, as_of: 2026-01-15}
      cache: openai
` + exitStatusHelp,
		RunE: func(c *cobra.Command, args []string) error {
			opts.names = args
			return runModels(a, opts)
		},
	}
	c.Flags().StringVarP(&opts.format, "format", "f", "table", "output `FORMAT`: table, json or yaml")
	c.Flags().StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}

func runModels(a *app, opts *modelsOptions) error {
	if err := checkFormat(opts.format, "table", "json", "yaml"); err != nil {
		return err
	}
	cat, err := a.modelCatalog()
	if err != nil {
		return err
	}
	models, err := selectModels(cat, opts.names)
	if err != nil {
		return err
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		switch opts.format {
		case "json":
			return writeJSON(w, map[string]any{"models": models})
		case "yaml":
			return writeYAML(w, map[string]any{"models": models})
		}
		if err := modelsTable(w, models, len(opts.names) == 0); err != nil {
			return err
		}
		if len(opts.names) > 0 {
			return modelDetails(w, models)
		}
		return nil
	})
}

// selectModels picks the presets args name, in argument order without
// repeats: an exact (or dated-snapshot) name gives its preset, anything
// else every preset whose name contains it. No args: every preset.
func selectModels(cat *tokenize.Catalog, args []string) ([]tokenize.Model, error) {
	all := cat.Models()
	if len(args) == 0 {
		return all, nil
	}
	var out []tokenize.Model
	seen := map[string]bool{}
	add := func(m tokenize.Model) {
		if !seen[m.Name] {
			seen[m.Name] = true
			out = append(out, m)
		}
	}
	for _, arg := range args {
		if m, err := cat.Lookup(arg); err == nil {
			add(m)
			continue
		} else if q := strings.ToLower(arg); q != "" {
			n := len(out)
			for _, m := range all {
				if strings.Contains(strings.ToLower(m.Name), q) {
					add(m)
				}
			}
			if len(out) == n && !slices.ContainsFunc(all, func(m tokenize.Model) bool { return strings.Contains(strings.ToLower(m.Name), q) }) {
				return nil, usageErrorf("%v", err)
			}
		}
	}
	return out, nil
}

// money formats a price per million tokens: "-" when unpriced.
func money(p *tokenize.Prices, v func(*tokenize.Prices) float64) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatFloat(v(p), 'f', -1, 64)
}

// modelsTable shows the presets in 80 columns: limits and prices. The
// tokenizer, the 1-hour write price and the sources are in --format json
// and in the details of named presets; hint says so (not when the details
// follow).
func modelsTable(w io.Writer, models []tokenize.Model, hint bool) error {
	var rows [][]string
	for _, m := range models {
		out := "-"
		if m.OutputLimit > 0 {
			out = strconv.Itoa(m.OutputLimit)
		}
		p := m.Prices
		write := money(p, func(p *tokenize.Prices) float64 { return p.CacheWrite5m })
		if p != nil && p.CacheWrite5m == 0 {
			write = "free"
		}
		rows = append(rows, []string{m.Name, strconv.Itoa(m.ContextWindow), out,
			money(p, func(p *tokenize.Prices) float64 { return p.Input }),
			money(p, func(p *tokenize.Prices) float64 { return p.CacheRead }),
			write,
			money(p, func(p *tokenize.Prices) float64 { return p.Output })})
	}
	if err := renderTable(w, []string{"MODEL", "CONTEXT", "OUTPUT", "IN", "READ", "WRITE", "OUT"}, rows, nil); err != nil {
		return err
	}
	_, err := io.WriteString(w, "IN READ WRITE OUT: US$ per million tokens (input, cache read, 5-minute cache\n"+
		"write, output); -: not priced here. OUTPUT -: no separate limit published.\n")
	if err == nil && hint {
		_, err = io.WriteString(w, "harpe models NAME shows tokenizers, cache rules and sources.\n")
	}
	return err
}

// modelDetails writes each preset's other fields and its sources.
func modelDetails(w io.Writer, models []tokenize.Model) error {
	var b strings.Builder
	for _, m := range models {
		fmt.Fprintf(&b, "\n%s (%s)\n", m.Name, m.Provider)
		tok := m.Tokenizer
		if !m.Exact() {
			tok += " (its tokenizer is not built into harpe)"
		}
		fmt.Fprintf(&b, "  tokenizer:  %s\n", tok)
		fmt.Fprintf(&b, "  window:     %d tokens, output %d (as of %s)\n              %s\n", m.ContextWindow, m.OutputLimit, m.AsOf, m.Source)
		if p := m.Prices; p != nil {
			fmt.Fprintf(&b, "  prices:     input %s, cache read %s, cache write 5m %s / 1h %s, output %s\n",
				money(p, func(p *tokenize.Prices) float64 { return p.Input }), money(p, func(p *tokenize.Prices) float64 { return p.CacheRead }),
				money(p, func(p *tokenize.Prices) float64 { return p.CacheWrite5m }), money(p, func(p *tokenize.Prices) float64 { return p.CacheWrite1h }),
				money(p, func(p *tokenize.Prices) float64 { return p.Output }))
			fmt.Fprintf(&b, "              US$ per million tokens (as of %s)\n              %s\n", p.AsOf, p.Source)
		} else {
			b.WriteString("  prices:     none published in harpe's table; priced at 0 (add them under models: in harpe.yaml)\n")
		}
		cache := m.CacheRule()
		if m.MinCacheTokens > 0 {
			cache += fmt.Sprintf(", prompts of %d tokens or more", m.MinCacheTokens)
		}
		fmt.Fprintf(&b, "  cache:      %s\n", cache)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// modelCatalog returns the built-in presets with the configuration file's
// "models:" entries applied.
func (a *app) modelCatalog() (*tokenize.Catalog, error) {
	v, err := a.loadConfigFile()
	if err != nil {
		return nil, err
	}
	if !v.IsSet("models") {
		return tokenize.NewCatalog(nil)
	}
	where := v.ConfigFileUsed() + ": models"
	// Re-encode through YAML so the field names and types are checked the
	// same way whatever the loader made of them.
	raw, err := yaml.Marshal(v.Get("models"))
	if err != nil {
		return nil, usageErrorf("%s: %v", where, err)
	}
	var entries map[string]tokenize.Model
	if err := yaml.Unmarshal(raw, &entries); err != nil {
		return nil, usageErrorf("%s: want a map of model name to {context_window, output_limit, tokenizer, source, as_of}: %v", where, err)
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		names = append(names, name)
	}
	slices.Sort(names)
	extra := make([]tokenize.Model, 0, len(names))
	for _, name := range names {
		m := entries[name]
		m.Name = name
		// YAML reads an unquoted 2026-01-15 as a timestamp.
		m.AsOf = strings.TrimSuffix(m.AsOf, "T00:00:00Z")
		if p := m.Prices; p != nil {
			p.AsOf = strings.TrimSuffix(p.AsOf, "T00:00:00Z")
			if p.Source == "" {
				p.Source = v.ConfigFileUsed()
			}
		}
		extra = append(extra, m)
	}
	cat, err := tokenize.NewCatalog(extra)
	if err != nil {
		return nil, usageErrorf("%s: %v", where, err)
	}
	return cat, nil
}

// applyModel fills in what a --model preset implies for command c: the
// model's tokenizer for --tokenizer and, when windowFlag is not "", its
// context window for that flag (--budget, --context-window). A flag set on
// the command line, by HARPE_* or by harpe.yaml beats the preset. When the
// model's tokenizer is not built into harpe, a note on stderr says that its
// tokens are estimated.
func (a *app) applyModel(c *cobra.Command, name, windowFlag string) error {
	if name == "" {
		return nil
	}
	cat, err := a.modelCatalog()
	if err != nil {
		return err
	}
	m, err := cat.Lookup(name)
	if err != nil {
		return usageErrorf("--model: %v", err)
	}
	f := c.Flags()
	if windowFlag != "" && !f.Changed(windowFlag) {
		if err := f.Set(windowFlag, strconv.Itoa(m.ContextWindow)); err != nil {
			return usageErrorf("--model: %v", err)
		}
	}
	if !f.Changed("tokenizer") {
		if err := f.Set("tokenizer", m.Tokenizer); err != nil {
			return usageErrorf("--model: %v", err)
		}
		if !m.Exact() {
			fmt.Fprintf(a.io.Err, "harpe: note: %s: its tokenizer is not built into harpe, so its tokens are estimated\n", m.Name)
		}
	}
	return nil
}
