package cmd

import (
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/internal/config"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/tokenize/hf"
	"github.com/harpe-dev/harpe/report"
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

Each argument is a model name (a preset, a dated snapshot such as
claude-sonnet-4-5-20250929 finds its family, or a model only the price data
knows, such as claude-opus-4-6) or, failing that, a filter: every preset and
every model the price data has from the same makers whose name contains it.
A word that matches nothing is named at the end (exit status 2); the others
are listed. With names, the table is followed by each model's details and
sources. Every model listed is accepted by --model and --price-as.

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
	c.Flags().StringVarP(&opts.format, "format", "f", "", formatFlagHelp("table, json or yaml"))
	c.Flags().StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	a.addPriceFlags(c, false)
	return c
}

func runModels(a *app, opts *modelsOptions) error {
	opts.format = a.reportFormat(opts.format, toStdout(opts.output))
	if err := checkFormat(opts.format, "table", "json", "yaml"); err != nil {
		return err
	}
	cat, err := a.modelCatalog()
	if err != nil {
		return err
	}
	// Each name on its own: one that matches nothing is named at the end
	// (exit status 2), the others are listed.
	var models []prices.Model
	var unknown []error
	seen := map[string]bool{}
	for _, name := range opts.names {
		got, err := cat.Select([]string{name})
		if err != nil {
			unknown = append(unknown, modelError(err))
			continue
		}
		for _, m := range got {
			if !seen[m.Name] {
				seen[m.Name] = true
				models = append(models, m)
			}
		}
	}
	if len(opts.names) == 0 {
		models, _ = cat.Select(nil)
	}
	if len(models) == 0 && len(unknown) > 0 {
		return usageErrorf("%v", errors.Join(unknown...))
	}
	err = a.writeOutput(opts.output, func(w io.Writer) error {
		switch opts.format {
		case "json":
			return writeJSON(w, map[string]any{"models": models})
		case "yaml":
			return writeFormatted(w, "yaml", map[string]any{"models": models})
		}
		if err := report.WriteModelTable(w, models, tableOptionsOf(w)); err != nil {
			return err
		}
		if len(opts.names) > 0 {
			return report.WriteModelDetails(w, models)
		}
		// The tokenizer, the 1-hour write price and the sources are in
		// --format json and in the details of named presets.
		_, err := io.WriteString(w, "harpe models NAME shows tokenizers, cache rules and sources.\n")
		return err
	})
	if err == nil && len(unknown) > 0 {
		err = listedError{errors.Join(unknown...)}
	}
	return err
}

// listedError is a name that matched nothing after the others were
// listed: the listing lands (as a negative answer's does) and the run
// ends with exit status 2, naming it.
type listedError struct{ err error }

func (e listedError) Error() string        { return e.err.Error() }
func (e listedError) Unwrap() error        { return e.err }
func (e listedError) ExitCode() int        { return ExitUsage }
func (e listedError) Is(target error) bool { return target == errNegative }

// addPriceFlags adds --prices and, when priceAs, --price-as to c.
func (a *app) addPriceFlags(c *cobra.Command, priceAs bool) {
	c.Flags().StringVar(&a.priceFile, "prices", "", "read prices from `FILE`, a genai-prices data.json (default: the embedded snapshot)")
	if priceAs {
		c.Flags().StringVar(&a.priceAs, "price-as", "", "price every call as if sent to model `NAME`, its cache rule included (--model only fills in what the calls leave out)")
	}
}

// modelCatalog returns the presets with the configuration file's
// "models:" entries applied, priced from the embedded snapshot or the
// --prices file, as --price-as when set.
func (a *app) modelCatalog() (*prices.Catalog, error) {
	cf, err := a.loadConfigFile()
	if err != nil {
		return nil, err
	}
	models, err := a.configModels(cf)
	if err != nil {
		return nil, err
	}
	presets, overrides, err := prices.ReadModels(models, cf.Where)
	if err != nil {
		return nil, inputError(err)
	}
	var db *prices.DB
	if a.priceFile != "" {
		data, err := config.ReadSmallFile(a.priceFile, maxPriceFile)
		if err != nil {
			return nil, usageErrorf("--prices: %v", err)
		}
		if db, err = prices.Load(data, a.priceFile); err != nil {
			return nil, usageErrorf("--prices: %v", err)
		}
	}
	cat, err := prices.NewCatalog(presets, db, overrides)
	if err != nil {
		return nil, usageErrorf("%v", err)
	}
	if a.priceAs != "" {
		if cat, err = cat.PriceAs(a.priceAs); err != nil {
			return nil, usageErrorf("--price-as: %v", modelError(err))
		}
	}
	return cat, nil
}

// modelError adds to an unknown model's error where to find the names.
func modelError(err error) error {
	var u *prices.UnknownModelError
	if errors.As(err, &u) {
		return fmt.Errorf("%w (harpe models lists them all)", err)
	}
	return err
}

// maxPriceFile bounds a --prices file (the snapshot is 0.5 MB).
const maxPriceFile = 64 << 20

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
	// One list: a preset, or a model only the price data (or harpe.yaml)
	// knows, as harpe models lists them.
	m, err := cat.Lookup(name)
	if err != nil {
		return usageErrorf("--model: %v", modelError(err))
	}
	f := c.Flags()
	if windowFlag != "" && !f.Changed(windowFlag) {
		window := m.ContextWindow
		if window == 0 {
			// No preset: the price data's window, where it gives one.
			window = m.DataWindow()
		}
		if window > 0 {
			if err := f.Set(windowFlag, strconv.Itoa(window)); err != nil {
				return usageErrorf("--model: %v", err)
			}
		} else {
			fmt.Fprintf(a.io.Err, "harpe: note: %s: harpe knows no context window for it; --%s keeps its value\n", m.Name, windowFlag)
		}
	}
	if m.Tokenizer == "" {
		m.Tokenizer = "estimate" // a harpe.yaml price with no preset
	}
	if !f.Changed("tokenizer") {
		tok, note := m.Tokenizer, ""
		if !m.Exact() {
			note = "its tokenizer is not built into harpe, so its tokens are estimated"
			if repo := m.HFRepo(); repo != "" {
				if _, err := hf.Find(repo); err == nil {
					tok, note = "hf:"+repo, ""
				} else {
					note = "its tokens are estimated: " + err.Error()
				}
			}
		}
		if err := f.Set("tokenizer", tok); err != nil {
			return usageErrorf("--model: %v", err)
		}
		// A configuration's tokenizer.json is read now, when a command
		// counts with it, and its error names the model.
		if hf.IsName(tok) {
			if _, err := tokenize.New(tok); err != nil {
				return usageErrorf("--model %s: tokenizer: %v", m.Name, err)
			}
		}
		if note != "" {
			fmt.Fprintf(a.io.Err, "harpe: note: %s: %s\n", m.Name, note)
		}
	}
	return nil
}
