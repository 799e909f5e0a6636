package window

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

// TestGreedyBudgetMatchesEngine: the incremental budget path chooses what
// the engine chooses when rerun over the whole history at every call (the
// reference), on generated sessions with aborts, harness compactions and
// agent loops, under several budgets and both policies it serves.
func TestGreedyBudgetMatchesEngine(t *testing.T) {
	var trs []*transcript.Transcript
	for seed := uint64(1); seed <= 6; seed++ {
		trs = append(trs, transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: 50, AbortEvery: 5, CompactEvery: 4}))
		trs = append(trs, transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 80, AgentTurns: 2, MaxToolChars: 8000}))
	}
	// A tool call before the first prompt whose result is in turn 1 (found
	// by FuzzReplay): the pinned call glues turn 1 to it.
	early := &transcript.Transcript{Format: "harpe", Turns: 3, Messages: []transcript.Message{
		{Role: "assistant", ToolCalls: []transcript.ToolCall{{ID: "c1", Name: "t", Arguments: "{}"}}},
		{Role: "user", Text: x(10), Turn: 1},
		{Role: "tool", Text: x(400), Turn: 1, ToolCallID: "c1"},
		{Role: "user", Text: x(40), Turn: 2},
		{Role: "assistant", Text: x(40), Turn: 2},
		{Role: "user", Text: x(40), Turn: 3},
		{Role: "assistant", Text: x(40), Turn: 3},
	}}
	for i := range early.Messages {
		early.Messages[i].Index = i
	}
	trs = append(trs, early)
	for i, tr := range trs {
		for _, total := range []int{1, 300, 3000, 20000} {
			for _, policy := range []string{"", engine.PolicyRecency} {
				b := engine.Budget{Total: total, ReserveOutput: total / 10}
				eo := engine.Options{Policy: policy}
				fast := budgetStrategy{Budget: b, Engine: eo}
				ref := budgetStrategy{Budget: b, Engine: eo, Select: engineSelector(b, eo)}
				if !fastBudget(fast) || fastBudget(ref) {
					t.Fatal("fastBudget")
				}
				res, err := Replay(context.Background(), tr, []Strategy{fast, ref}, ReplayOptions{Options: DefaultOptions(), Indices: true})
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("transcript %d budget %d policy %q", i, total, policy)
				for k := range res[0].Calls {
					if g, w := res[0].Calls[k].Messages, res[1].Calls[k].Messages; !reflect.DeepEqual(g, w) {
						t.Fatalf("%s call %d: %v, engine %v", name, k+1, g, w)
					}
				}
			}
		}
	}
}
