package prices_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// A dated snapshot finds its preset; a name no model has is a filter:
// every preset whose name contains it, the ones already picked once.
func ExampleCatalog_Select() {
	ms, err := prices.Default().Select([]string{"claude-haiku-4-5-20251001", "haiku"})
	if err != nil {
		panic(err)
	}
	for _, m := range ms {
		fmt.Println(m.Name, m.ContextWindow)
	}
	_, err = prices.Default().Select([]string{"no-such-model-xyz"})
	fmt.Println(err != nil)
	// Output:
	// claude-haiku-4-5 200000
	// claude-3-5-haiku 200000
	// claude-3-haiku 0
	// true
}
