package window

import (
	"reflect"
	"testing"
)

// TestSettingsNilIsDefault: a nil setting takes its default, a set one
// (0 included) is taken as it is, and the zero Options build what
// DefaultOptions build. The wanted strategies are written from the
// documented defaults (160000 chars, head 1, high 120000, low 160000,
// max 8000, clear trigger 100000 keep 3, mask keep 10).
func TestSettingsNilIsDefault(t *testing.T) {
	full := fullStrategy{}
	edited := func(label string, base Strategy, edits ...edit) Strategy {
		return withEdits{Base: base, Edits: edits, Label: label}
	}
	tests := []struct {
		name string
		spec string
		o    Options
		want Strategy
	}{
		{"windowed nil", "windowed", Options{}, windowedStrategy{Chars: 160000}},
		{"windowed 0", "windowed", Options{Windowed: WindowedSettings{Chars: new(0)}}, windowedStrategy{Chars: 0}},
		{"sliding nil", "sliding", Options{}, slidingStrategy{Head: 1, Chars: 160000}},
		{"sliding head 0", "sliding", Options{Sliding: SlidingSettings{Head: new(0), Chars: new(30)}}, slidingStrategy{Head: 0, Chars: 30}},
		{"spec over setting", "sliding:head=2", Options{Sliding: SlidingSettings{Head: new(0)}}, edited("sliding:head=2", slidingStrategy{Head: 2, Chars: 160000})},
		// Each strategy reads its own settings: windowed's chars are not sliding's.
		{"sliding, windowed set", "sliding", Options{Windowed: WindowedSettings{Chars: new(5)}}, slidingStrategy{Head: 1, Chars: 160000}},
		{"windowed, sliding set", "windowed", Options{Sliding: SlidingSettings{Chars: new(5)}}, windowedStrategy{Chars: 160000}},
		{"summarizing nil", "summarizing", Options{}, summarizingStrategy{HighWaterTokens: 120000, LowWaterChars: 160000, SummaryMaxChars: 8000}},
		{"summarizing low 0", "summarizing", Options{Summarizing: SummarizingSettings{LowWaterChars: new(0), HighWaterTokens: new(0)}}, summarizingStrategy{HighWaterTokens: 0, LowWaterChars: 0, SummaryMaxChars: 8000}},
		{"summarizing max 3, spec high", "summarizing:high=7", Options{Summarizing: SummarizingSettings{SummaryMaxChars: new(3), HighWaterTokens: new(0)}}, edited("summarizing:high=7", summarizingStrategy{HighWaterTokens: 7, LowWaterChars: 160000, SummaryMaxChars: 3})},
		{"clear nil", "clear", Options{}, edited("clear", full, clearEdit{Trigger: 100000, Keep: 3})},
		{"clear trigger 0", "clear", Options{Clear: ClearSettings{Trigger: new(0)}}, edited("clear", full, clearEdit{Trigger: 0, Keep: 3})},
		{"clear keep 0, at-least", "clear", Options{Clear: ClearSettings{Keep: new(0), ClearAtLeast: new(500)}}, edited("clear", full, clearEdit{Trigger: 100000, Keep: 0, ClearAtLeast: 500})},
		{"mask nil", "mask", Options{}, edited("mask", full, maskEdit{Keep: 10})},
		{"mask keep 0", "mask", Options{Mask: MaskSettings{Keep: new(0)}}, edited("mask", full, maskEdit{Keep: 0})},
		// clear:auto keeps its own default, whatever Clear.Keep says.
		{"clear:auto", "clear:auto", Options{Clear: ClearSettings{Keep: new(7)}}, edited("clear:auto", full, autoClearEdit{Keep: 1})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.spec, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
	for _, spec := range []string{"full", "windowed", "sliding", "summarizing", "turn", "clear", "mask", "clear:auto", "cheapest", "windowed+clear+mask"} {
		zero, err := Parse(spec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		def, err := Parse(spec, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(zero, def) {
			t.Errorf("%s: zero Options build %#v, DefaultOptions %#v", spec, zero, def)
		}
	}
}

// TestSettingsCheckNil: nil settings are in range; a set negative one is
// named.
func TestSettingsCheckNil(t *testing.T) {
	if err := (&ReplayOptions{}).Check(); err != nil {
		t.Fatalf("zero options: %v", err)
	}
	err := (&ReplayOptions{Options: Options{Mask: MaskSettings{Keep: new(-2)}}}).Check()
	if se, ok := err.(*SettingError); !ok || se.Setting != "Mask.Keep" || se.Err.Error() != "must be a whole number ≥ 0, got -2" {
		t.Fatalf("err = %v", err)
	}
}
