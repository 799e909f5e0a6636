package window

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

func x(n int) string { return strings.Repeat("x", n) }

// small is the worked transcript of the tests. Characters per message
// (estimate tokens in brackets; a run of n letters is max(1, n/4) tokens,
// "{}" is 2 pieces):
//
//	0  system     3 [1]            turn 0
//	1  user      10 [2]            turn 1
//	2  assistant 20 [5]   call 1
//	3  user      10 [2]            turn 2
//	4  assistant  3 [3]   call 2   tool call t({}) = 1+2 chars
//	5  tool      30 [7]
//	6  assistant 20 [5]   call 3
//	7  user      10 [2]            turn 3, aborted
//	8  assistant  5 [1]   call 4
//	9  user      10 [2]            turn 4
//	10 assistant 20 [5]   call 5
//
// Turn sizes: T1 30 chars, T2 63, T3 15 (aborted), T4 30.
func small() *transcript.Transcript {
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x(10), Turn: 1},
		{Role: "assistant", Text: x(20), Turn: 1},
		{Role: "user", Text: x(10), Turn: 2},
		{Role: "assistant", Turn: 2, ToolCalls: []transcript.ToolCall{{ID: "c1", Name: "t", Arguments: "{}"}}},
		{Role: "tool", Text: x(30), Turn: 2, ToolCallID: "c1"},
		{Role: "assistant", Text: x(20), Turn: 2},
		{Role: "user", Text: x(10), Turn: 3, Aborted: true},
		{Role: "assistant", Text: x(5), Turn: 3, Aborted: true},
		{Role: "user", Text: x(10), Turn: 4},
		{Role: "assistant", Text: x(20), Turn: 4},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	return &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 4}
}

