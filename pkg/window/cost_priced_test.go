package window_test

import (
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// When a replay is priced: a call needs a model (recorded, or
// CostOptions.Model) or a cache rule to be priced with.
func TestCostWhenPriced(t *testing.T) {
	const plain = `{"type":"user","content":"hi"}
{"type":"assistant","content":"hello"}
`
	const named = plain + `{"type":"usage","input_tokens":12,"output_tokens":2,"model":"claude-sonnet-4-5"}
`
	tests := []struct {
		name string
		text string
		co   window.CostOptions
		on   bool
	}{
		{"no model anywhere: nothing to price", plain, window.CostOptions{}, false},
		{"the calls name their model", named, window.CostOptions{}, true},
		{"a model given", plain, window.CostOptions{Model: "gpt-5"}, true},
		{"a cache rule alone prices at zero under that rule", plain, window.CostOptions{Rule: "openai"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := transcript.Read(strings.NewReader(tt.text), "t.jsonl", "harpe")
			if err != nil {
				t.Fatal(err)
			}
			co := tt.co
			opts := window.ReplayOptions{Options: window.DefaultOptions(), Cost: &co}
			res, err := window.Replay(context.Background(), ts[0], []window.Strategy{window.Full}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := res[0].Totals.CostTotals != nil; got != tt.on {
				t.Fatalf("priced = %v, want %v", got, tt.on)
			}
			if tt.on && res[0].Calls[0].CallCost == nil {
				t.Error("totals priced but the call is not")
			}
		})
	}
}
