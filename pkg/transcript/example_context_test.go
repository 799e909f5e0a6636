package transcript_test

import (
	"context"
	"errors"
	"fmt"
	"github.com/harpe-dev/harpe/pkg/engine"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Recorded usage whose total over calls passes the largest int is an
// error at the line of the usage that took it there: 5·10^18 twice is
// 10^19, more than 2^63−1.
func ExampleScan_cancel() {
	events := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":5000000000000000000}
`
	var l transcript.Listing
	err := transcript.Scan(context.Background(), strings.NewReader(events), "chat.jsonl", "",
		func(t *transcript.Transcript, m *transcript.Message) error { return l.Add(m) }, nil)
	var oe *engine.TokenOverflowError
	fmt.Println(err)
	fmt.Println(errors.As(err, &oe))

	// A context that is done stops the scan before anything is read.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = transcript.Scan(ctx, strings.NewReader(events), "chat.jsonl", "",
		func(t *transcript.Transcript, m *transcript.Message) error { return nil }, nil)
	fmt.Println(err)
	// Output:
	// chat.jsonl:6: the recorded input tokens add up to more than 9223372036854775807 tokens
	// true
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
