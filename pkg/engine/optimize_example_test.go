package engine_test

import (
	"context"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// Greedy by priority against the knapsack: with 80 tokens left beside the
// pinned prompt, lowest_priority takes a (priority 1, utility 1/2) and then
// neither 40-token item fits; knapsack takes b (utility (1+1)/(1+3) = 1/2)
// and c (1/4) for 0.75.
func ExampleSynthesize_knapsack() {
	n := func(v int) *int { return &v }
	items := []engine.Item{
		{ID: "sys", Content: "You are a careful agent.", Pinned: true, TokenCount: n(20)},
		{ID: "a", Content: "…", Priority: 1, TokenCount: n(50)},
		{ID: "b", Content: "…", Priority: 3, Relevance: new(1.0), TokenCount: n(40)},
		{ID: "c", Content: "…", Priority: 3, TokenCount: n(40)},
	}
	for _, policy := range []string{engine.PolicyLowestPriority, engine.PolicyKnapsack} {
		rep, err := engine.Synthesize(context.Background(), items, engine.Budget{Total: 100}, engine.Options{Policy: policy})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(policy, ":")
		for _, k := range rep.Kept {
			fmt.Print(" ", k.ID)
		}
		if rep.Utility != nil {
			fmt.Printf(" (utility %v, %s)", *rep.Utility, rep.Solver)
		}
		fmt.Println()
	}
	// Output:
	// lowest_priority: sys a
	// knapsack: sys b c (utility 0.75, exact_dp)
}
