package transcript_test

import (
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

func ExampleRead() {
	events := `{"type":"system","content":"You are terse."}
{"type":"user","content":"List the files."}
{"type":"assistant","content":"","tool_calls":[{"id":"c1","name":"ls","arguments":"{}"}]}
{"type":"usage","input_tokens":40}
{"type":"tool_result","tool_call_id":"c1","content":"go.mod main.go"}
{"type":"assistant","content":"go.mod and main.go."}
`
	ts, err := transcript.Read(strings.NewReader(events), "chat.jsonl", "")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := ts[0]
	fmt.Println(t.Format, len(t.Messages), "messages,", t.Turns, "turn")
	for _, m := range t.Messages {
		in := "-"
		if m.InputTokens != nil {
			in = fmt.Sprint(*m.InputTokens)
		}
		fmt.Printf("%d turn %d %-9s %-20q input %s\n", m.Index, m.Turn, m.Role, m.Text, in)
	}
	// Output:
	// harpe 5 messages, 1 turn
	// 0 turn 0 system    "You are terse."     input -
	// 1 turn 1 user      "List the files."    input -
	// 2 turn 1 assistant ""                   input 40
	// 3 turn 1 tool      "go.mod main.go"     input -
	// 4 turn 1 assistant "go.mod and main.go." input -
}
