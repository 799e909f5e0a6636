package window

import (
	"errors"
	"fmt"
	"strings"
)

// SettingError is a setting of [ReplayOptions] out of range, or a
// strategy spec that cannot be built. Setting names the field
// ("Windowed.Chars", "Clear.Trigger", "Budget", "Engine.Policy") or is
// "Strategy" for the spec itself; Err says what is wrong with the value.
// A front end names its own flag or field before Err.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Err.Error() }

// Unwrap returns Err: errors.Is finds [ErrNoLimit].
func (e *SettingError) Unwrap() error { return e.Err }

// Check reports the first setting of o below 0, in the order of the
// fields (the strategies' settings, then the context window and the
// budget, then the edits'), then the first of [Options.Defaults] out of
// range, of another kind or of no registered setting, as a
// [*SettingError].
func (o *ReplayOptions) Check() error { return checkSettings(&o.Options, &o.ContextWindow) }

// checkSettings is [ReplayOptions.Check], of o alone when contextWindow
// is nil: the one range check of the settings ([Options.check] runs it
// for a library user who called neither). A nil setting is its default,
// in range.
func checkSettings(o *Options, contextWindow *int) error {
	fields := []struct {
		name string
		v    *int
	}{
		{"Windowed.Chars", o.Windowed.Chars}, {"Sliding.Head", o.Sliding.Head}, {"Sliding.Chars", o.Sliding.Chars},
		{"Summarizing.HighWaterTokens", o.Summarizing.HighWaterTokens},
		{"Summarizing.LowWaterChars", o.Summarizing.LowWaterChars},
		{"Summarizing.SummaryMaxChars", o.Summarizing.SummaryMaxChars},
		{"ToolResultLimit", &o.ToolResultLimit}, {"ContextWindow", contextWindow},
		{"Budget", &o.Budget.Total},
		{"Clear.Trigger", o.Clear.Trigger}, {"Clear.Keep", o.Clear.Keep}, {"Clear.ClearAtLeast", o.Clear.ClearAtLeast},
		{"Mask.Keep", o.Mask.Keep},
	}
	for _, f := range fields {
		if f.v != nil && *f.v < 0 {
			return &SettingError{Setting: f.name, Err: fmt.Errorf("must be a whole number ≥ 0, got %d", *f.v)}
		}
	}
	return checkDefaults(o.Defaults)
}

// noBudgetError is what [ParseAll] says of a budget strategy given no
// budget: a replay has no selector, so only the budget is missing.
type noBudgetError struct{}

func (noBudgetError) Error() string { return "the budget strategy needs a budget of at least 1 token" }
func (noBudgetError) Unwrap() error { return errNoBudget }

// ParseAll checks o ([ReplayOptions.Check]) and builds the specs with
// [Parse], in order, a spec given twice (after trimming) once. It is the
// one parse of a list of specs, as harpe replay --strategy takes them.
// Its errors are [*SettingError]s: Setting "Budget" for a budget strategy
// given no budget, "Engine.Policy" for an unknown policy (Err a
// [*policyError]), "Strategy" for any other spec that cannot be built,
// or no spec at all.
func ParseAll(specs []string, o ReplayOptions) ([]Strategy, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	var out []Strategy
	seen := map[string]bool{}
	for _, spec := range specs {
		spec = strings.TrimSpace(spec)
		if seen[spec] {
			continue
		}
		seen[spec] = true
		s, err := Parse(spec, o.Options)
		var pe *policyError
		switch {
		case errors.Is(err, errNoBudget):
			return nil, &SettingError{Setting: "Budget", Err: noBudgetError{}}
		case errors.As(err, &pe):
			return nil, &SettingError{Setting: "Engine.Policy", Err: pe}
		case err != nil:
			return nil, &SettingError{Setting: "Strategy", Err: err}
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, &SettingError{Setting: "Strategy", Err: fmt.Errorf("no strategy given; valid: %s", strings.Join(Names(), ", "))}
	}
	return out, nil
}

// Components returns the names of the strategies and edits that
// strategies were written with, in order: windowed:chars=9+clear is
// windowed and clear, an edit alone is the edit (full, and the limit of
// [Options.ToolResultLimit], are implied, not written). A front end tells
// from them which of its settings some strategy reads.
func Components(strategies []Strategy) []string {
	var out []string
	for _, s := range strategies {
		out = append(out, componentsOf(s)...)
	}
	return out
}

func componentsOf(s Strategy) []string {
	switch s := s.(type) {
	case nil:
		return nil
	case withEdits:
		if s.Label == "" {
			names := componentsOf(s.Base)
			for _, e := range s.Edits {
				names = append(names, e.Name())
			}
			return names
		}
	}
	// Parse labels what it built with the spec as written, checked.
	var names []string
	for _, part := range strings.Split(s.Name(), "+") {
		name, _, _ := strings.Cut(strings.TrimSpace(part), ":")
		names = append(names, name)
	}
	return names
}
