package engine

import (
	"fmt"
)

// Settings are one synthesis's settings as a front end reads them, before
// they are checked: the budget's figures with the safety margin and the
// caps still as text, the priority of items without one, and the
// [Options]. Unlike in Options, a zero DPCells or HalfLife here is a
// value, refused; start from [DefaultSettings] to have the defaults.
type Settings struct {
	Total, ReserveOutput, ReserveTools int
	// SafetyMargin is "N" or "N%" of Total, as [ParseAmount] reads it.
	SafetyMargin string
	// DefaultPriority is [ReadOptions.DefaultPriority].
	DefaultPriority int
	// Caps are "DIM=N" or "DIM=N%", as [ParseCap] reads them; they
	// replace Options.Caps.
	Caps    []string
	Options Options
}

// DefaultSettings are harpe's defaults: no budget, a safety margin of 0,
// priority 10 for items without one, and the defaults of the policies'
// settings.
func DefaultSettings() Settings {
	return Settings{SafetyMargin: "0", DefaultPriority: 10, Options: Options{
		Policy: DefaultPolicy, Destination: DestinationRemote, DPCells: DefaultDPCells, HalfLife: DefaultHalfLife}}
}

// SettingError is a setting of [Settings] out of range. Setting names the
// field ("Total", "ReserveOutput", "ReserveTools", "DefaultPriority",
// "SafetyMargin", "Caps", or an Options field: "Policy", "Destination",
// "DPCells", "Alpha", "Sinks", "HalfLife") or is "Budget" for the figures
// together; Err says what is wrong with the value. A front end names its
// own flag or field before Err.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string { return e.Setting + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *SettingError) Unwrap() error { return e.Err }

// Check checks s in the order of its fields (the budget's figures, then the
// policy, the destination, the policies' settings and the caps) and
// returns the budget and the options they make. The first setting out of
// range is a [*SettingError].
func (s *Settings) Check() (Budget, Options, error) {
	fail := func(setting string, err error) (Budget, Options, error) {
		return Budget{}, Options{}, &SettingError{Setting: setting, Err: err}
	}
	for _, v := range []struct {
		name string
		n    int
	}{{"Total", s.Total}, {"ReserveOutput", s.ReserveOutput}, {"ReserveTools", s.ReserveTools}, {"DefaultPriority", s.DefaultPriority}} {
		if v.n < 0 {
			return fail(v.name, fmt.Errorf("must be ≥ 0, got %d", v.n))
		}
	}
	margin, err := ParseAmount(s.SafetyMargin)
	if err != nil {
		return fail("SafetyMargin", err)
	}
	b := Budget{Total: s.Total, ReserveOutput: s.ReserveOutput, ReserveTools: s.ReserveTools, SafetyMargin: margin.Of(s.Total)}
	if err := b.Validate(); err != nil {
		return fail("Budget", err)
	}
	o := s.Options
	if _, err := LookupPolicy(o.Policy); err != nil {
		return fail("Policy", err)
	}
	if o.Destination != DestinationRemote && o.Destination != DestinationLocal {
		return fail("Destination", fmt.Errorf("unknown destination %q; valid: remote, local", o.Destination))
	}
	if setting, err := o.checkTuning(); err != nil {
		return fail(setting, err)
	}
	o.Caps = nil
	seen := map[string]bool{}
	for _, text := range s.Caps {
		c, err := ParseCap(text)
		if err != nil {
			return fail("Caps", err)
		}
		if seen[c.Dimension] {
			return fail("Caps", fmt.Errorf("dimension %q capped twice", c.Dimension))
		}
		seen[c.Dimension] = true
		o.Caps = append(o.Caps, c)
	}
	return b, o, nil
}

// checkTuning checks the optimising policies' settings, taking DPCells and
// HalfLife as given (0 refused), and returns the field out of range.
func (o *Options) checkTuning() (string, error) {
	if o.DPCells < 1 {
		return "DPCells", fmt.Errorf("must be ≥ 1, got %d", o.DPCells)
	}
	if err := CheckDPCells(o.DPCells); err != nil {
		return "DPCells", err
	}
	if o.Alpha != nil && !(*o.Alpha >= 0 && *o.Alpha <= 1) {
		return "Alpha", fmt.Errorf("must be from 0 to 1, got %v", *o.Alpha)
	}
	if o.Sinks != nil && *o.Sinks < 0 {
		return "Sinks", fmt.Errorf("must be ≥ 0, got %d", *o.Sinks)
	}
	if !(o.HalfLife > 0) || o.HalfLife > 1e9 {
		return "HalfLife", fmt.Errorf("must be > 0, got %v", o.HalfLife)
	}
	return "", nil
}
