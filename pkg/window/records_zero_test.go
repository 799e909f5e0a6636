package window

import (
	"context"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Gemini CLI names its cache read on every record, 0 included: a session
// whose calls all read nothing from the cache (the shape of a real 2-call
// document, 30 March 2026) is billed uncached, and full follows the
// records: call 2 reads 0 and sends its 8,599 tokens uncached, where the
// model alone would have it read the 6,400 (50 × 128) of call 1's 6,497
// it shares.
func TestRecordedZeroCacheReadIsEvidence(t *testing.T) {
	at := time.Date(2026, 3, 30, 18, 39, 51, 0, time.UTC)
	model := "gemini-3-flash-preview"
	p1, p2 := 6497, 8599
	msgs := []transcript.Message{
		{Role: "user", Text: "write the file", Turn: 1, Timestamp: at},
		{Role: "assistant", Turn: 1, Model: model, Timestamp: at.Add(3 * time.Second), InputTokens: &p1,
			Usage:     &transcript.Usage{Input: p1, Output: 58},
			ToolCalls: []transcript.ToolCall{{ID: "w", Name: "write_file", Arguments: "{}"}}},
		{Role: "tool", Text: "done", Turn: 1, ToolCallID: "w", Timestamp: at.Add(3 * time.Second)},
		{Role: "assistant", Text: "Done.", Turn: 1, Model: model, Timestamp: at.Add(19 * time.Second), InputTokens: &p2,
			Usage: &transcript.Usage{Input: p2, Output: 7}},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	tr := &transcript.Transcript{Format: transcript.FormatGeminiCLI, Messages: msgs, Turns: 1}
	res, err := Replay(context.Background(), tr, []Strategy{Full}, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	calls := res[0].Calls
	if len(calls) != 2 || calls[1].CallCost == nil {
		t.Fatalf("calls = %+v, want 2 priced", calls)
	}
	if c := calls[1].Cache; c.Read != 0 || c.Uncached != p2 {
		t.Errorf("call 2 cache = %+v, want read 0, uncached %d (the record)", c, p2)
	}
}
