package window_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// The settings of every built-in strategy and edit, as the registry
// lists them: key, kind, default, the option that gives it and the flag
// a front end gives it (the defaults are the documented ones,
// docs/replay.md: 160000 characters, head 1, high water 120000 tokens,
// low water 160000 characters, summaries of 8000, Claude Code's 20000 +
// 13000 below its window, Codex at 90% keeping 20000 tokens of user
// messages, cheapest keeping the newest result; clear at 100000 tokens
// keeping 3, mask keeping 10; the flags those of harpe replay).
func TestSettings(t *testing.T) {
	tests := []struct {
		name string
		want string // key/kind/default/option/flag, space-separated
	}{
		{"full", ""},
		{"turn", ""},
		{"windowed", "chars/int/160000/Windowed.Chars/window-chars"},
		{"sliding", "head/int/1/Sliding.Head/head chars/int/160000/Sliding.Chars/window-chars"},
		{"summarizing", "high/int/120000/Summarizing.HighWaterTokens/high-water-tokens low/int/160000/Summarizing.LowWaterChars/low-water-chars " +
			"max/int/8000/Summarizing.SummaryMaxChars/summary-max-chars ///Summarizing.Distill/"},
		{"budget", "tokens/int//Budget.Total/ ///Engine.Policy/"},
		{"cheapest", "keep/int/1// exclude/list/// inputs/bool/false// limit/int/0//"},
		{"claude-code", "window/int/0// reserve/int/20000// buffer/int/13000// percent/int/0// " +
			"max/int/8000/Summarizing.SummaryMaxChars/summary-max-chars ///Summarizing.Distill/"},
		{"codex", "window/int/0// percent/int/90// limit/int/0// user/int/20000// " +
			"max/int/8000/Summarizing.SummaryMaxChars/summary-max-chars ///Summarizing.Distill/"},
		{"clear", "trigger/int/100000/Clear.Trigger/clear-trigger keep/int/3/Clear.Keep/clear-keep " +
			"at-least/int/0/Clear.ClearAtLeast/clear-at-least exclude/list//Clear.ExcludeTools/clear-exclude " +
			"inputs/bool/false/Clear.ClearInputs/clear-inputs"},
		{"mask", "keep/int/10/Mask.Keep/mask-keep"},
	}
	for _, tt := range tests {
		settings, ok := window.Settings(tt.name)
		if !ok {
			t.Errorf("Settings(%q): not registered", tt.name)
			continue
		}
		var got []string
		for _, s := range settings {
			if s.Key != "" && s.Doc == "" {
				t.Errorf("%s: setting %q has no doc", tt.name, s.Key)
			}
			if s.Edit != (tt.name == "clear" || tt.name == "mask") {
				t.Errorf("%s: setting %q: Edit is %v", tt.name, s.Key, s.Edit)
			}
			got = append(got, fmt.Sprintf("%s/%s/%s/%s/%s", s.Key, s.Kind, s.Default, s.Option, s.Flag))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("Settings(%q) = %q, want %q", tt.name, g, tt.want)
		}
	}
	for _, name := range []string{"limit", "micro", "nope"} {
		if _, ok := window.Settings(name); ok {
			t.Errorf("Settings(%q): registered", name)
		}
	}
}

// Register refuses what Parse could never reach, and settings it cannot
// set, at once.
func TestRegisterPanics(t *testing.T) {
	type bad struct {
		F float64 `setting:"f"`
	}
	type ok struct {
		N int `setting:"n"`
	}
	build := func(ok, window.Options) (window.Strategy, error) { return window.Full, nil }
	tests := []struct {
		name     string
		register func()
	}{
		{"duplicate", func() { window.Register("windowed", func(window.Options) ok { return ok{} }, build) }},
		{"empty", func() { window.Register("", func(window.Options) ok { return ok{} }, build) }},
		{"colon", func() { window.Register("a:b", func(window.Options) ok { return ok{} }, build) }},
		{"plus", func() { window.Register("a+b", func(window.Options) ok { return ok{} }, build) }},
		{"edit", func() { window.Register("mask", func(window.Options) ok { return ok{} }, build) }},
		{"not a struct", func() {
			window.Register("n", func(window.Options) int { return 0 }, func(int, window.Options) (window.Strategy, error) { return nil, nil })
		}},
		{"flag on an option alone", func() {
			type optionFlag struct {
				D summary.Distiller `option:"Summarizing.Distill" flag:"d"`
			}
			window.Register("o", func(window.Options) optionFlag { return optionFlag{} }, func(optionFlag, window.Options) (window.Strategy, error) { return nil, nil })
		}},
		{"float setting", func() {
			window.Register("f", func(window.Options) bad { return bad{} }, func(bad, window.Options) (window.Strategy, error) { return nil, nil })
		}},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tt.name)
				}
			}()
			tt.register()
		}()
	}
}

// A spec's settings are read whole numbers first, each kind in field
// order, so the first error is the one harpe always gave: cheapest's
// limit before its inputs, though inputs comes first in its settings.
func TestParseSettingOrder(t *testing.T) {
	tests := []struct{ spec, want string }{
		{"cheapest:inputs=maybe:limit=x", "cheapest: limit=x: want a whole number ≥ 0"},
		{"cheapest:inputs=maybe", "cheapest: inputs=maybe: want true or false"},
		{"sliding:chars=x:head=y", "sliding: head=y: want a whole number ≥ 0"},
		{"codex:user=y:percent=x", "codex: percent=x: want a whole number ≥ 0"},
		{"claude-code:percent=101", "claude-code: percent=101: want at most 100"},
		{"windowed:chars=1:x=2", `windowed: unknown setting "x"; valid: chars`},
		{"turn:a=b", `turn: unknown setting "a"; this one takes none`},
	}
	for _, tt := range tests {
		_, err := window.Parse(tt.spec, window.Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v, want %q", tt.spec, err, tt.want)
		}
	}
}
