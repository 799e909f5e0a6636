package window

import (
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestCheckRules gives Check one invalid window per rule it enforces, on
// small() (see window_test.go) or a variant of it, and a valid window for
// each variant.
func TestCheckRules(t *testing.T) {
	orphaned := func() *transcript.Transcript {
		// Message 5 answers a call nobody made.
		tr := small()
		tr.Messages[5].ToolCallID = "nobody"
		return tr
	}
	anonymous := func() *transcript.Transcript {
		// Message 5 is a tool message with no call id (some formats).
		tr := small()
		tr.Messages[5].ToolCallID = ""
		return tr
	}
	summarized := func() *transcript.Transcript {
		// The harness compacted in turn 2 between the call 4 and its
		// result 5 (now 6): the result's call is gone.
		tr := small()
		sum := transcript.Message{Role: "user", Text: "summary", Turn: 2, Meta: true}
		msgs := append([]transcript.Message{}, tr.Messages[:5]...)
		msgs = append(msgs, sum)
		msgs = append(msgs, tr.Messages[5:]...)
		for i := range msgs {
			msgs[i].Index = i
		}
		tr.Messages, tr.Compactions = msgs, []int{5}
		return tr
	}
	tests := []struct {
		name   string
		tr     *transcript.Transcript
		reply  int
		window []int
		folded []int
		want   string // "" for valid
	}{
		{"valid full window", small(), 10, []int{0, 1, 2, 3, 4, 5, 6, 9}, nil, ""},
		{"valid: older turns may go", small(), 10, []int{0, 9}, nil, ""},
		{"reply out of range", small(), 11, []int{0}, nil, "reply 11 out of range"},
		{"indices not increasing", small(), 10, []int{0, 3, 2, 9}, nil, "indices not increasing at 2"},
		{"message at or after the reply", small(), 6, []int{0, 3, 4, 5, 6}, nil, "message 6 is not before the reply 6"},
		{"system part dropped", small(), 10, []int{1, 2, 3, 4, 5, 6, 9}, nil, "system part message 0 dropped"},
		{"newest prompt dropped", small(), 10, []int{0, 1, 2}, nil, "newest prompt 9 dropped"},
		{"aborted turn sent", small(), 10, []int{0, 7, 8, 9}, nil, "message 7 of aborted turn 3 sent"},
		{"valid: aborted turn while active", small(), 8, []int{0, 7}, nil, ""},
		{"call without its result", small(), 10, []int{0, 3, 4, 6, 9}, nil, "tool call 4 sent without its result 5"},
		{"result without its call", small(), 10, []int{0, 3, 5, 6, 9}, nil, "tool result 5 sent without its call 4"},
		{"orphan result", orphaned(), 10, []int{0, 3, 5, 6, 9}, nil, "tool result 5 has no call before it"},
		{"valid: orphan left out", orphaned(), 10, []int{0, 3, 4, 6, 9}, nil, ""},
		{"window starts with a tool result", anonymous(), 10, []int{0, 5, 6, 9}, nil, "window starts with tool result 5"},
		{"result whose call the harness summary replaced", summarized(), 11, []int{0, 5, 6, 7, 10}, nil, "tool result 6 has no call before it"},
		{"valid: after the harness summary", summarized(), 11, []int{0, 5, 7, 10}, nil, ""},
		{"result whose call was folded", small(), 10, []int{0, 5, 6, 9}, []int{1, 2, 3, 4}, "tool result 5 has no call before it"},
		{"valid: folded call's result left out", small(), 10, []int{0, 6, 9}, []int{1, 2, 3, 4}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check(tt.tr, tt.reply, tt.window, tt.folded)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("valid window rejected: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("invalid window accepted, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), tt.want):
				t.Errorf("error %q, want %q", err, tt.want)
			}
		})
	}
}
