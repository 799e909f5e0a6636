package cmd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/harpe-dev/harpe/pkg/window"
)

// flagUse says which choices of a command (strategies, policies) read a
// flag: a flag given on the command line that none of the chosen ones
// reads is reported once on stderr rather than silently ignored.
type flagUse struct {
	flags []string // flag names, without dashes
	users []string // the choices that read them
	kind  string   // "strategy", "policy": how a choice is named
}

// replayStrategyFlags are the replay flags that set an option some
// strategies read, each with the window.Options fields it sets, in the
// order their notes are written. Which strategies read a flag comes from
// the registry (window.Settings names the option each setting reads), so
// a strategy registered with such a setting is known to read the flag.
var replayStrategyFlags = []struct {
	flag    string
	options []string
}{
	{"high-water-tokens", []string{"Summarizing.HighWaterTokens"}},
	{"low-water-chars", []string{"Summarizing.LowWaterChars"}},
	{"distill-cmd", []string{"Summarizing.Distill"}},
	{"summary-max-chars", []string{"Summarizing.SummaryMaxChars"}},
	{"window-chars", []string{"Windowed.Chars", "Sliding.Chars"}},
	{"head", []string{"Sliding.Head"}},
	{"budget", []string{"Budget.Total"}},
	{"policy", []string{"Engine.Policy"}},
}

// replayFlagUses are the replay flags that only some strategies read,
// with the registered strategies that read each, in registry order.
func replayFlagUses() []flagUse {
	var uses []flagUse
	for _, f := range replayStrategyFlags {
		u := flagUse{flags: []string{f.flag}, kind: "strategy"}
		for _, name := range window.Names() {
			settings, _ := window.Settings(name) // an edit has none
			if slices.ContainsFunc(settings, func(s window.Setting) bool { return slices.Contains(f.options, s.Option) }) {
				u.users = append(u.users, name)
			}
		}
		uses = append(uses, u)
	}
	return uses
}

// synthesizeFlagUses are the synthesize flags that only some policies read.
var synthesizeFlagUses = []flagUse{
	{[]string{"dp-cells"}, []string{"knapsack", "duo_attention"}, "policy"},
	{[]string{"alpha", "sinks", "half-life"}, []string{"duo_attention"}, "policy"},
}

// recordCommandLine remembers which flags of c the command line set,
// before configuration fills in the others.
func (a *app) recordCommandLine(c *cobra.Command) {
	a.cmdLine = map[string]bool{}
	c.Flags().Visit(func(f *pflag.Flag) { a.cmdLine[f.Name] = true })
}

// noteUnusedFlags writes one note on stderr for each flag given on the
// command line that none of the chosen strategies or policies reads.
// Values from HARPE_* or harpe.yaml are not reported: those are meant to
// serve many runs.
func (a *app) noteUnusedFlags(chosen []string, uses []flagUse) {
	chosen = slices.Clone(chosen)
	for i := range chosen {
		chosen[i] = strings.TrimSpace(chosen[i])
	}
	for _, u := range uses {
		if slices.ContainsFunc(u.users, func(s string) bool { return slices.Contains(chosen, s) }) {
			continue
		}
		for _, name := range u.flags {
			if !a.cmdLine[name] {
				continue
			}
			who := "the " + u.users[0] + " " + u.kind + " reads"
			if len(u.users) > 1 {
				n := len(u.users) - 1
				who = "the " + strings.Join(u.users[:n], ", ") + " and " + u.users[n] + " " + strings.TrimSuffix(u.kind, "y") + "ies" + " read"
			}
			fmt.Fprintf(a.io.Err, "harpe: note: --%s is ignored: only %s it, and --%s is %s\n",
				name, who, u.kind, strings.Join(chosen, ","))
		}
	}
}
