package config

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	const doc = `Budget: 500
replay:
  Strategy: clear
  clear-exclude: [Read, grep]
  prices: {In: 3, out: 15}
replay.head: 4
empty:
format: ~
models:
  My-Model: {context_window: 1000}
`
	f, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key  string
		want string // fmt.Sprint of the value; "<nil>" when unset
	}{
		{"budget", "500"},
		{"BUDGET", "500"},
		{"replay.strategy", "clear"},
		// List elements keep their case; map keys are lowercased.
		{"replay.clear-exclude", "[Read grep]"},
		{"replay.prices", "map[in:3 out:15]"},
		// A dotted key at the top level is found as a path.
		{"replay.head", "4"},
		{"replay.budget", "<nil>"},
		// Null values are unset.
		{"empty", "<nil>"},
		{"format", "<nil>"},
		{"models", "map[my-model:map[context_window:1000]]"},
		{"nothing", "<nil>"},
		{"budget.x", "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			if got := fmt.Sprint(f.Get(tt.key)); got != tt.want {
				t.Errorf("Get(%q) = %s, want %s", tt.key, got, tt.want)
			}
			if got, want := f.IsSet(tt.key), tt.want != "<nil>"; got != want {
				t.Errorf("IsSet(%q) = %v, want %v", tt.key, got, want)
			}
		})
	}
	// Lines counted by hand in doc above.
	for key, line := range map[string]int{"budget": 1, "replay": 2, "replay.strategy": 3, "replay.prices": 5, "replay.head": 6, "format": 8, "models": 9} {
		if f.Lines[key] != line {
			t.Errorf("Lines[%q] = %d, want %d", key, f.Lines[key], line)
		}
	}
	if _, ok := f.Lines["models.my-model"]; !ok {
		t.Errorf("Lines lacks models.my-model: %v", f.Lines)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
		alias           int // the line of the alias, for an *AliasError
	}{
		{"not a mapping", "- a\n- b\n", "cannot unmarshal !!seq", 0},
		{"syntax", "a: b: c\n", "mapping values are not allowed", 0},
		{"anchor", "a: &x big\nb: *x\n", "", 1},
		{"anchor in a list", "a: 1\nb:\n  - &y 2\n  - *y\n", "", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			if err == nil {
				t.Fatal("no error")
			}
			var ae *AliasError
			if tt.alias > 0 {
				if !errors.As(err, &ae) || ae.Line != tt.alias {
					t.Fatalf("err = %v, want an alias on line %d", err, tt.alias)
				}
				return
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// An alias bomb (a large value repeated by alias) is refused before it is
// expanded: 200 aliases of a 1 MiB value would otherwise decode to 200 MiB.
func TestAliasBombRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("conversation: &b \"" + strings.Repeat("x", 1<<20) + "\"\nclear-exclude:\n")
	for range 200 {
		b.WriteString("  - *b\n")
	}
	_, err := Parse([]byte(b.String()))
	var ae *AliasError
	if !errors.As(err, &ae) || ae.Line != 1 {
		t.Fatalf("err = %v, want an alias error on line 1", err)
	}
}

func TestEmpty(t *testing.T) {
	for _, doc := range []string{"", "\n", "# only a comment\n", "null\n", "---\n"} {
		f, err := Parse([]byte(doc))
		if err != nil || f.IsSet("budget") {
			t.Errorf("Parse(%q) = %v, %v; want an empty file", doc, f, err)
		}
	}
}

func ExampleFile_Get() {
	f, _ := Parse([]byte("replay:\n  Budget: 5000\n"))
	fmt.Println(f.Get("replay.budget"), f.Lines["replay.budget"])
	// Output: 5000 2
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"a: 1\n", "replay:\n  budget: 2\n", "a: &x 1\nb: *x\n", "- 1\n", "a: {b: [c, {d: e}]}\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		cf, err := Parse([]byte(s))
		if err != nil {
			return
		}
		for k := range cf.Lines {
			_ = cf.Get(k)
		}
	})
}

// TestParseFile: the file's path begins every error, with the line of an
// alias, and Where names a key's line, or the file alone for a key it
// does not hold.
func TestParseFile(t *testing.T) {
	_, err := ParseFile("h.yaml", []byte("a: &x 1\nb: *x\n"))
	if err == nil || err.Error() != "h.yaml:1: YAML anchors and aliases are not allowed in a configuration file" {
		t.Errorf("alias: got %v", err)
	}
	if _, err := ParseFile("h.yaml", []byte("a: [1, 2\n")); err == nil || !strings.HasPrefix(err.Error(), "h.yaml: ") {
		t.Errorf("syntax: got %v, want it to begin with the file", err)
	}
	f, err := ParseFile("h.yaml", []byte("replay:\n  Budget: 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Where("replay.budget"); got != "h.yaml:2" {
		t.Errorf("Where(replay.budget) = %q, want h.yaml:2", got)
	}
	if got := f.Where("policy"); got != "h.yaml" {
		t.Errorf("Where(policy) = %q, want h.yaml", got)
	}
	u := Unknown{Key: "budgt", Line: 4, Closest: "budget"}
	if got, want := u.Message("h.yaml"), `h.yaml:4: unknown key "budgt" (did you mean "budget"?); ignored`; got != want {
		t.Errorf("Message = %q, want %q", got, want)
	}
}
