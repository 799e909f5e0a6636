package cmd

import (
	"cmp"
	"fmt"
	"maps"
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

// replayOptionFlags are the replay flags that set an option of
// window.Options some strategies read, by the option, other than the
// registry's flagged settings (window.Setting.Flag).
var replayOptionFlags = map[string]string{
	"Summarizing.Distill": "distill-cmd", "Budget.Total": "budget", "Engine.Policy": "policy",
}

// replayFlagUses are the replay flags that only some strategies read,
// with the registered strategies that read each, from the registry: a
// setting reads the flag it carries, or the flag of the option it names
// (a strategy whose setting names Windowed.Chars reads --window-chars).
// The flags come in registry order, each the first time a strategy's
// setting reads it; an edit's flags are not noted.
func replayFlagUses() []flagUse {
	optionFlag := maps.Clone(replayOptionFlags)
	for _, sf := range registrySettingFlags() {
		for _, t := range sf.targets {
			if t.setting.Option != "" {
				optionFlag[t.setting.Option] = sf.name
			}
		}
	}
	var uses []flagUse
	at := map[string]int{}
	for _, name := range window.Names() {
		settings, _ := window.Settings(name)
		for _, s := range settings {
			flag := cmp.Or(s.Flag, optionFlag[s.Option])
			if flag == "" || s.Edit {
				continue
			}
			i, ok := at[flag]
			if !ok {
				i = len(uses)
				at[flag] = i
				uses = append(uses, flagUse{flags: []string{flag}, kind: "strategy"})
			}
			if !slices.Contains(uses[i].users, name) {
				uses[i].users = append(uses[i].users, name)
			}
		}
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
