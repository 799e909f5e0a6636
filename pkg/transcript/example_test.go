package transcript_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
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

func ExampleBilledTokens() {
	events := `{"type":"system","content":"Be brief."}
{"type":"user","content":"What is 2+2?"}
{"type":"assistant","content":"4."}
`
	ts, _ := transcript.Read(strings.NewReader(events), "chat.jsonl", "harpe")
	// Per message: 3 framing + role + text, with the estimate counter:
	// system 3+1+3, user 3+1+6, assistant 3+2+2; then 3 to prime the reply.
	fmt.Println(transcript.BilledTokens(ts[0], tokenize.Estimate))
	// Output: 27
}

func ExampleScan() {
	events := `{"type":"user","content":"Rename util."}
{"type":"assistant","content":"Renaming."}
{"type":"abort"}
{"type":"user","content":"Only list the files."}
{"type":"assistant","content":"a.go b.go"}
`
	var ts []*transcript.Transcript
	err := transcript.Scan(context.Background(), strings.NewReader(events), "chat.jsonl", "", func(t *transcript.Transcript, m *transcript.Message) error {
		fmt.Println(m.Index, m.Turn, m.Role, m.Aborted)
		return nil
	}, func(t *transcript.Transcript) error { ts = append(ts, t); return nil })
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ts[0].Turns, "turns,", len(ts[0].Messages), "messages kept")
	// Output:
	// 0 1 user true
	// 1 1 assistant true
	// 2 2 user false
	// 3 2 assistant false
	// 2 turns, 0 messages kept
}

func ExampleItemWriter() {
	events := `{"type":"system","content":"Be terse."}
{"type":"user","content":"Show main.go."}
{"type":"assistant","content":"","tool_calls":[{"id":"c1","name":"Read","arguments":"{}"}]}
{"type":"tool_result","tool_call_id":"c1","content":"package main"}
`
	w := &transcript.ItemWriter{File: "s.jsonl"}
	err := transcript.Scan(context.Background(), strings.NewReader(events), "s.jsonl", "", func(t *transcript.Transcript, m *transcript.Message) error {
		if it, ok := w.Item(t, m); ok {
			fmt.Printf("%s pinned=%v group=%q dimension=%s\n", it.ID, it.Pinned, it.Group, it.Dimension)
		}
		return nil
	}, nil)
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// m0 pinned=true group="" dimension=system
	// m1 pinned=false group="" dimension=user
	// m2 pinned=false group="call2" dimension=tool:Read
	// m3 pinned=false group="call2" dimension=tool:Read
}

// ParseFormat checks a format name from the user against the one list of
// formats; "" asks Read to detect the format.
func ExampleParseFormat() {
	f, err := transcript.ParseFormat("sharegpt")
	fmt.Println(f, err)
	_, err = transcript.ParseFormat("slack")
	fmt.Println(err)
	// Output:
	// sharegpt <nil>
	// unknown transcript format "slack"; valid: harpe, claude-code, codex, openai, anthropic, gemini, gemini-cli, copilot-cli, opencode, sharegpt, swe-agent, openhands, long-memory, vcr, har
}
