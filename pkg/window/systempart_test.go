package window

import (
	"slices"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// promptless is a Claude Code session started with a command: its
// prompts came as injected context (Meta), so it has no prompt turn and
// every message is turn 0.
//
//	0 user      meta  context          system part
//	1 user      meta  the command      system part
//	2 assistant       call 1, tool call c0
//	3 tool            result to c0
//	4 assistant       call 2
//	5 user      meta  a later command  conversation: sent after 4
//	6 assistant       call 3
func promptless() *transcript.Transcript {
	msgs := []transcript.Message{
		{Role: "user", Text: x(40), Meta: true},
		{Role: "user", Text: x(20), Meta: true},
		{Role: "assistant", ToolCalls: []transcript.ToolCall{{ID: "c0", Name: "t", Arguments: "{}"}}},
		{Role: "tool", Text: x(300), ToolCallID: "c0"},
		{Role: "assistant", Text: x(30)},
		{Role: "user", Text: x(20), Meta: true},
		{Role: "assistant", Text: x(30)},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	return &transcript.Transcript{Format: "claude-code", Messages: msgs}
}

func TestSystemPartEnd(t *testing.T) {
	meta := transcript.Message{Role: "user", Meta: true}
	sys := transcript.Message{Role: "system"}
	reply := transcript.Message{Role: "assistant"}
	prompt := transcript.Message{Role: "user", Turn: 1}
	tests := []struct {
		name string
		msgs []transcript.Message
		want int
	}{
		{"empty", nil, 0},
		{"all system", []transcript.Message{sys, meta}, 2},
		{"prompt ends it", []transcript.Message{sys, meta, prompt, meta}, 2},
		// A reply before any prompt ends it: the injected context
		// after it is conversation.
		{"reply ends it", []transcript.Message{meta, meta, reply, meta, reply}, 2},
		{"reply first", []transcript.Message{reply, sys}, 0},
	}
	for _, tt := range tests {
		if got := SystemPartEnd(tt.msgs); got != tt.want {
			t.Errorf("%s: SystemPartEnd = %d, want %d", tt.name, got, tt.want)
		}
	}
}

// A late injected message of a session without prompts is sent where it
// came, after the messages before it: call 3's window is the transcript
// 0–5 in order, one whole part (it was 0–1, 5, 2–4: moved into the
// system part, it broke the cached prefix after 1 on every later call).
func TestLateMetaStaysInPlace(t *testing.T) {
	tr := promptless()
	r := replayOne(t, tr, Full, DefaultOptions())
	if len(r.Calls) != 3 {
		t.Fatalf("calls = %d, want 3", len(r.Calls))
	}
	c := r.Calls[2]
	if want := []int{0, 1, 2, 3, 4, 5}; !slices.Equal(c.Messages, want) {
		t.Errorf("call 3 messages = %v, want %v", c.Messages, want)
	}
	if len(c.Parts) != 1 || c.Parts[0].From != 0 || c.Parts[0].To != 5 || c.Parts[0].Sent != sentWhole {
		t.Errorf("call 3 parts = %+v, want one whole part 0–5", c.Parts)
	}
}
