package window_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/window"
)

// A nil setting takes its default; one given, 0 included, is taken as it
// is, and a value in the spec wins over it.
func ExampleOptions() {
	o := window.Options{
		Head:  new(0),                                // sliding keeps no first turn (--head 0)
		Clear: window.ClearSettings{Trigger: new(0)}, // clear at every call (clear:trigger=0)
		Mask:  window.MaskSettings{Keep: new(0)},     // mask every result (mask:keep=0)
	}
	for _, spec := range []string{"sliding", "sliding:head=2", "clear", "mask", "windowed"} {
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
	// sliding: {Head:0 Chars:160000}
	// sliding:head=2: {Head:2 Chars:160000}
	// clear: {Trigger:0 Keep:3 ClearAtLeast:0 ExcludeTools:[] ClearInputs:false}
	// mask: {Keep:0}
	// windowed: {Chars:160000}
}
