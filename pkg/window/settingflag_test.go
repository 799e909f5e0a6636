package window_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/harpe-dev/harpe/pkg/window"
)

// everySettings has a setting of each kind; N carries a flag.
type everySettings struct {
	N int      `setting:"n" flag:"every-n" usage:"a number" doc:"a number"`
	P *int     `setting:"p" doc:"a pointer"`
	B bool     `setting:"b" doc:"a switch"`
	S string   `setting:"s" doc:"a word"`
	L []string `setting:"l" doc:"names"`
}

// every is the strategy of its settings, never replayed here.
type every struct{ everySettings }

func (every) Name() string        { return "every" }
func (every) Baseline() bool      { return false }
func (every) Start() window.State { return nil }

func init() {
	window.Register("every", func(window.Options) everySettings { return everySettings{N: 2, S: "w"} },
		func(s everySettings, _ window.Options) (window.Strategy, error) { return every{s}, nil })
}

// A registered strategy's settings with no field in Options take their
// defaults from Options.Defaults (by "name:key", as SetDefault fills
// it), before the spec's; the defaults of from stand otherwise.
func TestOptionsDefaults(t *testing.T) {
	settings, _ := window.Settings("every")
	if settings[0].Flag != "every-n" || settings[0].Usage != "a number" || settings[0].Default != "2" {
		t.Fatalf("Settings(every)[0] = %+v", settings[0])
	}
	three := 3
	tests := []struct {
		name     string
		defaults map[string]any
		spec     string
		want     everySettings
	}{
		{"none", nil, "every", everySettings{N: 2, S: "w"}},
		{"int", map[string]any{"every:n": 7}, "every", everySettings{N: 7, S: "w"}},
		{"zero", map[string]any{"every:n": 0}, "every", everySettings{N: 0, S: "w"}},
		{"pointer", map[string]any{"every:p": 3}, "every", everySettings{N: 2, P: &three, S: "w"}},
		{"the rest", map[string]any{"every:b": true, "every:s": "x", "every:l": []string{"a", "b"}}, "every",
			everySettings{N: 2, B: true, S: "x", L: []string{"a", "b"}}},
		{"spec wins", map[string]any{"every:n": 7, "every:s": "x"}, "every:n=9", everySettings{N: 9, S: "x"}},
	}
	for _, tt := range tests {
		s, err := window.Parse(tt.spec, window.Options{Defaults: tt.defaults})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if e, ok := s.(window.Edited); ok {
			s = e.Base // labelled with its spec
		}
		if got := s.(every).everySettings; !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: settings %+v, want %+v", tt.name, got, tt.want)
		}
	}

	var o window.Options
	if err := o.SetDefault("every", settings[0], 5); err != nil || o.Defaults["every:n"] != 5 {
		t.Errorf("SetDefault(every:n, 5): %v, Defaults %v", err, o.Defaults)
	}
	windowed, _ := window.Settings("windowed")
	if err := o.SetDefault("windowed", windowed[0], 40); err != nil || o.Windowed.Chars == nil || *o.Windowed.Chars != 40 || len(o.Defaults) != 1 {
		t.Errorf("SetDefault(windowed:chars, 40): %v, Windowed %+v, Defaults %v", err, o.Windowed, o.Defaults)
	}
	clear, _ := window.Settings("clear")
	if err := o.SetDefault("clear", clear[3], []string{"Read"}); err != nil || !reflect.DeepEqual(o.Clear.ExcludeTools, []string{"Read"}) {
		t.Errorf("SetDefault(clear:exclude, [Read]): %v, Clear %+v", err, o.Clear)
	}
	if err := o.SetDefault("windowed", windowed[0], "40"); err == nil || err.Error() != "Windowed.Chars: want a value of type *int, got string" {
		t.Errorf("SetDefault(windowed:chars, \"40\") = %v", err)
	}
}

// ReplayOptions.Check refuses a default out of range, of another type or
// of no registered strategy, naming it "name:key" as a SettingError
// (after the fields of Options, all in range here).
func TestCheckDefaults(t *testing.T) {
	tests := []struct {
		defaults map[string]any
		want     string
	}{
		{map[string]any{"every:n": -1}, "every:n: must be a whole number ≥ 0, got -1"},
		{map[string]any{"every:p": -2}, "every:p: must be a whole number ≥ 0, got -2"},
		{map[string]any{"every:n": "7"}, "every:n: want a value of type int, got string"},
		{map[string]any{"every:l": "a/b"}, "every:l: want a value of type []string, got string"},
		{map[string]any{"every:b": 1}, "every:b: want a value of type bool, got int"},
		{map[string]any{"every:x": 1, "every:n": 1}, "every:x: no registered strategy has this setting"},
		{map[string]any{"clear:keep": 1}, "clear:keep: no registered strategy has this setting"},
	}
	for _, tt := range tests {
		o := window.ReplayOptions{Options: window.Options{Defaults: tt.defaults}}
		err := o.Check()
		var se *window.SettingError
		if !errors.As(err, &se) || err.Error() != tt.want {
			t.Errorf("Check(%v) = %v, want %q", tt.defaults, err, tt.want)
		}
		if _, err := window.ParseAll([]string{"every"}, o); err == nil || err.Error() != tt.want {
			t.Errorf("ParseAll(%v) = %v, want %q", tt.defaults, err, tt.want)
		}
	}
}
