package window_test

import (
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// fuzzTranscript builds a transcript from bytes, two per message: the
// first picks what comes next (system, user, assistant, tool call, tool
// result, abort, harness summary), the second its size. It numbers turns
// and marks aborts as a reader does, and may leave calls unanswered or
// results without a call.
func fuzzTranscript(data []byte) *transcript.Transcript {
	t := &transcript.Transcript{Format: "harpe"}
	turn, turnStart, call := 0, 0, 0
	var open []string
	for i := 0; i+1 < len(data); i += 2 {
		kind, size := data[i]%8, int(data[i+1])
		m := transcript.Message{Index: len(t.Messages), Turn: turn, Text: strings.Repeat("w ", size%40)}
		switch kind {
		case 0:
			m.Role = transcript.RoleSystem
		case 1:
			turn++
			turnStart = len(t.Messages)
			m.Role, m.Turn = transcript.RoleUser, turn
		case 2:
			m.Role = transcript.RoleAssistant
			if size%3 == 0 {
				m.Call = "shared"
			}
		case 3:
			call++
			id := "c" + string(rune('a'+call%26)) + strings.Repeat("x", call/26)
			m.Role = transcript.RoleAssistant
			m.ToolCalls = []transcript.ToolCall{{ID: id, Name: "t", Arguments: "{}"}}
			open = append(open, id)
		case 4, 5:
			m.Role = transcript.RoleTool
			m.ToolCallID = "orphan"
			if len(open) > 0 {
				m.ToolCallID, open = open[0], open[1:]
			}
		case 6:
			for j := turnStart; j < len(t.Messages) && turn > 0; j++ {
				t.Messages[j].Aborted = true
			}
			continue
		case 7:
			m.Role, m.Meta = transcript.RoleUser, true
			t.Compactions = append(t.Compactions, m.Index)
		}
		t.Messages = append(t.Messages, m)
	}
	t.Turns = turn
	return t
}

// FuzzReplay checks that every strategy's every window is valid, and holds
// only messages full sends at the same call, whatever the shape of the
// conversation.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{0, 5, 1, 3, 3, 1, 4, 9, 2, 7, 1, 2, 2, 3})
	f.Add([]byte{1, 1, 3, 0, 3, 0, 4, 1, 6, 0, 1, 4, 7, 2, 2, 2})
	f.Add([]byte{2, 2, 0, 1, 4, 4, 1, 1, 2, 3, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := fuzzTranscript(data)
		o := window.DefaultOptions()
		o.Windowed.Chars, o.Sliding.Chars = new(60), new(60)
		o.Summarizing.HighWaterTokens = new(20)
		o.Summarizing.LowWaterChars = new(40)
		o.Summarizing.SummaryMaxChars = new(200)
		o.Sliding.Head = new(1)
		o.Select = window.EngineSelector(engine.Budget{Total: 30}, engine.Options{})
		o.Clear = window.ClearSettings{Trigger: new(10), Keep: new(1), ClearInputs: true}
		o.Mask = window.MaskSettings{Keep: new(1)}
		strategies := window.Strategies()
		for _, spec := range []string{"full+clear", "windowed+mask", "summarizing+clear:at-least=5", "budget:tokens=30+mask+limit:bytes=8"} {
			s, err := window.Parse(spec, o)
			if err != nil {
				t.Fatal(err)
			}
			strategies = append(strategies, s)
		}
		// The budget strategy without a selector: its incremental path.
		budget, err := window.Parse("budget:tokens=30", window.Options{})
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, window.Edited{Base: budget, Label: "budget (incremental)"})
		res, err := window.Replay(context.Background(), tr, strategies, window.ReplayOptions{Options: o, Indices: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			k := 0
			prev := ""
			for i, m := range tr.Messages {
				isCall := m.Role == transcript.RoleAssistant && !m.Meta && (m.Call == "" || m.Call != prev)
				if m.Role == transcript.RoleAssistant {
					prev = m.Call
				}
				if !isCall {
					continue
				}
				if k >= len(r.Calls) {
					t.Fatalf("%s: %d calls, more in the transcript", r.Strategy, len(r.Calls))
				}
				if err := window.Check(tr, i, r.Calls[k].Messages, r.Summarized(k+1)); err != nil {
					t.Fatalf("%s call %d (reply %d): %v in %v", r.Strategy, k+1, i, err, r.Calls[k].Messages)
				}
				if !subset(r.Calls[k].Messages, res[0].Calls[k].Messages) {
					t.Fatalf("%s call %d: %v not within full's %v", r.Strategy, k+1, r.Calls[k].Messages, res[0].Calls[k].Messages)
				}
				if sc := r.Calls[k].SummaryChars; sc > *o.Summarizing.SummaryMaxChars {
					t.Fatalf("%s: summary %d chars", r.Strategy, sc)
				}
				k++
			}
			if k != len(r.Calls) {
				t.Fatalf("%s: %d calls, want %d", r.Strategy, len(r.Calls), k)
			}
		}
	})
}

// subset reports whether every element of a, increasing, is in b,
// increasing.
func subset(a, b []int) bool {
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j == len(b) || b[j] != v {
			return false
		}
	}
	return true
}

// FuzzParse checks that any strategy spec either fails with an error or
// builds a strategy named as written that parses again to the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"full", "windowed:chars=40000+clear:keep=5", "summarizing+mask", "clear:exclude=Read/Grep:inputs", "budget:tokens=3+limit:bytes=9", "mask:keep=", "+", "::", "sliding:head=1:head=2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		s, err := window.Parse(spec, window.DefaultOptions())
		if err != nil {
			return
		}
		if name := s.Name(); name != strings.TrimSpace(spec) {
			t.Fatalf("Parse(%q) named %q", spec, name)
		}
		again, err := window.Parse(s.Name(), window.DefaultOptions())
		if err != nil {
			t.Fatalf("Parse(%q) again: %v", s.Name(), err)
		}
		if again.Name() != s.Name() {
			t.Fatalf("Parse(%q) again named %q", s.Name(), again.Name())
		}
	})
}
