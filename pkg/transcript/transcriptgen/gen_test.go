package transcriptgen

import (
	"reflect"
	"testing"
)

func TestAgentSession(t *testing.T) {
	cfg := Config{Seed: 7, AgentCalls: 300, AgentTurns: 2, Usage: true, Overhead: 1000}
	tr := Generate(cfg)
	if !reflect.DeepEqual(tr, Generate(cfg)) {
		t.Fatal("same seed, different sessions")
	}
	if tr.Turns != 2 {
		t.Fatalf("%d turns, want 2", tr.Turns)
	}
	calls, results, minR, maxR := 0, 0, 1<<30, 0
	open := map[string]bool{}
	for _, m := range tr.Messages {
		switch m.Role {
		case "assistant":
			calls++
			if m.InputTokens == nil {
				t.Fatalf("message %d: no usage", m.Index)
			}
			for _, tc := range m.ToolCalls {
				open[tc.ID] = true
			}
		case "tool":
			if !open[m.ToolCallID] {
				t.Fatalf("message %d answers no open call", m.Index)
			}
			delete(open, m.ToolCallID)
			results++
			minR, maxR = min(minR, len(m.Text)), max(maxR, len(m.Text))
		}
	}
	// 300 calls a turn: 299 that call tools and a last reply.
	if calls != 600 || results < 598 || len(open) != 0 {
		t.Fatalf("%d calls, %d results, %d unanswered", calls, results, len(open))
	}
	if minR < 200 || maxR > 50000 || maxR < 20000 || minR > 1000 {
		t.Fatalf("tool results from %d to %d bytes", minR, maxR)
	}
}
