package transcript

import (
	"context"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// byteCounter counts one token a byte, so the expected totals below are
// plain byte sums.
type byteCounter struct{}

func (byteCounter) Count(_ context.Context, s string) (int, error) { return len(s), nil }
func (byteCounter) Name() string                                   { return "bytes" }

func TestMessageTokens(t *testing.T) {
	tests := []struct {
		name string
		m    Message
		c    tokenize.Counter
		want int
	}{
		// 3 framing + "user" 4 + "hello" 5
		{"bytes user", Message{Role: RoleUser, Text: "hello"}, byteCounter{}, 12},
		// 3 + "user" 4 + "hi" 2 + name: 1 + "dana" 4
		{"bytes named", Message{Role: RoleUser, Text: "hi", Name: "dana"}, byteCounter{}, 14},
		// 3 + "assistant" 9 + 0 + call: 3 + "ls" 2 + "{}" 2
		{"bytes tool call", Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c1", Name: "ls", Arguments: "{}"}}}, byteCounter{}, 19},
		// 3 + "user" 4 + "x" 1 + 2 images × 765
		{"bytes images", Message{Role: RoleUser, Text: "x", Images: 2}, byteCounter{}, 1538},
		// estimate: "user" 1, "hello world" 2 pieces → 3+1+2
		{"estimate user", Message{Role: RoleUser, Text: "hello world"}, tokenize.Estimate, 6},
		// estimate: "assistant" is 1 piece but 9 chars / 4 = 2; call "ls" 1,
		// `{"dir":"."}` 9 pieces → 3+2+0+(3+1+9)
		{"estimate tool call", Message{Role: RoleAssistant, ToolCalls: []ToolCall{{ID: "c", Name: "ls", Arguments: `{"dir":"."}`}}}, tokenize.Estimate, 18},
		// tool result: "tool" 1, "ok" 1 → 5; the call id is not counted
		{"estimate tool result", Message{Role: RoleTool, ToolCallID: "call_123456789", Text: "ok"}, tokenize.Estimate, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MessageTokens(&tt.m, tt.c); got != tt.want {
				t.Errorf("MessageTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestBilledTokens(t *testing.T) {
	tests := []struct {
		name string
		t    Transcript
		want int
	}{
		{"empty", Transcript{}, 0},
		// (3+4+5) + (3+9+2) + 3 priming
		{"two messages", Transcript{Messages: []Message{{Role: RoleUser, Text: "hello"}, {Role: RoleAssistant, Text: "hi"}}}, 29},
		// the aborted user message is not sent: (3+9+2) + 3
		{"aborted left out", Transcript{Messages: []Message{{Role: RoleUser, Text: "hello", Aborted: true}, {Role: RoleAssistant, Text: "hi"}}}, 17},
		{"all aborted", Transcript{Messages: []Message{{Role: RoleUser, Text: "hello", Aborted: true}}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BilledTokens(&tt.t, byteCounter{}); got != tt.want {
				t.Errorf("BilledTokens = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestChars(t *testing.T) {
	// "héllo" 5 code points + "ls" 2 + `{"a":"ü"}` 9
	m := Message{Text: "héllo", ToolCalls: []ToolCall{{Name: "ls", Arguments: `{"a":"ü"}`}}}
	if got := m.Chars(); got != 16 {
		t.Errorf("Chars = %d, want 16", got)
	}
	// an invalid byte counts as one
	if got := (&Message{Text: "a\xffb"}).Chars(); got != 3 {
		t.Errorf("Chars = %d, want 3", got)
	}
}
