package window_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// A strategy spec names a strategy, its settings and its edits; masking
// keeps the results of the last tool-using call verbatim.
func ExampleParse() {
	x := strings.Repeat
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x("x", 8), Turn: 1},
		{Role: "assistant", Turn: 1, ToolCalls: []transcript.ToolCall{{ID: "c1", Name: "grep", Arguments: "{}"}}},
		{Role: "tool", Turn: 1, ToolCallID: "c1", Text: x("x", 400)},
		{Role: "assistant", Turn: 1, ToolCalls: []transcript.ToolCall{{ID: "c2", Name: "read", Arguments: "{}"}}},
		{Role: "tool", Turn: 1, ToolCallID: "c2", Text: x("x", 200)},
		{Role: "assistant", Turn: 1, Text: "done"},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	tr := &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 1}
	mask, err := window.Parse("full+mask:keep=1", window.DefaultOptions())
	if err != nil {
		panic(err)
	}
	res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, mask}, window.ReplayOptions{Options: window.DefaultOptions(), Indices: true})
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Print(r.Strategy, ":")
		for _, c := range r.Calls {
			fmt.Print(" ", c.Tokens)
		}
		fmt.Println()
	}
	fmt.Println(res[1].Calls[2].Parts)
	// Output:
	// full: 3 106 159
	// full+mask:keep=1: 3 106 71
	// [{0 2 whole 17 6} {3 3 masked 43 12} {4 5 whole 206 53}]
}

func Example_maskPlaceholder() {
	fmt.Println(window.MaskPlaceholder("grep", "a.go:1\nb.go:2\n"))
	fmt.Println(window.MaskPlaceholder("", ""))
	// Output:
	// [output of grep omitted: 2 lines, 14 chars]
	// [tool output omitted: 0 lines, 0 chars]
}

// With ReplayOptions.Cost every call is priced: here as gpt-5 ($1.25 per
// million input tokens) under the rule none, everything uncached.
func ExampleCostOptions() {
	msgs := []transcript.Message{
		{Role: "user", Text: strings.Repeat("x", 4000), Turn: 1},
		{Role: "assistant", Text: "ok", Turn: 1},
		{Role: "user", Text: strings.Repeat("x", 400), Turn: 2},
		{Role: "assistant", Text: "ok", Turn: 2},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	tr := &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 2}
	res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, window.TurnOnly},
		window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{Model: "gpt-5", Rule: "none"}})
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Printf("%s: %d tokens, $%.8f (saved $%.8f)\n", r.Strategy, r.Totals.TokensSent, r.Totals.CostUSD, r.Totals.SavedUSD)
	}
	// Output:
	// full: 2101 tokens, $0.00262625 (saved $0.00000000)
	// turn: 1100 tokens, $0.00137500 (saved $0.00125125)
}
