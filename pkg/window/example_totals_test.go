package window_test

import (
	"context"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// Two calls recorded at 5 and 7 input tokens: the full history sends 12
// tokens, 7 at most in one call, and no call is kept.
func ExampleReplay_totals() {
	five, seven := 5, 7
	t := &transcript.Transcript{Format: "harpe", Turns: 2, Messages: []transcript.Message{
		{Index: 0, Role: "user", Text: "q", Turn: 1},
		{Index: 1, Role: "assistant", Text: "a", Turn: 1, InputTokens: &five},
		{Index: 2, Role: "user", Text: "q", Turn: 2},
		{Index: 3, Role: "assistant", Text: "a", Turn: 2, InputTokens: &seven},
	}}
	full, err := window.Parse("full", window.DefaultOptions())
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := window.Replay(context.Background(), t, []window.Strategy{full}, window.ReplayOptions{Options: window.DefaultOptions(), Totals: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res[0].Strategy, res[0].Totals.Calls, res[0].Totals.TokensSent, res[0].Totals.MaxCallTokens, len(res[0].Calls))
	// Output:
	// full 2 12 7 0
}
