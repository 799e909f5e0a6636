package window_test

import (
	"context"
	"fmt"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// Two calls of claude-sonnet-4-5 recorded at 5,000 and 5,200 input
// tokens: the books of full balance, and a forged call that reads more
// than it sends is named.
func Example_checkCost() {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	p1, p2 := 5000, 5200
	t := &transcript.Transcript{Format: "harpe", Turns: 2, Messages: []transcript.Message{
		{Index: 0, Role: "user", Text: "q", Turn: 1},
		{Index: 1, Role: "assistant", Text: "a", Turn: 1, Model: "claude-sonnet-4-5", Timestamp: at, InputTokens: &p1},
		{Index: 2, Role: "user", Text: "q", Turn: 2},
		{Index: 3, Role: "assistant", Text: "a", Turn: 2, Model: "claude-sonnet-4-5", Timestamp: at.Add(time.Minute), InputTokens: &p2},
	}}
	res, err := window.Replay(context.Background(), t, []window.Strategy{window.Full}, window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	calls := res[0].Calls
	fmt.Println(calls[1].Cache, window.CheckCost(calls))
	calls[1].Cache.Read += 100
	fmt.Println(window.CheckCost(calls))
	// Output:
	// {5000 200 0} <nil>
	// call 2: read 5100 + write 200 + uncached 0 = 5300, but the call sends 5200 tokens
}
