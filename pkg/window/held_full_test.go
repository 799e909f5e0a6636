package window

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// A clear made at an earlier call shortens what the provider held of a
// later one by what it took out, no more. The shape of a real 4-call
// Codex rollout (gpt-5.5, June 2026): a clear at call 3 of a tool result
// near the start; at call 4 (a new turn) the counted window passes the
// recorded prompt (the messages hold text the harness did not send), so
// full's window has no front; its record reads 18,304 of 19,121 tokens.
// The clearing strategy sends the same prompt less the cleared tokens,
// which its own call 3 left out too: it reads full's 18,304 less those,
// in whole steps of 128. It read only its counted prefix before (the
// front lost), 6.4% over full on that session.
func TestHeldOfFullAfterEarlierClear(t *testing.T) {
	at := time.Date(2026, 6, 12, 9, 0, 0, 0, time.UTC)
	model := "gpt-5.5"
	words := func(n int) string { return strings.Repeat("word ", n) }
	rec := func(prompt, cached, out int) (*int, *transcript.Usage) {
		return &prompt, &transcript.Usage{Input: prompt - cached, CacheRead: cached, Output: out}
	}
	p1, u1 := rec(18636, 4992, 367)
	p2, u2 := rec(19065, 4992, 323)
	p3, u3 := rec(19447, 4992, 56)
	p4, u4 := rec(19121, 18304, 293)
	tc := func(id string) []transcript.ToolCall {
		return []transcript.ToolCall{{ID: id, Name: "shell", Arguments: `{"cmd":"cat f"}`}}
	}
	msgs := []transcript.Message{
		{Role: "user", Text: words(12000), Turn: 1, Timestamp: at},
		{Role: "assistant", Turn: 1, Model: model, Timestamp: at.Add(time.Second), InputTokens: p1, Usage: u1, ToolCalls: tc("a")},
		{Role: "tool", Text: words(90), Turn: 1, ToolCallID: "a", Timestamp: at.Add(2 * time.Second)},
		{Role: "assistant", Turn: 1, Model: model, Timestamp: at.Add(3 * time.Second), InputTokens: p2, Usage: u2, ToolCalls: tc("b")},
		{Role: "tool", Text: words(300), Turn: 1, ToolCallID: "b", Timestamp: at.Add(4 * time.Second)},
		{Role: "assistant", Text: "Done.", Turn: 1, Model: model, Timestamp: at.Add(5 * time.Second), InputTokens: p3, Usage: u3},
		{Role: "user", Text: words(6000), Turn: 2, Timestamp: at.Add(60 * time.Second)},
		{Role: "assistant", Text: "Ok.", Turn: 2, Model: model, Timestamp: at.Add(61 * time.Second), InputTokens: p4, Usage: u4},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	tr := &transcript.Transcript{Format: transcript.FormatCodex, Messages: msgs, Turns: 2}
	clear := withEdits{Base: fullStrategy{}, Edits: []edit{clearEdit{Trigger: 1, Keep: 1}}, Label: "clear"}
	res, err := Replay(context.Background(), tr, []Strategy{Full, clear}, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	full, cl := res[0].Calls, res[1].Calls
	if len(full) != 4 || len(cl) != 4 {
		t.Fatalf("calls: full %d, clear %d; want 4", len(full), len(cl))
	}
	if err := CheckCost(cl); err != nil {
		t.Fatalf("clear: %v", err)
	}
	if r := full[3].Cache.Read; r != 18304 {
		t.Fatalf("full call 4 reads %d, want the record's 18,304", r)
	}
	// The clear is made at call 3 and kept at call 4, nothing new.
	removed := full[3].Tokens - cl[3].Tokens
	if removed <= 0 || full[2].Tokens-cl[2].Tokens != removed {
		t.Fatalf("cleared tokens: call 3 %d, call 4 %d; want the same, above 0", full[2].Tokens-cl[2].Tokens, removed)
	}
	want := (18304 - removed) / cost.OpenAIStep * cost.OpenAIStep
	if got := cl[3].Cache.Read; got != want {
		t.Errorf("clear call 4 reads %d, want %d (full's 18,304 less the %d cleared, in steps of 128)", got, want, removed)
	}
}
