package window_test

import (
	"fmt"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// A Conversation fed message by message, as package live feeds it: each
// message gets the next index, and Render describes the next call's
// window by runs of indices. Under turn, only the active turn is sent
// (with the system part).
func ExampleConversation() {
	v, err := window.NewConversation(window.TurnOnly, window.Options{})
	if err != nil {
		panic(err)
	}
	v.AddSystem(transcript.Message{Role: transcript.RoleSystem, Text: "Be brief."}) // 0
	v.Begin()
	v.Add(transcript.Message{Role: transcript.RoleUser, Text: "Hi."})          // 1
	v.Add(transcript.Message{Role: transcript.RoleAssistant, Text: "Hello."})  // 2
	v.Begin()                                                                  // commits turn 1
	v.Add(transcript.Message{Role: transcript.RoleUser, Text: "What is 2+2?"}) // 3
	w, err := v.Render()
	if err != nil {
		panic(err)
	}
	for _, p := range w.Parts {
		fmt.Printf("%d–%d %s\n", p.From, p.To, p.Sent)
	}
	fmt.Println(len(v.Rendered().Messages), "message after the system part")
	// Output:
	// 0–0 whole
	// 3–3 whole
	// 1 message after the system part
}
