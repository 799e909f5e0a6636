package live_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// An agent loop with a live context: each model call sends what Render
// returns; the provider's usage is observed after the reply. Here the
// strategy clears old tool results once a call passes 100 tokens, all but
// the newest. With the estimate counter (a token per word or punctuation
// mark, at least a quarter of the characters): system 7 + prompt 8 = 15;
// a call is 1 (Read) + 7 ({"n":1}); a result 4 words + 192 dots = 196.
// Call 2: 15 + 8 + 196 = 219, over, but its one result is the newest.
// Call 3: the first result is cleared ("[tool result cleared]": 5), so
// 15 + 8 + 5 + 8 + 196 = 232. Call 4 clears the second too.
func Example() {
	ctx := context.Background()
	c, err := live.NewSpec("clear:trigger=100:keep=1", live.Config{System: "You are a careful coding agent."})
	if err != nil {
		panic(err)
	}
	c.Begin(live.Message{Role: transcript.RoleUser, Text: "Read the three notes and sum them."})
	for i, note := range []string{"note one says 12 " + pad, "note two says 30 " + pad, "note three says 0 " + pad} {
		s, err := c.Render(ctx) // send s.System and s.Messages to the model
		if err != nil {
			panic(err)
		}
		runs, _ := json.Marshal(s.Window)
		fmt.Printf("call %d: window %s, %d messages, %d tokens\n", s.Call, runs, len(s.Messages), s.Tokens)
		c.Observe(live.Usage{Input: s.Tokens, Output: 20})
		id := fmt.Sprint("t", i+1)
		c.Add(live.Message{Role: transcript.RoleAssistant, ToolCalls: []transcript.ToolCall{{ID: id, Name: "Read", Arguments: `{"n":` + fmt.Sprint(i+1) + `}`}}})
		c.Add(live.Message{Role: transcript.RoleTool, ToolCallID: id, Text: note})
	}
	s, _ := c.Render(ctx)
	for _, p := range s.Parts {
		fmt.Printf("  %d–%d %s\n", p.From, p.To, p.Sent)
	}
	fmt.Println(s.Messages[2].Text)
	c.Commit()
	// Output:
	// call 1: window [[0,1]], 1 messages, 15 tokens
	// call 2: window [[0,3]], 3 messages, 219 tokens
	// call 3: window [[0,5]], 5 messages, 232 tokens
	//   0–2 whole
	//   3–3 cleared
	//   4–4 whole
	//   5–5 cleared
	//   6–7 whole
	// [tool result cleared]
}

// pad is 192 characters of a long tool output.
const pad = "................................................................................................................................................................................................"
