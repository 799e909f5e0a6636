package window_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

func TestParseAll(t *testing.T) {
	tests := []struct {
		name    string
		specs   []string
		budget  int
		policy  string
		want    []string // the strategies' names
		setting string   // of the error
		err     string
	}{
		{"built-ins", []string{"full", "windowed", "turn"}, 0, "lowest_priority", []string{"full", "windowed", "turn"}, "", ""},
		{"duplicates once", []string{"mask", " mask", "full+mask"}, 0, "lowest_priority", []string{"mask", "full+mask"}, "", ""},
		{"edits and settings", []string{"windowed:chars=10+clear:keep=1", "summarizing+mask"}, 0, "lowest_priority", []string{"windowed:chars=10+clear:keep=1", "summarizing+mask"}, "", ""},
		{"budget needs a budget", []string{"budget+mask"}, 0, "lowest_priority", nil, "Budget", "the budget strategy needs a budget of at least 1 token"},
		{"budget with tokens=", []string{"budget:tokens=50"}, 0, "lowest_priority", []string{"budget:tokens=50"}, "", ""},
		{"budget checks the policy", []string{"budget"}, 10, "newest", nil, "Engine.Policy", `unknown policy "newest"`},
		{"budget's unknown setting", []string{"budget:foo=1"}, 0, "lowest_priority", nil, "Strategy", `budget: unknown setting "foo"; valid: tokens`},
		{"budget's tokens=0", []string{"budget:tokens=0"}, 0, "lowest_priority", nil, "Strategy", `budget: tokens=0: want at least 1`},
		{"policy unchecked without budget", []string{"full"}, 0, "newest", []string{"full"}, "", ""},
		{"unknown edit", []string{"full+squash"}, 0, "lowest_priority", nil, "Strategy", `full+squash: "squash" is not an edit`},
		{"limit without bytes", []string{"limit"}, 0, "lowest_priority", nil, "Strategy", "limit: needs bytes=N"},
		{"empty spec", []string{" "}, 0, "lowest_priority", nil, "Strategy", "empty strategy"},
		{"empty list", nil, 0, "lowest_priority", nil, "Strategy", "no strategy given; valid: full, windowed"},
		{"negative budget first", []string{"bogus"}, -1, "lowest_priority", nil, "Budget", "must be a whole number ≥ 0, got -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := window.ReplayOptions{Options: window.DefaultOptions()}
			o.Budget.Total, o.Engine.Policy = tt.budget, tt.policy
			got, err := window.ParseAll(tt.specs, o)
			if tt.err != "" {
				var se *window.SettingError
				if !errors.As(err, &se) {
					t.Fatalf("err = %v (%T), want a *SettingError", err, err)
				}
				if se.Setting != tt.setting || !strings.Contains(se.Err.Error(), tt.err) {
					t.Fatalf("err = %s / %q, want %s / %q", se.Setting, se.Err, tt.setting, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range got {
				names = append(names, s.Name())
			}
			if !slices.Equal(names, tt.want) {
				t.Errorf("names = %q, want %q", names, tt.want)
			}
		})
	}
}

// TestParseAllKinds checks that the errors still say what they are to
// errors.Is and errors.As.
func TestParseAllKinds(t *testing.T) {
	o := window.ReplayOptions{Options: window.DefaultOptions()}
	if _, err := window.ParseAll([]string{"budget"}, o); !errors.Is(err, window.ErrNoBudget) {
		t.Errorf("budget without a budget: %v, want ErrNoBudget", err)
	}
	if _, err := window.ParseAll([]string{"limit"}, o); !errors.Is(err, window.ErrNoLimit) {
		t.Errorf("limit without bytes: %v, want ErrNoLimit", err)
	}
	o.Budget.Total, o.Engine.Policy = 5, "nope"
	var pe *window.PolicyError
	if _, err := window.ParseAll([]string{"budget"}, o); !errors.As(err, &pe) {
		t.Errorf("unknown policy: %v, want a *PolicyError", err)
	}
}

// TestReplayOptionsCheck checks that the first setting below 0, in the
// fields' order, is the one named.
func TestReplayOptionsCheck(t *testing.T) {
	tests := []struct {
		name string
		set  func(o *window.ReplayOptions)
		want string // the setting named, "" for none
	}{
		{"defaults", func(*window.ReplayOptions) {}, ""},
		{"zeros", func(o *window.ReplayOptions) { o.Options = window.Options{} }, ""},
		{"windowed chars", func(o *window.ReplayOptions) { o.Windowed.Chars = new(-1) }, "Windowed.Chars"},
		{"windowed before sliding", func(o *window.ReplayOptions) { o.Windowed.Chars, o.Sliding.Head = new(-1), new(-1) }, "Windowed.Chars"},
		{"head", func(o *window.ReplayOptions) { o.Sliding.Head = new(-5) }, "Sliding.Head"},
		{"head before budget", func(o *window.ReplayOptions) { o.Sliding.Head, o.Budget.Total = new(-1), -1 }, "Sliding.Head"},
		{"sliding chars", func(o *window.ReplayOptions) { o.Sliding.Chars = new(-1) }, "Sliding.Chars"},
		{"high water", func(o *window.ReplayOptions) { o.Summarizing.HighWaterTokens = new(-1) }, "Summarizing.HighWaterTokens"},
		{"low water", func(o *window.ReplayOptions) { o.Summarizing.LowWaterChars = new(-1) }, "Summarizing.LowWaterChars"},
		{"summary", func(o *window.ReplayOptions) { o.Summarizing.SummaryMaxChars = new(-1) }, "Summarizing.SummaryMaxChars"},
		{"limit", func(o *window.ReplayOptions) { o.ToolResultLimit = -1 }, "ToolResultLimit"},
		{"context window before budget", func(o *window.ReplayOptions) { o.ContextWindow, o.Budget.Total = -1, -1 }, "ContextWindow"},
		{"budget", func(o *window.ReplayOptions) { o.Budget.Total = -1 }, "Budget"},
		{"clear trigger", func(o *window.ReplayOptions) { o.Clear.Trigger = new(-1) }, "Clear.Trigger"},
		{"clear keep", func(o *window.ReplayOptions) { o.Clear.Keep = new(-1) }, "Clear.Keep"},
		{"clear at least", func(o *window.ReplayOptions) { o.Clear.ClearAtLeast = new(-1) }, "Clear.ClearAtLeast"},
		{"mask keep", func(o *window.ReplayOptions) { o.Mask.Keep = new(-1) }, "Mask.Keep"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := window.ReplayOptions{Options: window.DefaultOptions()}
			tt.set(&o)
			err := o.Check()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Check() = %v, want nil", err)
				}
				return
			}
			var se *window.SettingError
			if !errors.As(err, &se) || se.Setting != tt.want || !strings.HasPrefix(se.Err.Error(), "must be a whole number ≥ 0, got -") {
				t.Fatalf("Check() = %v, want %s: must be a whole number ≥ 0", err, tt.want)
			}
		})
	}
}

