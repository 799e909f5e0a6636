package cmd

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/harpe-dev/harpe/pkg/window"
)

// settingFlag is a flag of harpe replay that the registry's settings
// carry (window.Setting.Flag): registered with the kind, default and
// help of the first setting that carries it, its value is the default of
// every setting that carries it (--window-chars: windowed's and
// sliding's chars). So a strategy registered with a flagged setting gets
// its flag, its harpe.yaml key and HARPE_* variable (both follow the
// flags), its range check's message and its note when no chosen strategy
// reads it, with no change here.
type settingFlag struct {
	name, kind, def, usage string
	// usageSet: usage is a setting's Usage, not its Doc.
	usageSet bool
	targets  []settingTarget
	n        int
	b        bool
	s        string
	list     []string
}

// settingTarget is one setting a settingFlag sets: setting of the
// strategy or edit named strategy.
type settingTarget struct {
	strategy string
	setting  window.Setting
}

// registrySettingFlags are the flags the registry's settings carry, in
// registry order (strategies, then edits), each flag once. Settings that
// share a flag must agree on its kind, default and help (written once or
// alike): else it panics, as window.Register does on a bad strategy.
func registrySettingFlags() []*settingFlag {
	var flags []*settingFlag
	byName := map[string]*settingFlag{}
	for _, name := range window.Names() {
		settings, _ := window.Settings(name)
		for _, s := range settings {
			if s.Flag == "" {
				continue
			}
			f := byName[s.Flag]
			if f == nil {
				f = &settingFlag{name: s.Flag, kind: s.Kind, def: s.Default, usage: s.Doc}
				byName[s.Flag] = f
				flags = append(flags, f)
			}
			switch {
			case f.kind != s.Kind || f.def != s.Default:
				panic(fmt.Sprintf("cmd: --%s: %s:%s is a %s of default %q, not a %s of default %q", s.Flag, name, s.Key, s.Kind, s.Default, f.kind, f.def))
			case s.Usage != "" && f.usageSet && s.Usage != f.usage:
				panic(fmt.Sprintf("cmd: --%s: %s:%s has another usage", s.Flag, name, s.Key))
			case s.Usage != "":
				f.usage, f.usageSet = s.Usage, true
			}
			f.targets = append(f.targets, settingTarget{name, s})
		}
	}
	return flags
}

// bindSettingFlags binds the flags of the registry's settings to f, and
// returns them for replayWindowOptions.
func bindSettingFlags(f *pflag.FlagSet) []*settingFlag {
	flags := registrySettingFlags()
	for _, sf := range flags {
		switch sf.kind {
		case "int":
			n, _ := strconv.Atoi(sf.def) // "" (a nil *int) is 0
			f.IntVar(&sf.n, sf.name, n, sf.usage)
		case "bool":
			f.BoolVar(&sf.b, sf.name, sf.def == "true", sf.usage)
		case "list":
			var def []string
			if sf.def != "" {
				def = strings.Split(sf.def, "/")
			}
			f.StringSliceVar(&sf.list, sf.name, def, sf.usage)
		default:
			f.StringVar(&sf.s, sf.name, sf.def, sf.usage)
		}
	}
	return flags
}

// value is the flag's value, of its settings' kind.
func (sf *settingFlag) value() any {
	switch sf.kind {
	case "int":
		return sf.n
	case "bool":
		return sf.b
	case "list":
		return sf.list
	}
	return sf.s
}

// setDefaults gives the flags' values to o, each as the default of every
// setting that carries it.
func setDefaults(o *window.Options, flags []*settingFlag) error {
	for _, sf := range flags {
		for _, t := range sf.targets {
			if err := o.SetDefault(t.strategy, t.setting, sf.value()); err != nil {
				return fmt.Errorf("--%s: %w", sf.name, err)
			}
		}
	}
	return nil
}

// settingFlagOf is the flag of a registered setting, by the name a
// window.SettingError gives it: the option it sets ("Windowed.Chars"),
// or "name:key" for a setting with none.
func settingFlagOf(setting string) (string, bool) {
	for _, sf := range registrySettingFlags() {
		for _, t := range sf.targets {
			if t.setting.Option == setting || t.strategy+":"+t.setting.Key == setting {
				return sf.name, true
			}
		}
	}
	return "", false
}

// windowList is --context-window: one limit, or several separated by
// commas ("100000,150000,200000"), each a whole number ≥ 0.
type windowList struct {
	first *int
	all   *[]int
}

func (w windowList) String() string {
	if w.all == nil || len(*w.all) == 0 {
		return "0"
	}
	parts := make([]string, len(*w.all))
	for i, n := range *w.all {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func (w windowList) Set(s string) error {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return fmt.Errorf("%q is not a whole number of tokens (several: 100000,150000)", strings.TrimSpace(f))
		}
		out = append(out, n)
	}
	*w.all = out
	*w.first = out[0]
	return nil
}

func (windowList) Type() string { return "tokens" }