func replayOne(t *testing.T, tr *transcript.Transcript, s Strategy, o Options) Result {
	t.Helper()
	res, err := Replay(context.Background(), tr, []Strategy{s}, ReplayOptions{Options: o, Indices: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res[0].Calls {
		reply := replyIndex(tr, c.Call)
		if err := Check(tr, reply, c.Messages, res[0].Summarized(c.Call)); err != nil {
			t.Errorf("%s call %d: invalid window %v: %v", s, c.Call, c.Messages, err)
		}
	}
	return res[0]
}

// replyIndex finds the message that starts call n (1-based).
func replyIndex(tr *transcript.Transcript, n int) int {
	prev := ""
	for i, m := range tr.Messages {
		if m.Role == "assistant" && !m.Meta && (m.Call == "" || m.Call != prev) {
			n--
			if n == 0 {
				return i
			}
		}
		if m.Role == "assistant" {
			prev = m.Call
		}
	}
	return -1
}

func windows(r Result) [][]int {
	out := make([][]int, len(r.Calls))
	for i, c := range r.Calls {
		out[i] = c.Messages
	}
	return out
}

func TestStrategiesWorked(t *testing.T) {
	opt := func(f func(*Options)) Options {
		o := DefaultOptions()
		f(&o)
		return o
	}
	tests := []struct {
		name     string
		strategy Strategy
		opts     Options
		want     [][]int
	}{
		{"full", Full, DefaultOptions(), [][]int{
			{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 3, 4, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 9}}},
		// 50 chars: call 3 has T2 at 43, T1 (30) does not fit; calls 4
		// and 5 have a 10-char active turn, T2 (63) does not fit.
		{"windowed 50", Windowed, opt(func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(50), new(50) }), [][]int{
			{0, 1}, {0, 1, 2, 3}, {0, 3, 4, 5}, {0, 7}, {0, 9}}},
		// 80 chars: call 4 fits T2+T3 = 73, call 5 T2+T4 = 73.
		{"windowed 80", Windowed, opt(func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(80), new(80) }), [][]int{
			{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, {0, 3, 4, 5, 6, 7}, {0, 3, 4, 5, 6, 9}}},
		// 0 chars: the active turn alone, always whole.
		{"windowed 0", Windowed, opt(func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(0), new(0) }), [][]int{
			{0, 1}, {0, 3}, {0, 3, 4, 5}, {0, 7}, {0, 9}}},
		{"turn", TurnOnly, DefaultOptions(), [][]int{
			{0, 1}, {0, 3}, {0, 3, 4, 5}, {0, 7}, {0, 9}}},
		// head 1 keeps T1 from call 2 on; 20 chars fit only the active turn.
		{"sliding", Sliding, opt(func(o *Options) { o.Sliding.Head = new(1); o.Windowed.Chars, o.Sliding.Chars = new(20), new(20) }), [][]int{
			{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, {0, 1, 2, 7}, {0, 1, 2, 9}}},
	}
	// budget 12 tokens, per-message tokens in small()'s comment: T1 7, T2
	// 17, T4 7. At call 3 the pinned part is the system 1 and the prompt
	// 3's 2; of the 9 left, the tool call 4 and its result 5 (3+7 = 10,
	// one group) do not fit, the older turn 1 (7) does; at calls 4 and 5
	// T2 does not fit the 9 left, T1 does.
	tests = append(tests, struct {
		name     string
		strategy Strategy
		opts     Options
		want     [][]int
	}{"budget", Budget, opt(func(o *Options) { o.Select = engineSelector(engine.Budget{Total: 12}, engine.Options{}) }), [][]int{
		{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3}, {0, 1, 2, 7}, {0, 1, 2, 9}}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := replayOne(t, small(), tt.strategy, tt.opts)
			if got := windows(r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("windows = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestFullTokens(t *testing.T) {
	r := replayOne(t, small(), Full, DefaultOptions())
	// Sums of the bracketed token counts of small().
	want := []int{1 + 2, 1 + 2 + 5 + 2, 10 + 3 + 7, 20 + 5 + 2, 1 + 2 + 5 + 2 + 3 + 7 + 5 + 2}
	var got []int
	for _, c := range r.Calls {
		got = append(got, c.Tokens)
		if c.FullTokens != c.Tokens {
			t.Errorf("call %d: full tokens %d != tokens %d", c.Call, c.FullTokens, c.Tokens)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens = %v, want %v", got, want)
	}
	if r.Totals.TokensSent != 3+10+20+27+27 || r.Totals.SavedRatio != 0 || r.Totals.MaxCallTokens != 27 {
		t.Errorf("totals = %+v", r.Totals)
	}
	// Turn numbers and chars of call 5: 3+10+20+10+3+30+20+10.
	if c := r.Calls[4]; c.Turn != 4 || c.Chars != 106 || c.MessageCount != 8 {
		t.Errorf("call 5 = %+v", c)
	}
}

func TestUsageOverhead(t *testing.T) {
	tr := small()
	rec := 100
	tr.Messages[10].InputTokens = &rec
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(50), new(50)
	res, err := Replay(context.Background(), tr, []Strategy{Full, Windowed}, ReplayOptions{Options: o, ContextWindow: 50})
	if err != nil {
		t.Fatal(err)
	}
	full, win := res[0].Calls[4], res[1].Calls[4]
	if full.Tokens != 100 || !full.Recorded || !full.OverWindow {
		t.Errorf("full call 5 = %+v, want the record 100, over the window", full)
	}
	// Windowed counts 1+2 = 3; full counted 27, so the overhead is 73.
	if win.Tokens != 76 || win.FullTokens != 100 || !win.OverWindow {
		t.Errorf("windowed call 5 = %+v, want 76 tokens against 100", win)
	}
	if res[1].Totals.OverWindowCalls != 1 || res[0].Totals.OverWindowCalls != 1 {
		t.Errorf("over-window calls = %d, %d", res[0].Totals.OverWindowCalls, res[1].Totals.OverWindowCalls)
	}
	// Windowed sends 3+10+(1+3+7+2)+(1+2)+76 = 105 against 3+10+20+27+100 = 160.
	if res[1].Totals.TokensSent != 105 || res[1].Totals.TokensFull != 160 || res[1].Totals.SavedRatio != 0.344 {
		t.Errorf("windowed totals = %+v", res[1].Totals)
	}
}

func TestSummarizingReactive(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens = new(15)
	o.Summarizing.LowWaterChars = new(50)
	var got summary.Request
	o.Summarizing.Distill = func(req summary.Request) (string, error) {
		got = req
		return "summary", nil
	}
	r := replayOne(t, small(), Summarizing, o)
	// Call 3 sends 20 tokens (> 15): the compaction happens before call 4,
	// one call late. T3's 10 chars fit under 50, T2 (63) does not: T1 and
	// T2 (messages 1–6) are folded.
	want := [][]int{{0, 1}, {0, 1, 2, 3}, {0, 1, 2, 3, 4, 5}, {0, 7}, {0, 9}}
	if w := windows(r); !reflect.DeepEqual(w, want) {
		t.Errorf("windows = %v, want %v", w, want)
	}
	if len(r.Events) != 1 {
		t.Fatalf("events = %+v, want one compaction", r.Events)
	}
	ev := r.Events[0]
	wantEv := Event{Kind: "compaction", Turn: 3, Call: 4, Compaction: Compaction{
		MessagesBefore: 8, MessagesAfter: 2, SummaryChars: 7, Folded: []int{1, 2, 3, 4, 5, 6}}}
	if !reflect.DeepEqual(ev, wantEv) {
		t.Errorf("event = %+v, want %+v", ev, wantEv)
	}
	if got.Summary != "" || len(got.Messages) != 6 || got.MaxChars != defaultSummaryMaxChars {
		t.Errorf("distill request = %+v", got)
	}
	// Call 4: system 3 chars [1] + summary 7 [1] + message 7, 10 [2].
	if c := r.Calls[3]; c.Chars != 20 || c.Tokens != 4 || c.SummaryChars != 7 {
		t.Errorf("call 4 = %+v", c)
	}
	if r.Totals.Compactions != 1 {
		t.Errorf("compactions = %d", r.Totals.Compactions)
	}
}

func TestSummarizingDistillError(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens = new(1)
	o.Summarizing.LowWaterChars = new(0)
	o.Summarizing.Distill = func(summary.Request) (string, error) { return "", errors.New("exit status 3") }
	_, err := Replay(context.Background(), small(), []Strategy{Summarizing}, ReplayOptions{Options: o})
	if err == nil || err.Error() != "distill: exit status 3" {
		t.Fatalf("err = %v", err)
	}
}

func TestSummaryBounded(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens = new(0)
	o.Summarizing.LowWaterChars = new(0)
	o.Summarizing.SummaryMaxChars = new(5)
	o.Summarizing.Distill = func(summary.Request) (string, error) { return "ab€cdefgh", nil }
	r := replayOne(t, small(), Summarizing, o)
	for _, c := range r.Calls {
		if c.SummaryChars > 5 {
			t.Errorf("call %d: summary %d chars > 5", c.Call, c.SummaryChars)
		}
	}
	if r.Calls[2].SummaryChars != 5 {
		t.Errorf("call 3 summary chars = %d, want 5", r.Calls[2].SummaryChars)
	}
}

func TestTruncateToolResult(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		limit int
		want  string
	}{
		{"within", "abc", 3, "abc"},
		{"no limit", "abcdef", 0, "abcdef"},
		{"cut", x(30), 8, x(8) + "…[truncated: showing 8 of 30 bytes]"},
		// "é" is 2 bytes: a cut inside it backs off to 1 byte.
		{"rune boundary", "aéb", 2, "a…[truncated: showing 1 of 4 bytes]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := truncateToolResult(tt.in, tt.limit); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
	o := DefaultOptions()
	o.ToolResultLimit = 8
	r := replayOne(t, small(), Full, o)
	// Message 5 cut would be 8 + 35 chars ("…" and 34 of the bracket),
	// 11 estimate tokens against its 7: it is sent whole.
	if c := r.Calls[2]; c.Chars != 3+10+20+10+3+30 || len(c.Parts) != 1 || c.Parts[0].To != 5 || c.Parts[0].Sent != sentWhole {
		t.Errorf("call 3 chars = %d, parts %v", c.Chars, c.Parts)
	}
	// A 400-char result cut to 100 bytes: 100 + 38 chars, max(11 pieces,
	// 138/4) = 34 tokens against 100.
	tr := small()
	tr.Messages[5].Text = x(400)
	o.ToolResultLimit = 100
	r = replayOne(t, tr, Full, o)
	if p := r.Calls[2].Parts; len(p) != 2 || p[1] != (Part{From: 5, To: 5, Sent: sentTruncated, Chars: 138, Tokens: 34}) {
		t.Errorf("call 3 parts = %+v", p)
	}
}

// compacted is a transcript where the harness compacted its context in
// turn 2, after a tool call whose result comes after the summary:
//
//	0  system     3                turn 0
//	1  user      10                turn 1
//	2  assistant 20       call 1
//	3  user      10                turn 2
//	4  assistant  3       call 2   tool call c0: t({}) = 1+2 chars
//	5  user      15                harness summary (Meta), Compactions [5]
//	6  user      10                turn 3
//	7  tool       8                result to c0: its call came before the
//	                               summary, so it is never sent
//	8  assistant  3       call 3   tool call c1
//	9  tool      30                result to c1
//	10 assistant 20       call 4
//	11 user      10                turn 4
//	12 assistant 20       call 5
//	13 user      10                turn 5
//	14 assistant 20       call 6
//
// Retained after the summary: turn 2 is only 5 (15 chars), turn 3 is 6, 8,
// 9, 10 (10+3+30+20 = 63), turn 4 is 30, turn 5 is 30.
func compacted() *transcript.Transcript {
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x(10), Turn: 1},
		{Role: "assistant", Text: x(20), Turn: 1},
		{Role: "user", Text: x(10), Turn: 2},
		{Role: "assistant", Turn: 2, ToolCalls: []transcript.ToolCall{{ID: "c0", Name: "t", Arguments: "{}"}}},
		{Role: "user", Text: x(15), Turn: 2, Meta: true},
		{Role: "user", Text: x(10), Turn: 3},
		{Role: "tool", Text: x(8), Turn: 3, ToolCallID: "c0"},
		{Role: "assistant", Turn: 3, ToolCalls: []transcript.ToolCall{{ID: "c1", Name: "t", Arguments: "{}"}}},
		{Role: "tool", Text: x(30), Turn: 3, ToolCallID: "c1"},
		{Role: "assistant", Text: x(20), Turn: 3},
		{Role: "user", Text: x(10), Turn: 4},
		{Role: "assistant", Text: x(20), Turn: 4},
		{Role: "user", Text: x(10), Turn: 5},
		{Role: "assistant", Text: x(20), Turn: 5},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	return &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 5, Compactions: []int{5}}
}

func TestHarnessCompactionEveryStrategy(t *testing.T) {
	everything := func(h []Entry, _ int) ([]int, error) {
		out := make([]int, len(h))
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	nothing := func([]Entry, int) ([]int, error) { return nil, nil }
	tests := []struct {
		name string
		s    Strategy
		set  func(*Options)
		want [][]int
	}{
		// Calls 1 and 2 come before the summary; from call 3 on the
		// history is 5 and what follows, 7 left out.
		{"full", Full, nil, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 6, 8, 9, 10, 11}, {0, 5, 6, 8, 9, 10, 11, 12, 13}}},
		// A large window sends what full sends, not the turns before
		// the summary.
		{"windowed, large", Windowed, func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(1000), new(1000) }, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 6, 8, 9, 10, 11}, {0, 5, 6, 8, 9, 10, 11, 12, 13}}},
		// 70 chars: call 3 turn 2's 15 + 10 = 25; call 4 15 + 43 = 58;
		// call 5 turn 4's 10 + turn 3's 63 = 73 > 70; call 6 10 + 30 =
		// 40, + 63 = 103 > 70.
		{"windowed, 70", Windowed, func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(70), new(70) }, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 11}, {0, 11, 12, 13}}},
		{"turn", TurnOnly, nil, [][]int{{0, 1}, {0, 3}, {0, 6}, {0, 6, 8, 9}, {0, 11}, {0, 13}}},
		// The head turn counts from the first retained turn: from call
		// 3 on it is turn 2's retained part, the summary 5. Tail at 40
		// chars: call 5 turn 4's 10 + turn 3's 63 > 40; call 6 10 + 30
		// = 40 fits, + 63 does not.
		{"sliding", Sliding, func(o *Options) { o.Windowed.Chars, o.Sliding.Chars = new(40), new(40) }, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 11}, {0, 5, 11, 12, 13}}},
		// Without compacting, summarizing sends what full sends.
		{"summarizing, no fold", Summarizing, nil, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 6, 8, 9, 10, 11}, {0, 5, 6, 8, 9, 10, 11, 12, 13}}},
		// Compacting before every call, keeping only the active turn:
		// call 2 folds turn 1, call 3 folds only the retained 5 of turn
		// 2, call 4 has nothing to fold, call 5 folds turn 3, call 6
		// turn 4.
		{"summarizing, fold", Summarizing, func(o *Options) { o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(0), new(0) }, [][]int{{0, 1}, {0, 3}, {0, 6}, {0, 6, 8, 9}, {0, 11}, {0, 13}}},
		{"budget, everything", Budget, func(o *Options) { o.Select = everything }, [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 6, 8, 9, 10, 11}, {0, 5, 6, 8, 9, 10, 11, 12, 13}}},
		// Selecting nothing keeps the system part and the newest prompt.
		{"budget, nothing", Budget, func(o *Options) { o.Select = nothing }, [][]int{{0, 1}, {0, 3}, {0, 6}, {0, 6}, {0, 11}, {0, 13}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := DefaultOptions()
			if tt.set != nil {
				tt.set(&o)
			}
			r := replayOne(t, compacted(), tt.s, o)
			if got := windows(r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("windows\n got %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestHarnessCompactionFolds(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(0), new(0)
	r := replayOne(t, compacted(), Summarizing, o)
	// Before: the window's messages, system part included; after: the
	// same less the folded ones. Call 3 had 0, 5, 6 (3) and keeps 0, 6;
	// call 5 had 0, 6, 8, 9, 10, 11 (6) and keeps 0, 11.
	want := []struct {
		call, before, after int
		folded              []int
	}{
		{2, 4, 2, []int{1, 2}},
		{3, 3, 2, []int{5}},
		{5, 6, 2, []int{6, 8, 9, 10}},
		{6, 4, 2, []int{11, 12}},
	}
	if len(r.Events) != len(want) {
		t.Fatalf("events = %+v", r.Events)
	}
	for i, w := range want {
		e := r.Events[i]
		if e.Call != w.call || e.MessagesBefore != w.before || e.MessagesAfter != w.after || !reflect.DeepEqual(e.Folded, w.folded) {
			t.Errorf("event %d = call %d, %d → %d, folded %v; want call %d, %d → %d, folded %v",
				i, e.Call, e.MessagesBefore, e.MessagesAfter, e.Folded, w.call, w.before, w.after, w.folded)
		}
	}
}

func TestHarnessCompactionBudgetHistory(t *testing.T) {
	// The selector is offered only the retained entries: at call 4, the
	// system part, the summary and turn 3 so far (6, 8, 9), with the
	// active turn from position 2.
	var got [][]int
	var from []int
	o := DefaultOptions()
	o.Select = func(h []Entry, activeFrom int) ([]int, error) {
		idx := make([]int, len(h))
		for i, e := range h {
			idx[i] = e.Message.Index
		}
		got = append(got, idx)
		from = append(from, activeFrom)
		return nil, nil
	}
	replayOne(t, compacted(), Budget, o)
	want := [][]int{{0, 1}, {0, 1, 2, 3}, {0, 5, 6}, {0, 5, 6, 8, 9}, {0, 5, 6, 8, 9, 10, 11}, {0, 5, 6, 8, 9, 10, 11, 12, 13}}
	wantFrom := []int{1, 3, 2, 2, 6, 8}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(from, wantFrom) {
		t.Errorf("offered %v from %v\nwant %v from %v", got, from, want, wantFrom)
	}
}

func TestHarnessCompactionInTurn(t *testing.T) {
	tr := small()
	// The harness compacted in turn 4, after its prompt: a summary (Meta)
	// stands between the prompt 9 and the reply, now 11.
	sum := transcript.Message{Role: "user", Text: "summary of it", Turn: 4, Index: 10, Meta: true}
	last := tr.Messages[10]
	last.Index = 11
	tr.Messages = append(tr.Messages[:10], sum, last)
	tr.Compactions = []int{10}
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(1000), new(1000)
	o.Select = func(h []Entry, _ int) ([]int, error) { return []int{0, 1, 2, 3}, nil }
	// What the provider saw: the system part, the summary and what
	// follows; the prompt 9 came before the summary, so it is gone even
	// from the active turn.
	for _, s := range Strategies() {
		if got := replayOne(t, tr, s, o).Calls[4].Messages; !reflect.DeepEqual([]int(got), []int{0, 10}) {
			t.Errorf("%s after the harness compaction = %v", s, got)
		}
	}
	// A summary that opens a turn: the same.
	tr.Messages[10].Turn = 5
	tr.Messages[11].Turn = 5
	for _, s := range Strategies() {
		if got := replayOne(t, tr, s, o).Calls[4].Messages; !reflect.DeepEqual([]int(got), []int{0, 10}) {
			t.Errorf("%s, summary opening a turn = %v", s, got)
		}
	}
}

func TestHarnessCompactionAborted(t *testing.T) {
	tr := small()
	// The harness compacted in turn 3, which is then aborted: the summary
	// 8 goes with the turn, and turn 4 sees the history before it.
	sum := transcript.Message{Role: "user", Text: "summary of it", Turn: 3, Index: 8, Meta: true, Aborted: true}
	rest := slices.Clone(tr.Messages[8:])
	for i := range rest {
		rest[i].Index++
	}
	tr.Messages = append(append(tr.Messages[:8], sum), rest...)
	tr.Compactions = []int{8}
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(1000), new(1000)
	for _, s := range []Strategy{Full, Windowed, Sliding} {
		r := replayOne(t, tr, s, o)
		if got := r.Calls[3].Messages; !reflect.DeepEqual([]int(got), []int{0, 8}) {
			t.Errorf("%s in the aborted turn = %v", s, got)
		}
		if got := r.Calls[4].Messages; !reflect.DeepEqual([]int(got), []int{0, 1, 2, 3, 4, 5, 6, 10}) {
			t.Errorf("%s after the aborted turn = %v", s, got)
		}
	}
}

func TestCompactedContext(t *testing.T) {
	// The library lifecycle: a compaction drops what came before it for
	// windowed too, and a result to a call before it is not kept.
	c, err := openConversation(Windowed, Options{Windowed: WindowedSettings{Chars: new(1000)}})
	if err != nil {
		t.Fatal(err)
	}
	c.AddSystem(transcript.Message{Role: "system", Text: "SYS"})
	c.Begin(transcript.Message{Role: "user", Text: "fix it"})
	c.Add(transcript.Message{Role: "assistant", ToolCalls: []transcript.ToolCall{{ID: "c0", Name: "t", Arguments: "{}"}}})
	c.Compacted(transcript.Message{Role: "user", Text: "summary", Meta: true})
	c.Add(transcript.Message{Role: "tool", ToolCallID: "c0", Text: "late"})
	c.Commit()
	c.Begin(transcript.Message{Role: "user", Text: "next"})
	r, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range r.Messages {
		texts = append(texts, m.Text)
	}
	if r.System != "SYS" || !reflect.DeepEqual(texts, []string{"summary", "next"}) {
		t.Errorf("render = %q %q", r.System, texts)
	}
}

func TestEmptyAndSystemOnly(t *testing.T) {
	for _, tr := range []*transcript.Transcript{
		{Format: "harpe"},
		{Format: "harpe", Messages: []transcript.Message{{Role: "system", Text: "be brief"}}},
	} {
		for _, s := range []Strategy{Full, Windowed, Summarizing, TurnOnly, Sliding} {
			res, err := Replay(context.Background(), tr, []Strategy{s}, ReplayOptions{Options: DefaultOptions(), Indices: true})
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if res[0].Calls == nil || res[0].Events == nil || len(res[0].Calls) != 0 {
				t.Errorf("%s: calls %v events %v", s, res[0].Calls, res[0].Events)
			}
		}
	}
	c, _ := openConversation(Windowed, DefaultOptions())
	c.AddSystem(transcript.Message{Role: "system", Text: "be brief"})
	r, err := c.Render()
	if err != nil || r.System != "be brief" || r.Messages == nil || len(r.Messages) != 0 {
		t.Errorf("render = %+v, %v", r, err)
	}
}

func TestLifecycle(t *testing.T) {
	c, err := openConversation(Windowed, Options{Windowed: WindowedSettings{Chars: new(12)}})
	if err != nil {
		t.Fatal(err)
	}
	c.AddSystem(transcript.Message{Role: "system", Text: "S"})
	c.Begin(transcript.Message{Role: "user", Text: "hello"})
	c.Add(transcript.Message{Role: "assistant", Text: "hi"})
	c.Commit()
	c.Begin(transcript.Message{Role: "user", Text: "oops"})
	c.Abort()
	c.Begin(transcript.Message{Role: "user", Text: "again"})
	r, _ := c.Render()
	// hello+hi (7) + again (5) = 12 fits; "oops" was aborted.
	var got []string
	for _, m := range r.Messages {
		got = append(got, m.Text)
	}
	if r.System != "S" || !reflect.DeepEqual(got, []string{"hello", "hi", "again"}) {
		t.Errorf("rendered %q %v", r.System, got)
	}
}

func TestOptionsErrors(t *testing.T) {
	if _, err := Parse("sliding-window", Options{}); err == nil || !strings.Contains(err.Error(), "valid: full, windowed") {
		t.Errorf("err = %v", err)
	}
	if _, err := openConversation(Budget, DefaultOptions()); err == nil {
		t.Error("budget without a selector: no error")
	}
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(-1), new(-1)
	if _, err := openConversation(Windowed, o); err == nil {
		t.Error("negative window: no error")
	}
}

func ExampleReplay() {
	tr := &transcript.Transcript{Messages: []transcript.Message{
		{Index: 0, Role: "system", Text: "You are terse."},
		{Index: 1, Role: "user", Turn: 1, Text: "Name a prime."},
		{Index: 2, Role: "assistant", Turn: 1, Text: "7"},
		{Index: 3, Role: "user", Turn: 2, Text: "Another one?"},
		{Index: 4, Role: "assistant", Turn: 2, Text: "11"},
	}}
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(20), new(20)
	res, _ := Replay(context.Background(), tr, []Strategy{Full, Windowed}, ReplayOptions{Options: o, Indices: true})
	for _, r := range res {
		for _, c := range r.Calls {
			fmt.Println(r.Strategy, c.Call, c.Messages, c.Chars)
		}
	}
	// Output:
	// full 1 [0 1] 27
	// full 2 [0 1 2 3] 40
	// windowed 1 [0 1] 27
	// windowed 2 [0 3] 26
}

// TestConversationLifecycle: turn sends only the active turn, the
// system part always.
func TestConversationLifecycle(t *testing.T) {
	c, err := openConversation(TurnOnly, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	c.AddSystem(transcript.Message{Role: "system", Text: "You are terse."})
	c.Begin(transcript.Message{Role: "user", Text: "Name a prime."})
	c.Add(transcript.Message{Role: "assistant", Text: "7"})
	c.Commit()
	c.Begin(transcript.Message{Role: "user", Text: "Another one?"})
	r, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.System != "You are terse." || len(r.Messages) != 1 || r.Messages[0].Text != "Another one?" {
		t.Errorf("rendered %q and %+v, want the system part and the newest prompt alone", r.System, r.Messages)
	}
}

// TestConversationCompacted: the harness compacted after turn 1: even
// windowed, whose window would hold everything, now sends the summary
// and what follows.
func TestConversationCompacted(t *testing.T) {
	c, err := openConversation(Windowed, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	c.Begin(transcript.Message{Role: "user", Text: "Name a prime."})
	c.Add(transcript.Message{Role: "assistant", Text: "7"})
	c.Compacted(transcript.Message{Role: "user", Text: "Summary: we named 7.", Meta: true})
	c.Commit()
	c.Begin(transcript.Message{Role: "user", Text: "Another one?"})
	r, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Messages {
		got = append(got, string(m.Role)+" "+m.Text)
	}
	if want := []string{"user Summary: we named 7.", "user Another one?"}; !reflect.DeepEqual(got, want) {
		t.Errorf("rendered %q, want %q", got, want)
	}
}

func TestRenderSummary(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens = new(0)
	o.Summarizing.LowWaterChars = new(0)
	o.Summarizing.Distill = func(req summary.Request) (string, error) {
		return fmt.Sprintf("%d folded", len(req.Messages)), nil
	}
	c, _ := openConversation(Summarizing, o)
	c.AddSystem(transcript.Message{Role: "system", Text: "S"})
	c.Begin(transcript.Message{Role: "user", Text: "one"})
	c.Add(transcript.Message{Role: "assistant", Text: "1"})
	c.Observe(10) // over 0: compact before the next call
	c.Begin(transcript.Message{Role: "user", Text: "two"})
	r, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	if r.System != "S\n\n2 folded" || len(r.Messages) != 1 || r.Messages[0].Text != "two" {
		t.Errorf("rendered %q %+v", r.System, r.Messages)
	}
	if c.Summary() != "2 folded" {
		t.Errorf("summary %q", c.Summary())
	}
}

func TestReplayCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Replay(ctx, small(), []Strategy{Windowed}, ReplayOptions{Options: DefaultOptions()})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestHugeToolResult(t *testing.T) {
	tr := small()
	tr.Messages[5].Text = strings.Repeat("é", 5<<20) // 10 MB
	o := DefaultOptions()
	o.ToolResultLimit = 8001 // inside a 2-byte character: 8000 kept
	r := replayOne(t, tr, Full, o)
	marker := "…[truncated: showing 8000 of 10485760 bytes]"
	if c := r.Calls[2]; c.Chars != 3+10+20+10+3+4000+utf8.RuneCountInString(marker) {
		t.Errorf("call 3 chars = %d", c.Chars)
	}
}

// TestHarnessCompactionDropsRollingSummary: after the harness compacts, the
// rolling summary (which covered turns the harness's summary now covers) is
// dropped, so the call sends the harness summary and what follows only.
func TestHarnessCompactionDropsRollingSummary(t *testing.T) {
	o := DefaultOptions()
	o.Summarizing.HighWaterTokens = new(0)
	o.Summarizing.LowWaterChars = new(0)
	o.Summarizing.Distill = func(req summary.Request) (string, error) {
		return fmt.Sprintf("%d folded", len(req.Messages)), nil
	}
	c, _ := openConversation(Summarizing, o)
	c.AddSystem(transcript.Message{Role: "system", Text: "S"})
	c.Begin(transcript.Message{Role: "user", Text: "one"})
	c.Add(transcript.Message{Role: "assistant", Text: "1"})
	c.Observe(10)
	c.Begin(transcript.Message{Role: "user", Text: "two"})
	if _, err := c.Render(); err != nil { // folds turn one: "2 folded"
		t.Fatal(err)
	}
	c.Compacted(transcript.Message{Role: "user", Text: "harness summary", Meta: true})
	c.Add(transcript.Message{Role: "assistant", Text: "2"})
	r, err := c.Render()
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range r.Messages {
		texts = append(texts, m.Text)
	}
	if c.Summary() != "" || r.System != "S" || !reflect.DeepEqual(texts, []string{"harness summary", "2"}) {
		t.Errorf("summary %q, rendered %q %q", c.Summary(), r.System, texts)
	}
}

// TestBaseline: every strategy answers Baseline; one that is a baseline
// under another name is reported as full is, by the reference run with
// the record (call 5 of small() records 100 tokens; counted, full's
// window is 27), streamed or not.
func TestBaseline(t *testing.T) {
	for _, c := range []struct {
		s    Strategy
		want bool
	}{
		{Full, true}, {fullStrategy{}, true}, {withEdits{Base: fullStrategy{}, Label: "all"}, true},
		{withEdits{Base: fullStrategy{}, Edits: []edit{maskEdit{Keep: 1}}}, false},
		{Windowed, false}, {TurnOnly, false}, {Sliding, false}, {Summarizing, false},
		{Budget, false}, {cheapestStrategy{}, false}, {windowedStrategy{}, false},
	} {
		if got := c.s.Baseline(); got != c.want {
			t.Errorf("%s: Baseline() = %v, want %v", c.s.Name(), got, c.want)
		}
	}
	tr := small()
	rec := 100
	tr.Messages[10].InputTokens = &rec
	all := withEdits{Base: fullStrategy{}, Label: "all"}
	for _, stream := range []bool{false, true} {
		opts := ReplayOptions{Options: DefaultOptions()}
		var streamed []int
		if stream {
			opts.OnCall = func(s string, c *Call, _ *Event) error {
				if s == "all" {
					streamed = append(streamed, c.Tokens)
				}
				return nil
			}
		}
		res, err := Replay(context.Background(), tr, []Strategy{all}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res[0].Strategy != "all" || res[0].Totals.TokensSent != 3+10+20+27+100 || res[0].Totals.TokensFull != 160 {
			t.Errorf("stream=%v: %s totals %+v, want 160 sent of 160", stream, res[0].Strategy, res[0].Totals)
		}
		if stream && !reflect.DeepEqual(streamed, []int{3, 10, 20, 27, 100}) {
			t.Errorf("streamed tokens %v", streamed)
		}
	}
}
