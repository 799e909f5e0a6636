package cost_test

import (
	"fmt"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
)

// Two calls on claude-sonnet-4-5: the second reads what the first wrote.
func ExampleSimulate() {
	t := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	sys := cost.Block{ID: "system+tools", Tokens: 12000, Breakpoint: true}
	q := cost.Block{ID: "0/whole/q", Tokens: 40}
	a := cost.Block{ID: "1/whole/a", Tokens: 300}
	r := cost.Block{ID: "2/whole/r", Tokens: 5000}
	calls := []cost.Call{
		{Model: "claude-sonnet-4-5", Time: t, Blocks: []cost.Block{sys, q}, Output: 310},
		{Model: "claude-sonnet-4-5", Time: t.Add(20 * time.Second), Blocks: []cost.Block{sys, q, a, r}, Output: 150},
	}
	rep, err := cost.Simulate(calls, cost.Options{})
	if err != nil {
		panic(err)
	}
	for i, c := range rep.Calls {
		fmt.Printf("call %d: read %d, write %d, $%.4f\n", i+1, c.Cache.Read, c.Cache.Write, c.CostUSD)
	}
	fmt.Printf("total $%.4f\n", rep.Totals.CostUSD)
	// Output:
	// call 1: read 0, write 12040, $0.0498
	// call 2: read 12040, write 5300, $0.0257
	// total $0.0755
}
