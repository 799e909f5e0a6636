package window_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/window"
)

// Each strategy and edit has its own settings in Options. A nil setting
// takes its default; one given, 0 included, is taken as it is, and a
// value in the spec wins over it. Windowed's chars are not sliding's.
func ExampleOptions() {
	o := window.Options{
		Windowed:    window.WindowedSettings{Chars: new(40000)},             // windowed:chars=40000
		Sliding:     window.SlidingSettings{Head: new(0)},                   // sliding keeps no first turn (--head 0)
		Summarizing: window.SummarizingSettings{SummaryMaxChars: new(2000)}, // summarizing:max=2000
		Clear:       window.ClearSettings{Trigger: new(0)},                  // clear at every call (clear:trigger=0)
		Mask:        window.MaskSettings{Keep: new(0)},                      // mask every result (mask:keep=0)
	}
	for _, spec := range []string{"windowed", "sliding", "sliding:head=2", "summarizing", "clear", "mask"} {
		s, err := window.Parse(spec, o)
		if err != nil {
			fmt.Println(err)
			return
		}
		if e, ok := s.(window.Edited); ok {
			if len(e.Edits) > 0 {
				fmt.Printf("%s: %+v\n", spec, e.Edits[0])
				continue
			}
			s = e.Base
		}
		fmt.Printf("%s: %+v\n", spec, s)
	}
	// Output:
	// windowed: {Chars:40000}
	// sliding: {Head:0 Chars:160000}
	// sliding:head=2: {Head:2 Chars:160000}
	// summarizing: {HighWaterTokens:120000 LowWaterChars:160000 SummaryMaxChars:2000 Distill:<nil>}
	// clear: {Trigger:0 Keep:3 ClearAtLeast:0 ExcludeTools:[] ClearInputs:false}
	// mask: {Keep:0}
}
