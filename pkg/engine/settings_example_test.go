package engine_test

import (
	"errors"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// A front end fills Settings from its own flags or fields and names its own
// key when Check refuses one. 5% of 4,096 is 204 (rounded down), so the
// items get 4,096 - 512 - 204 = 3,380 tokens.
func ExampleSettings_Check() {
	s := engine.DefaultSettings()
	s.Total, s.ReserveOutput, s.SafetyMargin = 4096, 512, "5%"
	budget, _, err := s.Check()
	fmt.Println(budget.Available(), err)

	s.Options.Destination = "mars"
	_, _, err = s.Check()
	var se *engine.SettingError
	if errors.As(err, &se) {
		fmt.Printf("setting %s: %v\n", se.Setting, se.Err)
	}
	// Output:
	// 3380 <nil>
	// setting Destination: unknown destination "mars"; valid: remote, local
}
