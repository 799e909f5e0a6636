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

// modelsOptions are the flags of harpe models.
type modelsOptions struct {
	format string
	output string
}

func newModelsCmd(a *app) *cobra.Command {
	opts := &modelsOptions{}
	c := &cobra.Command{
		Use:   "models",
		Short: "List the model presets that --model knows",
		Long: `List the model presets: each model's context window, output limit (0 when
the provider publishes no separate one), tokenizer, and the date and public
page its figures were taken from. Models whose tokenizer is not built into
harpe (Claude, Gemini, Llama, Mistral, Qwen) are counted with the estimate.

The configuration file can add or override presets under "models:"; fields
left out of an override keep the built-in value:

  models:
    gpt-4o:
      context_window: 64000
    my-local-model:
      context_window: 32768
      output_limit: 4096
      tokenizer: cl100k_base
      source: our deployment notes
      as_of: 2026-01-15
` + exitStatusHelp,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
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
	models := cat.Models()
	return a.writeOutput(opts.output, func(w io.Writer) error {
		switch opts.format {
		case "json":
			return writeJSON(w, map[string]any{"models": models})
		case "yaml":
			return writeYAML(w, map[string]any{"models": models})
		}
		return modelsTable(w, models)
	})
}

// modelsTable shows the presets in 80 columns. Source URLs are long, so
// each row names its source by a number and the URLs follow the table.
func modelsTable(w io.Writer, models []tokenize.Model) error {
	var sources []string
	var rows [][]string
	for _, m := range models {
		out := "-"
		if m.OutputLimit > 0 {
			out = strconv.Itoa(m.OutputLimit)
		}
		k := slices.Index(sources, m.Source)
		if k < 0 {
			k = len(sources)
			sources = append(sources, m.Source)
		}
		rows = append(rows, []string{m.Name, strconv.Itoa(m.ContextWindow), out, m.Tokenizer, m.AsOf, "[" + strconv.Itoa(k+1) + "]"})
	}
	if err := renderTable(w, []string{"MODEL", "CONTEXT", "OUTPUT", "TOKENIZER", "AS OF", "SRC"}, rows, nil); err != nil {
		return err
	}
	for k, src := range sources {
		if _, err := fmt.Fprintf(w, "[%d] %s\n", k+1, src); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "OUTPUT - : no separate output limit published.\nestimate: the tokenizer is not built into harpe; tokens are estimated.\n")
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
	// same way whatever viper made of them.
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
