package config

import (
	"strings"
	"testing"
)

func TestParseConfigBool(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"yes", "true", true}, {"YES", "true", true}, {"y", "true", true}, {"on", "true", true},
		{"true", "true", true}, {"True", "true", true}, {"1", "true", true}, {" t ", "true", true},
		{"no", "false", true}, {"n", "false", true}, {"off", "false", true}, {"Off", "false", true},
		{"false", "false", true}, {"0", "false", true}, {"f", "false", true},
		{"maybe", "", false}, {"", "", false}, {"2", "", false}, {"yess", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := ParseBool(tt.in)
			if got != tt.want || ok != tt.ok {
				t.Errorf("ParseBool(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestClosestConfigKey(t *testing.T) {
	known := map[string]bool{"policy": true, "budget": true, "format": true, "output": true, "tokenizer": true, "cap": true}
	tests := []struct {
		name, in, want string
	}{
		{"one letter dropped", "polcy", "policy"},
		{"two swapped", "budgte", "budget"},
		{"one letter changed", "formet", "format"},
		{"too far", "frobnicate", ""},
		// "cpa" is one swap from "cap" (the same distance flags and model
		// names use); "cxq" is 2 edits from "cap", and 2 of 3 letters is
		// not a typo.
		{"short word, swapped", "cpa", "cap"},
		{"short word, too many edits", "cxq", ""},
		{"exact", "output", "output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := closest(tt.in, known); got != tt.want {
				t.Errorf("closest(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestElideQuoted(t *testing.T) {
	long := strings.Repeat("ab", 100) // 200 bytes
	tests := []struct{ name, in, want string }{
		{"short message", `--budget: "x"`, `--budget: "x"`},
		// 64 bytes kept: "ab" 32 times.
		{"long value", `unknown strategy "` + long + `"; valid: full`, `unknown strategy "` + strings.Repeat("ab", 32) + `…" (200 bytes); valid: full`},
		{"two values", `"` + long + `" and "` + long + `"`, `"` + strings.Repeat("ab", 32) + `…" (200 bytes) and "` + strings.Repeat("ab", 32) + `…" (200 bytes)`},
		// 63 x then "é" (2 bytes) then 200: 265 bytes; the cut at 64 would split é, so 63 stay.
		{"whole characters", `"` + strings.Repeat("x", 63) + "é" + long + `"`, `"` + strings.Repeat("x", 63) + `…" (265 bytes)`},
		// An escape \" at bytes 60-61 is not split nor taken as the end.
		{"escapes", `"` + strings.Repeat("x", 60) + `\"` + long + `"`, `"` + strings.Repeat("x", 60) + `…" (262 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Elide(tt.in); got != tt.want {
				t.Errorf("Elide = %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestUnknown(t *testing.T) {
	f, err := Parse([]byte("polcy: x\nbudget: 1\nsynthesize:\n  budgte: 2\n  max_tokens: 3\nnosuch:\n  a: 1\nmodels:\n  m: {}\nsynthesise: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	s := Schema{
		Sections: map[string]map[string]bool{"synthesize": {"budget": true, "max-tokens": true}},
		Top:      map[string]bool{"budget": true, "policy": true, "max-tokens": true, "synthesize": true},
		FreeForm: map[string]bool{"models": true},
	}
	// polcy: one edit from policy. synthesize.budgte: two from budget.
	// max_tokens is max-tokens. nosuch is reported, its key a is not.
	// models holds entries of its own. synthesise: one edit from the
	// section's name.
	want := []Unknown{
		{"polcy", 1, "policy"},
		{"synthesize.budgte", 4, "synthesize.budget"},
		{"nosuch", 6, ""},
		{"synthesise", 10, "synthesize"},
	}
	got := f.Unknown(s)
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, got[i], want[i])
		}
	}
}
