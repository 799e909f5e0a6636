package transcript_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// A context that is done stops the scan before anything is read.
func ExampleScan_cancel() {
	events := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
`
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := transcript.Scan(ctx, strings.NewReader(events), "chat.jsonl", "",
		func(t *transcript.Transcript, m *transcript.Message) error { return nil }, nil)
	fmt.Println(err)
	// Output:
	// context canceled
}

// Counted by hand with the estimate, max(pieces, chars/4): the user
// message is 3 framing + "user" 1 + "hello there" 2 = 6, the assistant's
// 3 + "assistant" 2 + "hi" 1 = 6, and 3 prime the reply: 15.
func ExampleCountBilled_cancel() {
	events := `{"type":"user","content":"hello there"}
{"type":"assistant","content":"hi"}
`
	n, err := transcript.CountBilled(context.Background(), strings.NewReader(events), "chat.jsonl", "", tokenize.Estimate)
	fmt.Println(n, err)
	// Output:
	// 15 <nil>
}
