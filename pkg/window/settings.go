package window

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// Defaults of the windowed, sliding and summarizing strategies, as
// [DefaultOptions] sets them: what a nil setting of [WindowedSettings],
// [SlidingSettings] or [SummarizingSettings] takes. [Settings] lists
// them (the CLI's flags take their defaults from it).
const (
	defaultWindowChars     = 160000
	defaultHead            = 1
	defaultHighWaterTokens = 120000
	defaultLowWaterChars   = 160000
	defaultSummaryMaxChars = 8000
)

// WindowedSettings are the settings of the windowed strategy that a spec
// does not write (windowed:chars=N wins over Chars).
type WindowedSettings struct {
	// Chars is the character budget: nil is 160000 (the default
	// [Settings] lists); 0 keeps only the active turn.
	Chars *int
}

// resolve returns the windowed strategy of s, its default filled in.
func (s WindowedSettings) resolve() windowedStrategy {
	return windowedStrategy{Chars: orDefault(s.Chars, defaultWindowChars)}
}

// SlidingSettings are the settings of the sliding strategy that a spec
// does not write (sliding:head=N,chars=N win over them).
type SlidingSettings struct {
	// Head is the number of first turns always kept: nil is 1; 0 keeps
	// none.
	Head *int
	// Chars is the character budget of the newest turns: nil is
	// 160000; 0 keeps only the active turn (and the head).
	Chars *int
}

// resolve returns the sliding strategy of s, its defaults filled in.
func (s SlidingSettings) resolve() slidingStrategy {
	return slidingStrategy{Head: orDefault(s.Head, defaultHead), Chars: orDefault(s.Chars, defaultWindowChars)}
}

// SummarizingSettings are the settings of the summarizing strategy that
// a spec does not write (summarizing:high=N,low=N,max=N win over them).
type SummarizingSettings struct {
	// HighWaterTokens is the observed input-token count above which
	// summarizing compacts before the next call: nil is 120000; 0
	// compacts before every call that has something to fold.
	HighWaterTokens *int
	// LowWaterChars is how many characters of recent whole turns (the
	// active turn included) are kept verbatim at a compaction: nil is
	// 160000; 0 keeps only the active turn.
	LowWaterChars *int
	// SummaryMaxChars bounds the rolling summary, a longer distillation
	// cut to it: nil is 8000.
	SummaryMaxChars *int
	// Distill writes the new rolling summary; nil uses [summary.Extractive].
	Distill summary.Distiller
}

// resolve returns the summarizing strategy of s, its defaults filled in.
func (s SummarizingSettings) resolve() summarizingStrategy {
	return summarizingStrategy{
		HighWaterTokens: orDefault(s.HighWaterTokens, defaultHighWaterTokens),
		LowWaterChars:   orDefault(s.LowWaterChars, defaultLowWaterChars),
		SummaryMaxChars: orDefault(s.SummaryMaxChars, defaultSummaryMaxChars),
		Distill:         s.Distill,
	}
}

// orDefault is *v, or d when v is nil.
func orDefault(v *int, d int) int {
	if v == nil {
		return d
	}
	return *v
}

// SetDefault sets in o the default of setting s of the registered
// strategy or edit name, as [Settings] lists it, for every spec that does
// not write it: in the field of o that s.Option names ("Windowed.Chars"),
// else in o.Defaults under "name:key". value is of the setting's kind: an
// int, bool, string or []string. A front end that gives a flag to each
// setting whose [Setting.Flag] is set passes the flag's value here,
// whatever the strategy.
func (o *Options) SetDefault(name string, s Setting, value any) error {
	if s.Key == "" {
		return fmt.Errorf("%s: setting with no key", name)
	}
	if s.Option == "" {
		if s.Edit {
			return fmt.Errorf("%s:%s: an edit's setting names its option", name, s.Key)
		}
		if o.Defaults == nil {
			o.Defaults = map[string]any{}
		}
		o.Defaults[name+":"+s.Key] = value
		return nil
	}
	v := reflect.ValueOf(o).Elem()
	for _, f := range strings.Split(s.Option, ".") {
		if v.Kind() != reflect.Struct {
			return fmt.Errorf("%s:%s: no option %s", name, s.Key, s.Option)
		}
		if v = v.FieldByName(f); !v.IsValid() {
			return fmt.Errorf("%s:%s: no option %s", name, s.Key, s.Option)
		}
	}
	if err := assignSetting(v, value); err != nil {
		return fmt.Errorf("%s: %w", s.Option, err)
	}
	return nil
}

// assignSetting sets field v to value: a *int field to a copy of an int,
// any other to a value of its own type.
func assignSetting(v reflect.Value, value any) error {
	x := reflect.ValueOf(value)
	switch {
	case !x.IsValid():
		return fmt.Errorf("want a value of type %s, got nil", v.Type())
	case v.Kind() == reflect.Pointer && x.Type() == v.Type().Elem():
		p := reflect.New(x.Type())
		p.Elem().Set(x)
		v.Set(p)
	case x.Type().AssignableTo(v.Type()):
		v.Set(x)
	default:
		return fmt.Errorf("want a value of type %s, got %T", v.Type(), value)
	}
	return nil
}

// setDefaults sets the settings of v, r's settings struct, that defaults
// ([Options.Defaults]) gives, before a spec's.
func (r *registered) setDefaults(v reflect.Value, defaults map[string]any) error {
	for i, s := range r.settings {
		value, ok := defaults[r.name+":"+s.Key]
		if !ok || s.Key == "" {
			continue
		}
		if err := assignSetting(v.Field(r.fields[i]), value); err != nil {
			return fmt.Errorf("%s: %w", s.Key, err)
		}
	}
	return nil
}

// checkDefaults is the range check of o.Defaults, as [ReplayOptions.Check]
// runs it: in registry order, the first value that is not of its
// setting's kind, or a whole number below 0, then the first key (in
// order) that names no registered strategy's setting, as a
// [*SettingError] naming "name:key".
func checkDefaults(defaults map[string]any) error {
	if len(defaults) == 0 {
		return nil
	}
	regMu.Lock()
	var all []*registered
	for _, name := range regOrder {
		all = append(all, registry[name])
	}
	regMu.Unlock()
	known := map[string]bool{}
	for _, r := range all {
		for _, s := range r.settings {
			key := r.name + ":" + s.Key
			value, ok := defaults[key]
			if s.Key == "" || !ok {
				continue
			}
			known[key] = true
			if err := checkDefault(s, value); err != nil {
				return &SettingError{Setting: key, Err: err}
			}
		}
	}
	keys := slices.Sorted(maps.Keys(defaults))
	for _, key := range keys {
		if !known[key] {
			return &SettingError{Setting: key, Err: errors.New("no registered strategy has this setting")}
		}
	}
	return nil
}

// checkDefault checks value, given for setting s.
func checkDefault(s Setting, value any) error {
	var ok bool
	switch s.Kind {
	case "int":
		var n int
		if n, ok = value.(int); ok && n < 0 {
			return fmt.Errorf("must be a whole number ≥ 0, got %d", n)
		}
	case "bool":
		_, ok = value.(bool)
	case "list":
		_, ok = value.([]string)
	default:
		_, ok = value.(string)
	}
	if !ok {
		want := map[string]string{"int": "int", "bool": "bool", "list": "[]string"}[s.Kind]
		return fmt.Errorf("want a value of type %s, got %T", cmp.Or(want, "string"), value)
	}
	return nil
}
