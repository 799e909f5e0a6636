package suggest

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"budget", "budget", 0},
		{"budgte", "budget", 1}, // one swap
		{"bugdet", "budget", 1},
		{"budet", "budget", 1},
		{"budgett", "budget", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestNearest(t *testing.T) {
	names := []string{"budget", "totals", "format", "output", "policy", "tokenizer", "cap"}
	tests := []struct{ name, in, want string }{
		{"a swap", "budgte", "budget"},
		// 7 letters: a third is 2 edits; "polciyy" is 2 from policy (a
		// swap, a y too many).
		{"two edits in a long name", "polciyy", "policy"},
		// "totl" is 2 from totals, over a third of 4 (1), but its letters
		// are in order in totals.
		{"letters in order", "totl", "totals"},
		{"a prefix", "tok", "tokenizer"},
		{"a short name, too far", "xy", ""},
		{"too far", "frobnicate", ""},
		{"nothing to choose from", "budget", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list := names
			if tt.name == "nothing to choose from" {
				list = nil
			}
			if got := Nearest(tt.in, list); got != tt.want {
				t.Errorf("Nearest(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestComplete(t *testing.T) {
	values := []string{"estimate", "o200k_base\texact", "cl100k_base"}
	tests := []struct {
		name, typed string
		list        bool
		want        []string
	}{
		{"by prefix", "o2", false, []string{"o200k_base\texact"}},
		{"all", "", false, values},
		{"after a comma, the given left out", "estimate,", true, []string{"estimate,o200k_base\texact", "estimate,cl100k_base"}},
		{"a comma in a plain value is typed text", "estimate,", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Complete(values, tt.typed, tt.list)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("Complete(%q, %v) = %q, want %q", tt.typed, tt.list, got, tt.want)
			}
		})
	}
}

func TestValueProblem(t *testing.T) {
	_, rangeErr := strconv.Atoi("99999999999999999999")
	_, syntaxErr := strconv.Atoi("abc")
	tests := []struct {
		typ, s string
		cause  error
		want   string
	}{
		{"int", "abc", syntaxErr, `"abc" is not a whole number`},
		{"int", "99999999999999999999", rangeErr, `"99999999999999999999" is too large`},
		{"float64", "x", syntaxErr, `"x" is not a number`},
		{"bool", "maybe", syntaxErr, `"maybe" is not true or false`},
		{"duration", "5", errors.New("missing unit"), `"5" is not a duration (such as 30s or 2m)`},
		{"string", "v", errors.New("no such value"), `"v": no such value`},
	}
	for _, tt := range tests {
		if got := ValueProblem(tt.typ, tt.s, tt.cause); got != tt.want {
			t.Errorf("ValueProblem(%q, %q) = %q, want %q", tt.typ, tt.s, got, tt.want)
		}
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"unknown command \"synhtesize\" for \"harpe\"\n\nDid you mean this?\n\tsynthesize\n", `unknown command "synhtesize" for "harpe"; did you mean synthesize?`, true},
		{"unknown command \"x\" for \"harpe\"\n\nDid you mean this?\n\tfit\n\tfix\n", `unknown command "x" for "harpe"; did you mean fit or fix?`, true},
		{"unknown command \"zzz\" for \"harpe\"\nRun 'harpe --help' for usage.", `unknown command "zzz" for "harpe"`, true},
		{"some other error", "some other error", false},
	}
	for _, tt := range tests {
		if got, ok := Command(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("Command(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
