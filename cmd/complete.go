package cmd

import (
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize/hf"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"

	"github.com/harpe-dev/harpe/internal/suggest"
)

// Shell completion of flag values, and the wording of flag mistakes.
//
// Values are registered once for the whole tree (registerCompletions walks
// every command and completes each flag it knows by name), so a command
// file only defines its flags. The lists come from the packages that
// validate the values (window.Strategies, engine.PolicyNames,
// tokenize.Names, transcript.Formats, the model catalog); the few lists
// that live only in a command's validation (--format, --emit, fit's
// --input-format) are written here once and a test checks each against the
// "valid: …" list of the command's own error message.

// formatsOf lists the --format values of each command, by command path
// without the leading "harpe ".
var formatsOf = map[string][]string{
	"synthesize":   {"json", "yaml", "table"},
	"fit":          {"json", "yaml", "table"},
	"count":        {"text", "json", "table"},
	"models":       {"table", "json", "yaml"},
	"dates":        {"text", "json"},
	"dates anchor": {"text", "json"},
	"conflicts":    {"json", "yaml", "table"},
	"transcript":   {"json", "table"},
	"replay":       {"table", "json", "jsonl"},
}

// emitValues are synthesize's --emit values.
var emitValues = []string{"report", "kept", "dropped", "rendered"}

// valueCompleter returns the completions of one flag's value on command c,
// each "value" or "value\tdescription".
type valueCompleter func(a *app, c *cobra.Command) []string

// valueCompleters completes flags by name, on every command that has them.
// A new flag with a fixed set of values gets an entry here (the test in
// complete_test.go picks it up).
var valueCompleters = map[string]valueCompleter{
	"strategy": func(*app, *cobra.Command) []string { return window.Names() },
	"policy":   func(*app, *cobra.Command) []string { return engine.PolicyNames() },
	"tokenizer": func(*app, *cobra.Command) []string {
		return append(tokenize.Names(), hf.CachedNames()...)
	},
	"model": func(a *app, _ *cobra.Command) []string {
		models := prices.Presets()
		if cat, err := a.modelCatalog(); err == nil {
			models = cat.Models()
		}
		out := make([]string, 0, len(models))
		for _, m := range models {
			out = append(out, fmt.Sprintf("%s\t%d tokens, %s", m.Name, m.ContextWindow, m.Tokenizer))
		}
		return out
	},
	"format": func(_ *app, c *cobra.Command) []string { return formatsOf[commandKey(c)] },
	"input-format": func(_ *app, c *cobra.Command) []string {
		if commandKey(c) == "fit" {
			return append([]string{"auto", "items"}, transcript.FormatNames()...)
		}
		return transcript.FormatNames()
	},
	"emit": func(*app, *cobra.Command) []string { return emitValues },
	"destination": func(*app, *cobra.Command) []string {
		return []string{string(engine.DestinationRemote), string(engine.DestinationLocal)}
	},
	"cache":       func(*app, *cobra.Command) []string { return cacheRules },
	"cache-ttl":   func(*app, *cobra.Command) []string { return cacheTTLs },
	"plot-metric": func(*app, *cobra.Command) []string { return plotMetrics },
}

// commandKey is c's path without the root's name: "dates anchor".
func commandKey(c *cobra.Command) string {
	p := c.CommandPath()
	if i := strings.IndexByte(p, ' '); i >= 0 {
		return p[i+1:]
	}
	return ""
}

// registerCompletions registers the value completions of every flag of
// every command under root: the lists above for flags with fixed values,
// no completion at all for numbers (so the shell does not offer file
// names), and file names (the shell's default) for the rest.
func registerCompletions(a *app, root *cobra.Command) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok {
				return
			}
			if vc, ok := valueCompleters[f.Name]; ok {
				list := f.Value.Type() == "stringSlice"
				c.RegisterFlagCompletionFunc(f.Name, func(c *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
					return completeValues(vc(a, c), toComplete, list)
				})
				return
			}
			switch f.Value.Type() {
			case "int", "int64", "uint", "float64", "bool":
				c.RegisterFlagCompletionFunc(f.Name, cobra.NoFileCompletions)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// completeValues filters values by what was typed (see
// suggest.Complete); a list flag's completion is not followed by a space.
func completeValues(values []string, toComplete string, list bool) ([]string, cobra.ShellCompDirective) {
	directive := cobra.ShellCompDirectiveNoFileComp
	if list {
		directive |= cobra.ShellCompDirectiveNoSpace
	}
	return suggest.Complete(values, toComplete, list), directive
}

// plainUsages removes the backquotes that mark a flag's placeholder
// ("read from `FILE`") from every usage string under c, for completion
// descriptions, where pflag's unquoting does not happen. Help is not
// drawn in a completion run, so nothing else sees the change.
func plainUsages(c *cobra.Command) {
	strip := func(f *pflag.Flag) { f.Usage = strings.ReplaceAll(f.Usage, "`", "") }
	c.Flags().VisitAll(strip)
	c.PersistentFlags().VisitAll(strip)
	for _, sub := range c.Commands() {
		plainUsages(sub)
	}
}

// isCompletionRequest reports whether args ask cobra for completions.
func isCompletionRequest(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// flagError rewords a flag parsing mistake on command c without Go
// internals, and suggests the nearest flag name for an unknown one:
// `--budget: "abc" is not a whole number`, `unknown flag --budgte; did you
// mean --budget?`.
func flagError(c *cobra.Command, err error) error {
	var inv *pflag.InvalidValueError
	if errors.As(err, &inv) {
		return fmt.Errorf("--%s: %s", inv.GetFlag().Name, suggest.ValueProblem(inv.GetFlag().Value.Type(), inv.GetValue(), inv.Unwrap()))
	}
	var ne *pflag.NotExistError
	if errors.As(err, &ne) {
		name := ne.GetSpecifiedName()
		if group := ne.GetSpecifiedShortnames(); group != "" {
			if len(group) > 1 {
				return fmt.Errorf("unknown flag -%s (in -%s)", name, group)
			}
			return fmt.Errorf("unknown flag -%s", name)
		}
		if near := nearestFlag(c, name); near != "" {
			return fmt.Errorf("unknown flag --%s; did you mean --%s?", name, near)
		}
		return fmt.Errorf("unknown flag --%s", name)
	}
	var vr *pflag.ValueRequiredError
	if errors.As(err, &vr) {
		return fmt.Errorf("--%s: needs a value", vr.GetFlag().Name)
	}
	return err
}

// nearestFlag returns the visible flag of c (its own or inherited)
// closest to name, when one is close enough to be a slip (see
// suggest.Nearest).
func nearestFlag(c *cobra.Command, name string) string {
	var names []string
	add := func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	}
	c.Flags().VisitAll(add)
	c.InheritedFlags().VisitAll(add)
	return suggest.Nearest(name, names)
}

// commandError puts cobra's unknown-command message on one line (see
// suggest.Command). Other errors pass unchanged.
func commandError(err error) error {
	if msg, ok := suggest.Command(err.Error()); ok {
		return errors.New(msg)
	}
	return err
}