func TestComponents(t *testing.T) {
	tests := []struct {
		specs []string
		limit int // Options.ToolResultLimit
		want  []string
	}{
		{[]string{"full"}, 0, []string{"full"}},
		{[]string{"windowed:chars=9+clear"}, 0, []string{"windowed", "clear"}},
		{[]string{"clear", "mask:keep=2"}, 0, []string{"clear", "mask"}},
		{[]string{"summarizing+mask", "sliding:head=1", "budget:tokens=5"}, 0, []string{"summarizing", "mask", "sliding", "budget"}},
		{[]string{"full", "turn"}, 100, []string{"full", "turn"}},
		{[]string{"cheapest", "clear:auto"}, 0, []string{"cheapest", "clear"}},
	}
	for _, tt := range tests {
		o := window.ReplayOptions{Options: window.DefaultOptions()}
		o.ToolResultLimit = tt.limit
		ss, err := window.ParseAll(tt.specs, o)
		if err != nil {
			t.Fatal(err)
		}
		if got := window.Components(ss); !slices.Equal(got, tt.want) {
			t.Errorf("Components(%q) = %q, want %q", tt.specs, got, tt.want)
		}
	}
	// Built by hand, without a label: the parts' own names.
	hand := window.Edited{Base: window.Windowed, Edits: []window.Edit{window.MaskEdit{Keep: 1}}}
	if got := window.Components([]window.Strategy{hand}); !slices.Equal(got, []string{"windowed", "mask"}) {
		t.Errorf("Components(windowed+mask, unlabelled) = %q", got)
	}
}

