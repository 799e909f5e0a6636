package engine_test

import (
	"context"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// The kept items as delimited context blocks, each capped: the policy's
// 51 characters under a cap of 45 keep 10 and the marker, 15 + 2 + 18 =
// 35 characters.
func ExampleReport_WriteBlocks() {
	items := []engine.Item{
		{ID: "sys", Content: "You answer refund questions.", Pinned: true},
		{ID: "p1", Source: "policy", Description: "What may be refunded", Content: "Refunds within 30 days, with the receipt; no sales."},
	}
	rep, err := engine.Synthesize(context.Background(), items, engine.Budget{Total: 500}, engine.Options{})
	if err != nil {
		panic(err)
	}
	o := engine.BlockOptions{MaxChars: 45}
	for _, c := range rep.Cuts(items, o) {
		fmt.Printf("cut %s: %d of %d characters kept\n", c.ID, c.KeptChars, c.Chars)
	}
	if err := rep.WriteBlocks(os.Stdout, items, o); err != nil {
		panic(err)
	}
	// Output:
	// cut p1: 10 of 51 characters kept
	// <context name="sys">
	// You answer refund questions.
	// </context>
	//
	// <context name="policy" description="What may be refunded">
	// Refunds wi…[cut: showing 10 of 51 characters]
	// </context>
}
