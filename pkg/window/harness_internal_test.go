package window

import (
	"reflect"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// TestHarnessPresetsWorked replays small() (window_test.go: message
// sizes there) under the harness presets with a threshold of 10 tokens
// and a distiller that writes "S" (1 token). No usage is recorded, so a
// call's tokens are its counted window, which the next call observes.
func TestHarnessPresetsWorked(t *testing.T) {
	s := func(summary.Request) (string, error) { return "S", nil }
	type ev struct {
		call, before, after int
		folded              []int
	}
	tests := []struct {
		name   string
		spec   string
		want   [][]int
		events []ev
	}{
		// claude-code: latest tokens + what was added since ≥ 10,
		// replies at their counted size, the rest at a token per 4
		// characters (rounded): a 10-char prompt is 3, the 30-char
		// result 8. Call 1: no usage yet, the window 1 + 2 = 3. Call 2:
		// 3 + 5 (reply 2) + 3 (prompt 3) = 11: fold 1, 2, keep the
		// newest prompt 3; the call sends 1 + S 1 + 2 = 4. Call 3: 4 + 3
		// (call 4) + 8 (result 5) = 15: fold 4, 5. Call 4: 4 + 5 (reply
		// 6) + 3 (prompt 7) = 12: fold 3 and 6, keep 7. Turn 3 is
		// aborted: the fold goes back to its start; call 5: 4 + 3
		// (prompt 9) = 7, no compaction.
		{"claude-code", "claude-code:window=10:reserve=0:buffer=0",
			[][]int{{0, 1}, {0, 3}, {0, 3}, {0, 7}, {0, 9}},
			[]ev{{2, 4, 2, []int{1, 2}}, {3, 4, 2, []int{4, 5}}, {4, 4, 2, []int{3, 6}}}},
		// At 12: call 2's 11 does not fire (it sends 1 + 2 + 5 + 2 =
		// 10); call 3: 10 + 3 + 8 = 21 folds 1, 2, 4, 5 (6 → 2
		// messages); call 4: 4 + 5 + 3 = 12 folds 3 and 6. Counted
		// (2 tokens) rather than at 4 characters a token, prompt 7 would
		// have left call 4 at 11.
		{"claude-code at 12", "claude-code:window=12:reserve=0:buffer=0",
			[][]int{{0, 1}, {0, 1, 2, 3}, {0, 3}, {0, 7}, {0, 9}},
			[]ev{{3, 6, 2, []int{1, 2, 4, 5}}, {4, 4, 2, []int{3, 6}}}},
		// The same threshold written as window − reserve − buffer.
		{"claude-code, reserve and buffer", "claude-code:window=40:reserve=20:buffer=10",
			[][]int{{0, 1}, {0, 3}, {0, 3}, {0, 7}, {0, 9}},
			[]ev{{2, 4, 2, []int{1, 2}}, {3, 4, 2, []int{4, 5}}, {4, 4, 2, []int{3, 6}}}},
		// codex estimates as claude-code does; it keeps the newest user
		// messages that fit in 5 tokens. Call 2 (11): from the newest,
		// prompts 3 and 1 (2 tokens each) fit, only reply 2 is folded;
		// the call sends 0, S, 1, 3: 1 + 1 + 2 + 2 = 6. Call 3: 6 + 3 +
		// 8 = 17: 4 and 5 are folded, the prompts stay. Call 4: 6 + 5 +
		// 3 = 14: prompts 7 and 3 fit, 1 no longer: 1 and 6 are folded,
		// 5 → 3 messages. Turn 3 is aborted with prompt 7; call 5: 6 + 3
		// (prompt 9) = 9, no compaction: 0, S, 3, 9.
		{"codex", "codex:window=10:percent=100:user=5",
			[][]int{{0, 1}, {0, 1, 3}, {0, 1, 3}, {0, 3, 7}, {0, 3, 9}},
			[]ev{{2, 4, 3, []int{2}}, {3, 5, 3, []int{4, 5}}, {4, 5, 3, []int{1, 6}}}},
		// 90% of 12 is 10 (rounded down): the same fire points.
		{"codex, percent", "codex:window=12:user=5",
			[][]int{{0, 1}, {0, 1, 3}, {0, 1, 3}, {0, 3, 7}, {0, 3, 9}},
			[]ev{{2, 4, 3, []int{2}}, {3, 5, 3, []int{4, 5}}, {4, 5, 3, []int{1, 6}}}},
		// A limit below the percentage wins.
		{"codex, limit", "codex:window=1000:limit=10:user=5",
			[][]int{{0, 1}, {0, 1, 3}, {0, 1, 3}, {0, 3, 7}, {0, 3, 9}},
			[]ev{{2, 4, 3, []int{2}}, {3, 5, 3, []int{4, 5}}, {4, 5, 3, []int{1, 6}}}},
		// Keeping user messages up to 3 tokens: only the newest prompt,
		// as claude-code.
		{"codex, user=3", "codex:window=10:percent=100:user=3",
			[][]int{{0, 1}, {0, 3}, {0, 3}, {0, 7}, {0, 9}},
			[]ev{{2, 4, 2, []int{1, 2}}, {3, 4, 2, []int{4, 5}}, {4, 4, 2, []int{3, 6}}}},
		// Thresholds never reached send what full sends.
		{"claude-code, default window", "claude-code",
			[][]int{{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 9}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Summarizing.Distill = s
			st, err := Parse(tt.spec, o)
			if err != nil {
				t.Fatal(err)
			}
			r := replayOne(t, small(), st, o)
			if got := windows(r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("windows\n got %v\nwant %v", got, tt.want)
			}
			var got []ev
			for _, e := range r.Events {
				got = append(got, ev{e.Call, e.MessagesBefore, e.MessagesAfter, e.Folded})
			}
			if !reflect.DeepEqual(got, tt.events) {
				t.Errorf("events\n got %v\nwant %v", got, tt.events)
			}
		})
	}
}

// TestHarnessThreshold works the thresholds out from the settings.
func TestHarnessThreshold(t *testing.T) {
	tests := []struct {
		spec   string
		window int // the replay's context window
		want   int
	}{
		{"claude-code", 0, 200000 - 20000 - 13000},
		{"claude-code", 1000000, 1000000 - 20000 - 13000},
		{"claude-code:window=100000", 1000000, 100000 - 20000 - 13000},
		{"claude-code:reserve=32000", 0, 200000 - 32000 - 13000},
		// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: a share of the window less
		// the reserve, when lower: 80% of 180000 = 144000; 95% would be
		// 171000, above 167000.
		{"claude-code:percent=80", 0, 144000},
		{"claude-code:percent=95", 0, 167000},
		{"claude-code:percent=50", 1000000, 490000},
		{"codex", 0, 244800},
		{"codex", 400000, 360000},
		{"codex:percent=50", 0, 136000},
		{"codex:limit=200000", 0, 200000},
		{"codex:limit=300000", 0, 244800},
	}
	for _, tt := range tests {
		s, err := Parse(tt.spec, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		s = withContextWindow(s, tt.window)
		if e, ok := s.(withEdits); ok {
			s = e.Base
		}
		h := s.(harnessStrategy)
		if got := h.Threshold(); got != tt.want {
			t.Errorf("%s at %d: threshold %d, want %d", tt.spec, tt.window, got, tt.want)
		}
	}
	for _, bad := range []string{"claude-code:user=5", "claude-code:percent=101", "codex:reserve=1", "codex:percent=101", "claude-code:window=-1"} {
		if _, err := Parse(bad, DefaultOptions()); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// microSession: two tool-using turns an hour apart. Result sizes 400
// characters (100 tokens); the placeholder is smaller.
//
//	0  system
//	1  user            turn 1   0:00
//	2  assistant Read  call 1   0:01
//	3  tool (Read)              0:01
//	4  assistant Bash  call 2   0:02
//	5  tool (Bash)              0:02
//	6  assistant Foo   call 3   0:03
//	7  tool (Foo)               0:03
//	8  assistant text  call 4   0:04
//	9  user            turn 2   1:05  (61 minutes after 8)
//	10 assistant Read  call 5   1:06
//	11 tool (Read)              1:06
//	12 assistant text  call 6   1:07
func microSession() *transcript.Transcript {
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	call := func(id, name string, turn, min int) transcript.Message {
		return transcript.Message{Role: "assistant", Turn: turn, Timestamp: at(min), ToolCalls: []transcript.ToolCall{{ID: id, Name: name, Arguments: "{}"}}}
	}
	res := func(id string, turn, min int) transcript.Message {
		return transcript.Message{Role: "tool", Turn: turn, Timestamp: at(min), ToolCallID: id, Text: x(400)}
	}
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x(10), Turn: 1, Timestamp: at(0)},
		call("c1", "Read", 1, 1), res("c1", 1, 1),
		call("c2", "Bash", 1, 2), res("c2", 1, 2),
		call("c3", "Foo", 1, 3), res("c3", 1, 3),
		{Role: "assistant", Text: x(20), Turn: 1, Timestamp: at(4)},
		{Role: "user", Text: x(10), Turn: 2, Timestamp: at(65)},
		call("c4", "Read", 2, 66), res("c4", 2, 66),
		{Role: "assistant", Text: x(20), Turn: 2, Timestamp: at(67)},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	return &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 2}
}

func TestMicroEdit(t *testing.T) {
	tests := []struct {
		spec string
		// cleared lists the results sent cleared at calls 5 and 6.
		cleared [2][]int
	}{
		// 61 minutes ≥ 60: at call 5 the Read and Bash results (3, 5)
		// are old; Foo's (7) is not a file or shell tool. Keep 5 keeps
		// both.
		{"micro", [2][]int{nil, nil}},
		// Keep 1: 3 is cleared, 5 (the newest so far) kept; call 6
		// comes a minute after call 5's reply: nothing more.
		{"micro:keep=1", [2][]int{{3}, {3}}},
		{"micro:keep=0", [2][]int{{3, 5}, {3, 5}}},
		// A gap of 62 minutes is not reached.
		{"micro:keep=0:gap=62", [2][]int{nil, nil}},
		{"full+micro:keep=0:gap=61", [2][]int{{3, 5}, {3, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			st, err := Parse(tt.spec, DefaultOptions())
			if err != nil {
				t.Fatal(err)
			}
			r := replayOne(t, microSession(), st, DefaultOptions())
			for k, call := range []int{5, 6} {
				var got []int
				for _, c := range r.Calls {
					if c.Call != call {
						continue
					}
					for _, p := range c.Parts {
						for m := p.From; m <= p.To && p.Sent == sentCleared; m++ {
							got = append(got, m)
						}
					}
				}
				if !reflect.DeepEqual(got, tt.cleared[k]) {
					t.Errorf("call %d: cleared %v, want %v", call, got, tt.cleared[k])
				}
			}
			for _, c := range r.Calls[:4] {
				for _, p := range c.Parts {
					if p.Sent == sentCleared {
						t.Errorf("call %d clears %+v before the gap", c.Call, p)
					}
				}
			}
		})
	}
}

// TestHarnessAbortedTurnEstimate: what an aborted turn added is gone,
// and what came after it counts. Call 1 sends 0, 1 (3 tokens); call 2
// adds reply 2 (5) and prompt 3 (3 at 4 characters a token): 11 < 15,
// it sends 0-3 (1 + 2 + 5 + 2 = 10). Turn 2 is aborted; call 3 adds
// only prompt 5 (40 characters, 10): 10 + 10 = 20 ≥ 15, turn 1 is
// folded and 5 kept. Counting from where the aborted turn ended would
// leave prompt 5 out and the estimate at 10.
func TestHarnessAbortedTurnEstimate(t *testing.T) {
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x(10), Turn: 1},
		{Role: "assistant", Text: x(20), Turn: 1},
		{Role: "user", Text: x(10), Turn: 2, Aborted: true},
		{Role: "assistant", Text: x(20), Turn: 2, Aborted: true},
		{Role: "user", Text: x(40), Turn: 3},
		{Role: "assistant", Text: x(20), Turn: 3},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	tr := &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 3}
	o := DefaultOptions()
	o.Summarizing.Distill = func(summary.Request) (string, error) { return "S", nil }
	st, err := Parse("claude-code:window=15:reserve=0:buffer=0", o)
	if err != nil {
		t.Fatal(err)
	}
	r := replayOne(t, tr, st, o)
	if got, want := windows(r), [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5}}; !reflect.DeepEqual(got, want) {
		t.Errorf("windows %v, want %v", got, want)
	}
	if len(r.Events) != 1 || r.Events[0].Call != 3 || !reflect.DeepEqual(r.Events[0].Folded, []int{1, 2}) || r.Events[0].MessagesBefore != 4 {
		t.Errorf("events %+v", r.Events)
	}
}