func ExampleParseAll() {
	o := window.ReplayOptions{Options: window.DefaultOptions()}
	ss, err := window.ParseAll([]string{"full", "windowed:chars=40000+clear", "full"}, o)
	if err != nil {
		panic(err)
	}
	for _, s := range ss {
		fmt.Println(s.Name())
	}
	fmt.Println(window.Components(ss))
	_, err = window.ParseAll([]string{"budget"}, o)
	var se *window.SettingError
	if errors.As(err, &se) {
		fmt.Printf("%s: %v\n", se.Setting, se.Err)
	}
	// Output:
	// full
	// windowed:chars=40000+clear
	// [full windowed clear]
	// Budget: the budget strategy needs a budget of at least 1 token
}

// TestReplayLimits replays docs/replay.md's worked example
// (testdata/replay/worked.jsonl): full sends 3, 10, 20, 27, 27 tokens and
// turn 3, 3, 13, 3, 3, so under a window of 20 full has two calls over
// it (20 is not over) and turn none; under 100 neither has any. Streamed
// (an OnCall), the calls and results come under the same names, one
// strategy under one limit at a time.
func TestReplayLimits(t *testing.T) {
	f, err := os.Open("../../testdata/replay/worked.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "worked.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	o := window.ReplayOptions{Options: window.DefaultOptions()}
	ss, err := window.ParseAll([]string{"full", "turn"}, o)
	if err != nil {
		t.Fatal(err)
	}
	o.Limits = []int{20, 100000}
	want := []struct {
		name string
		over int
	}{{"full@20", 2}, {"full@100k", 0}, {"turn@20", 0}, {"turn@100k", 0}}
	for _, streamed := range []bool{false, true} {
		var calls, results []string
		so := o
		if streamed {
			so.OnCall = func(name string, c *window.Call, _ *window.Event) error {
				if c.Call == 1 {
					calls = append(calls, name)
				}
				return nil
			}
			so.OnResult = func(r *window.Result) error {
				results = append(results, r.Strategy)
				return nil
			}
		}
		res, err := window.Replay(context.Background(), ts[0], ss, so)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != len(want) {
			t.Fatalf("streamed %t: %d results, want %d", streamed, len(res), len(want))
		}
		var names []string
		for i, w := range want {
			names = append(names, w.name)
			if res[i].Strategy != w.name || res[i].Totals.OverWindowCalls != w.over {
				t.Errorf("streamed %t: result %d: %s with %d over, want %s with %d", streamed, i, res[i].Strategy, res[i].Totals.OverWindowCalls, w.name, w.over)
			}
		}
		if streamed && (!slices.Equal(calls, names) || !slices.Equal(results, names)) {
			t.Errorf("streamed: calls under %v, results %v; want %v", calls, results, names)
		}
	}
}

// FuzzParseAll checks that no list of specs makes ParseAll panic, that
// its errors are SettingErrors, and that what it builds has a name and
// components.
func FuzzParseAll(f *testing.F) {
	for _, s := range []string{"full", "windowed:chars=9+clear", "budget", "limit", " ", "a+b", "clear:auto:keep=2,mask", "summarizing:high=-1", "sliding:head=9223372036854775807", "full,full"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		o := window.ReplayOptions{Options: window.DefaultOptions()}
		ss, err := window.ParseAll(strings.Split(list, ","), o)
		if err != nil {
			var se *window.SettingError
			if !errors.As(err, &se) || se.Setting == "" {
				t.Fatalf("ParseAll(%q): %v (%T), not a SettingError", list, err, err)
			}
			return
		}
		if len(ss) == 0 {
			t.Fatalf("ParseAll(%q): no strategy and no error", list)
		}
		for _, s := range ss {
			if s.Name() == "" {
				t.Errorf("ParseAll(%q): a strategy without a name", list)
			}
		}
		if len(window.Components(ss)) < len(ss) {
			t.Errorf("ParseAll(%q): fewer components than strategies", list)
		}
	})
}
