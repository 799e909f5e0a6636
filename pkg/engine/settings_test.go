package engine

import (
	"errors"
	"testing"
)

// TestSettingsCheck checks that each setting out of range is a
// *SettingError naming its field, with the message worked out by hand.
func TestSettingsCheck(t *testing.T) {
	alpha, sinks := 1.5, -1
	cases := []struct {
		name    string
		edit    func(*Settings)
		setting string
		msg     string
	}{
		{"total", func(s *Settings) { s.Total = -1 }, "Total", "must be ≥ 0, got -1"},
		{"reserve output", func(s *Settings) { s.ReserveOutput = -2 }, "ReserveOutput", "must be ≥ 0, got -2"},
		{"reserve tools", func(s *Settings) { s.ReserveTools = -3 }, "ReserveTools", "must be ≥ 0, got -3"},
		{"default priority", func(s *Settings) { s.DefaultPriority = -4 }, "DefaultPriority", "must be ≥ 0, got -4"},
		{"safety margin", func(s *Settings) { s.SafetyMargin = "-5%" }, "SafetyMargin", `want a whole percentage such as 5%, got "-5%"`},
		{"reserves over total", func(s *Settings) { s.ReserveOutput, s.ReserveTools, s.SafetyMargin = 60, 30, "20%" }, "Budget",
			"reserves (60 output + 30 tools + 20 safety margin = 110) exceed the budget of 100"},
		{"policy", func(s *Settings) { s.Options.Policy = "foo" }, "Policy", `unknown policy "foo"; valid: lowest_priority, recency, input_order, relevance, knapsack, duo_attention`},
		{"destination", func(s *Settings) { s.Options.Destination = "mars" }, "Destination", `unknown destination "mars"; valid: remote, local`},
		{"dp cells zero", func(s *Settings) { s.Options.DPCells = 0 }, "DPCells", "must be ≥ 1, got 0"},
		{"dp cells too many", func(s *Settings) { s.Options.DPCells = MaxDPCells + 1 }, "DPCells",
			"67108865 cells would let the exact table take up to 768 MiB of memory; the most is 67108864 (768 MiB)"},
		{"alpha", func(s *Settings) { s.Options.Alpha = &alpha }, "Alpha", "must be from 0 to 1, got 1.5"},
		{"sinks", func(s *Settings) { s.Options.Sinks = &sinks }, "Sinks", "must be ≥ 0, got -1"},
		{"half-life zero", func(s *Settings) { s.Options.HalfLife = 0 }, "HalfLife", "must be > 0, got 0"},
		{"cap", func(s *Settings) { s.Caps = []string{"retrieval"} }, "Caps", `want DIMENSION=N or DIMENSION=N%, got "retrieval"`},
		{"cap twice", func(s *Settings) { s.Caps = []string{"a=1", " a=2%"} }, "Caps", `dimension "a" capped twice`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := DefaultSettings()
			s.Total = 100
			c.edit(&s)
			_, _, err := s.Check()
			var se *SettingError
			if !errors.As(err, &se) {
				t.Fatalf("err = %v (%T), want a *SettingError", err, err)
			}
			// Other tests register policies of their own, listed after
			// the built-in ones: the policy message is checked up to them.
			got := se.Err.Error()
			if c.setting == "Policy" {
				got = got[:min(len(got), len(c.msg))]
			}
			if se.Setting != c.setting || got != c.msg {
				t.Errorf("got %q: %q, want %q: %q", se.Setting, se.Err, c.setting, c.msg)
			}
		})
	}
}

// TestSettingsCheckResult checks the budget and options a valid Settings
// makes: a 5% margin of 2000 is 100, and the caps are parsed.
func TestSettingsCheckResult(t *testing.T) {
	s := DefaultSettings()
	s.Total, s.ReserveOutput, s.SafetyMargin, s.Caps = 2000, 200, "5%", []string{"retrieval=40%"}
	b, o, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if want := (Budget{Total: 2000, ReserveOutput: 200, SafetyMargin: 100}); b != want {
		t.Errorf("budget = %+v, want %+v", b, want)
	}
	if len(o.Caps) != 1 || o.Caps[0] != (Cap{Dimension: "retrieval", Limit: Amount{N: 40, Percent: true}}) {
		t.Errorf("caps = %+v", o.Caps)
	}
	if o.Policy != DefaultPolicy || o.Destination != DestinationRemote || o.DPCells != DefaultDPCells || o.HalfLife != DefaultHalfLife {
		t.Errorf("options = %+v, want the defaults", o)
	}
}
