package engine_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// The seed README's quickstart: a pinned system prompt and one memory
// trace under a 2,048-token budget. By the estimate, the prompt is 10
// tokens (40 characters / 4 beats its 7 pieces) and the trace 8 (8 pieces,
// 35 characters / 4 = 8).
func ExampleSynthesize() {
	budget := engine.Budget{Total: 2048}
	items := []engine.Item{
		{ID: "sys", Content: "You are an autonomous engineering agent.", Priority: 0, Pinned: true},
		{ID: "obs", Content: "Memory trace step 42: state normal.", Priority: 10},
	}
	report, err := engine.Synthesize(context.Background(), items, budget, engine.Options{Policy: engine.PolicyLowestPriority})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Tokens: %d / %d (pruned: %d)\n", report.ConsumedTokens, budget.Available(), len(report.Dropped))
	// Output:
	// Tokens: 18 / 2048 (pruned: 0)
}

// Reading items JSONL and keeping what fits in 20 tokens.
func ExampleReadItems() {
	input := `{"id":"sys","content":"You are a careful agent.","pinned":true}
{"id":"goal","content":"Fix the failing test in parser_test.go.","priority":1}
{"id":"old","content":"An old observation that matters little.","priority":20,"token_count":30}
`
	items, _, err := engine.ReadItems(strings.NewReader(input), "items.jsonl", engine.ReadOptions{DefaultPriority: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	report, err := engine.Synthesize(context.Background(), items, engine.Budget{Total: 20}, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range report.Kept {
		fmt.Println("kept", k.ID, k.Tokens, k.Reason)
	}
	for _, d := range report.Dropped {
		fmt.Println("dropped", d.ID, d.Tokens, d.Reason, "needed", d.Needed, "left", d.Left)
	}
	os.Stdout.Write(items[0].Raw)
	fmt.Println()
	// Output:
	// kept sys 6 pinned
	// kept goal 9 selected
	// dropped old 30 did_not_fit needed 30 left 5
	// {"id":"sys","content":"You are a careful agent.","pinned":true}
}

// Two inputs read as one stream: ids stay unique across them, and a line
// without an id is named by its line counted across the inputs.
func ExampleItemReader() {
	r := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	for _, in := range []struct{ name, text string }{
		{"a.jsonl", `{"id":"sys","content":"Be brief.","pinned":true}` + "\n" + `{"content":"first note"}` + "\n"},
		{"b.jsonl", `{"content":"second note"}` + "\n" + `{"id":"sys","content":"again"}` + "\n"},
	} {
		if err := r.Read(context.Background(), strings.NewReader(in.text), in.name); err != nil {
			fmt.Println(err)
		}
	}
	for _, it := range r.Items() {
		fmt.Println(it.ID, it.Line, it.Content)
	}
	// Output:
	// b.jsonl:2: duplicate id "sys" (first at a.jsonl:1)
	// sys 1 Be brief.
	// L2 2 first note
	// L3 1 second note
}
