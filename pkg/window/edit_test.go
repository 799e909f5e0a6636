package window

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

// agent is the agent loop of testdata/script/replay_edits.txtar, with
// arguments on the tool calls:
//
//	0  system     SYS                     1 token
//	1  user       8 x                     2       turn 1
//	2  assistant  grep({"p":"aaaa"})      1+9     call 1, c1
//	3  tool       400 x                   100
//	4  assistant  read({"p":"aaaa"})      1+9     call 2, c2
//	5  tool       200 x                   50
//	6  assistant  grep({"p":"aaaa"})      1+9     call 3, c3
//	7  tool       120 x                   30
//	8  assistant  8 x                     2       call 4
//
// {"p":"aaaa"} is 9 pieces and 12 chars: 9 tokens; "{}" is 2.
func agent() *transcript.Transcript {
	args := `{"p":"aaaa"}`
	call := func(id, name string) transcript.Message {
		return transcript.Message{Role: "assistant", Turn: 1, ToolCalls: []transcript.ToolCall{{ID: id, Name: name, Arguments: args}}}
	}
	msgs := []transcript.Message{
		{Role: "system", Text: "SYS"},
		{Role: "user", Text: x(8), Turn: 1},
		call("c1", "grep"),
		{Role: "tool", Text: x(400), Turn: 1, ToolCallID: "c1"},
		call("c2", "read"),
		{Role: "tool", Text: x(200), Turn: 1, ToolCallID: "c2"},
		call("c3", "grep"),
		{Role: "tool", Text: x(120), Turn: 1, ToolCallID: "c3"},
		{Role: "assistant", Text: x(8), Turn: 1},
	}
	for i := range msgs {
		msgs[i].Index = i
	}
	return &transcript.Transcript{Format: "harpe", Messages: msgs, Turns: 1}
}

// renderAll drives a context through tr (one turn, no aborts) and renders
// before each assistant message.
func renderAll(t *testing.T, s Strategy, tr *transcript.Transcript) []Rendered {
	t.Helper()
	c, err := openConversation(s, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var out []Rendered
	for _, m := range tr.Messages {
		switch {
		case m.Role == "system":
			c.AddSystem(m)
		case m.Role == "user":
			c.Begin(m)
		default:
			if m.Role == "assistant" {
				r, err := c.Render()
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
			c.Add(m)
		}
	}
	return out
}

func TestRenderPlaceholders(t *testing.T) {
	// Mask, keep 1: before call 3 two calls used tools, c1's result is
	// masked; before call 4, c2's too.
	r := renderAll(t, withEdits{Base: fullStrategy{}, Edits: []edit{maskEdit{Keep: 1}}}, agent())
	texts := func(r Rendered) []string {
		var out []string
		for _, m := range r.Messages {
			if m.Role == "tool" {
				out = append(out, m.Text[:min(len(m.Text), 60)])
			}
		}
		return out
	}
	want := [][]string{nil, {x(60)}, {"[output of grep omitted: 1 line, 400 chars]", x(60)},
		{"[output of grep omitted: 1 line, 400 chars]", "[output of read omitted: 1 line, 200 chars]", x(60)}}
	for i := range want {
		if got := texts(r[i]); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("mask call %d results = %q, want %q", i+1, got, want[i])
		}
	}
	// Clear with inputs, trigger 100, keep 1. Full: call 2 1+2+10+100 =
	// 113 > 100 with one result, the kept one; call 3 113+10+50 = 173
	// clears c1's result (100 → 5) and its arguments (9 → 2).
	clr := withEdits{Base: fullStrategy{}, Edits: []edit{clearEdit{Trigger: 100, Keep: 1, ClearInputs: true}}}
	r = renderAll(t, clr, agent())
	if got := r[1].Messages[1].ToolCalls[0].Arguments; got != `{"p":"aaaa"}` {
		t.Errorf("call 2 arguments = %q", got)
	}
	m := r[2].Messages
	if m[1].ToolCalls[0].Arguments != clearedInput || m[2].Text != clearedPlaceholder || m[4].Text != x(200) {
		t.Errorf("call 3 = %+v", m)
	}
	if m[1].ToolCalls[0].Name != "grep" || m[2].ToolCallID != "c1" {
		t.Errorf("cleared call lost its name or id: %+v", m[:3])
	}
	res, err := Replay(context.Background(), agent(), []Strategy{Full, clr}, ReplayOptions{Options: DefaultOptions(), Indices: true})
	if err != nil {
		t.Fatal(err)
	}
	// Call 3: 173 - 95 - 7 = 71; call 4: 173+10+30 = 213 - 102 = 111 >
	// 100 clears c2's result (50 → 5) and arguments (9 → 2): 59.
	var got []int
	for _, c := range res[1].Calls {
		got = append(got, c.Tokens)
	}
	if want := []int{3, 113, 71, 59}; !reflect.DeepEqual(got, want) {
		t.Errorf("clear with inputs tokens = %v, want %v", got, want)
	}
	// Call 3's parts: 0-1 whole, then the call 2 (grep and "{}": 4+2
	// chars, 1+2 tokens) and its result 3 (21 chars, 5 tokens) cleared,
	// then 4-5 whole.
	if p := res[1].Calls[2].Parts; len(p) != 3 || p[1] != (Part{From: 2, To: 3, Sent: sentCleared, Chars: 6 + 21, Tokens: 3 + 5}) {
		t.Errorf("call 3 parts = %+v", p)
	}
}

func TestParse(t *testing.T) {
	o := DefaultOptions()
	o.ToolResultLimit = 0
	tests := []struct {
		spec string
		want Strategy
		err  string
	}{
		{"full", fullStrategy{}, ""},
		{"windowed:chars=40", withEdits{Base: windowedStrategy{Chars: 40}, Label: "windowed:chars=40"}, ""},
		{"summarizing+mask", withEdits{Base: summarizingStrategy{HighWaterTokens: defaultHighWaterTokens, LowWaterChars: defaultLowWaterChars, SummaryMaxChars: defaultSummaryMaxChars},
			Edits: []edit{maskEdit{Keep: 10}}, Label: "summarizing+mask"}, ""},
		{"clear:exclude=Read/Grep:inputs", withEdits{Base: fullStrategy{}, Edits: []edit{clearEdit{Trigger: 100000, Keep: 3, ExcludeTools: []string{"Read", "Grep"}, ClearInputs: true}},
			Label: "clear:exclude=Read/Grep:inputs"}, ""},
		{"sliding:head=2:chars=10+limit:bytes=5", withEdits{Base: slidingStrategy{Head: 2, Chars: 10}, Edits: []edit{truncateEdit{Bytes: 5}}, Label: "sliding:head=2:chars=10+limit:bytes=5"}, ""},
		{"", nil, "empty strategy"},
		{"nope", nil, `unknown strategy "nope"`},
		{"mask+windowed", nil, `"windowed" is not an edit`},
		{"turn:x=1", nil, `unknown setting "x"; this one takes none`},
		{"clear:keep=-1", nil, "keep=-1: want a whole number ≥ 0"},
		{"clear:keep=1:keep=2", nil, `setting "keep" given twice`},
		{"limit", nil, "needs bytes=N"},
		{"budget", nil, "needs a selector or a budget"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := Parse(tt.spec, o)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

// TestConcurrentReplays replays several conversations at once through the
// same strategy values, budget included: each gets its own state, so the
// results equal a replay one at a time (and go test -race finds no race).
func TestConcurrentReplays(t *testing.T) {
	o := DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(4000), new(4000)
	o.Summarizing.HighWaterTokens = new(2000)
	o.Summarizing.LowWaterChars = new(3000)
	o.Budget = engine.Budget{Total: 3000}
	strategies := []Strategy{}
	for _, spec := range []string{"full", "windowed+clear:trigger=2000", "summarizing+mask:keep=3", "budget", "budget+mask", "sliding", "turn"} {
		s, err := Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	var trs []*transcript.Transcript
	for seed := range uint64(6) {
		trs = append(trs, transcriptgen.Generate(transcriptgen.Config{Seed: seed + 1, Turns: 40, AbortEvery: 7, CompactEvery: 9, Usage: true, Overhead: 300}))
	}
	want := make([][]Result, len(trs))
	for i, tr := range trs {
		res, err := Replay(context.Background(), tr, strategies, ReplayOptions{Options: o, Indices: true})
		if err != nil {
			t.Fatal(err)
		}
		want[i] = res
	}
	got := make([][]Result, len(trs))
	errs := make([]error, len(trs))
	var wg sync.WaitGroup
	for i, tr := range trs {
		wg.Go(func() {
			got[i], errs[i] = Replay(context.Background(), tr, strategies, ReplayOptions{Options: o, Indices: true})
		})
	}
	wg.Wait()
	for i := range trs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("transcript %d: concurrent replay differs", i)
		}
	}
}

func TestRenderCallInternal(t *testing.T) {
	mask := withEdits{Base: fullStrategy{}, Edits: []edit{maskEdit{Keep: 1}}}
	r, c, err := renderCall(context.Background(), agent(), mask, ReplayOptions{Options: DefaultOptions()}, 4)
	if err != nil {
		t.Fatal(err)
	}
	// As TestRenderPlaceholders' fourth call.
	if r.System != "SYS" || len(r.Messages) != 7 || r.Messages[2].Text != "[output of grep omitted: 1 line, 400 chars]" || r.Messages[6].Text != x(120) {
		t.Errorf("rendered %+v", r)
	}
	// Runs: 0-2 whole, 3 masked, 4 whole, 5 masked, 6-7 whole.
	if c.Call != 4 || len(c.Parts) != 5 || c.Parts[1] != (Part{From: 3, To: 3, Sent: sentMasked, Chars: 43, Tokens: 12}) || c.Parts[3].Sent != sentMasked {
		t.Errorf("call %+v", c)
	}
	if _, _, err := renderCall(context.Background(), agent(), mask, ReplayOptions{Options: DefaultOptions()}, 5); err == nil || !strings.Contains(err.Error(), "has 4 calls") {
		t.Errorf("err = %v", err)
	}
}

// TestReplayStreamed: with OnCall and OnResult, Replay hands on the same
// calls, events and totals it returns without them, in strategy order, and
// keeps no calls.
func TestReplayStreamed(t *testing.T) {
	o := DefaultOptions()
	o.Windowed.Chars, o.Summarizing.HighWaterTokens, o.Summarizing.LowWaterChars = new(4000), new(2000), new(3000)
	o.Budget = engine.Budget{Total: 3000}
	var strategies []Strategy
	for _, spec := range []string{"windowed+clear:trigger=2000", "full", "summarizing+mask:keep=3", "budget", "full+limit:bytes=300"} {
		s, err := Parse(spec, o)
		if err != nil {
			t.Fatal(err)
		}
		strategies = append(strategies, s)
	}
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 3, Turns: 40, AbortEvery: 7, CompactEvery: 9, Usage: true, Overhead: 300})
	want, err := Replay(context.Background(), tr, strategies, ReplayOptions{Options: o, Indices: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []Result
	cur := -1
	opts := ReplayOptions{Options: o, Indices: true,
		OnCall: func(s string, c *Call, ev *Event) error {
			if cur < 0 || got[cur].Totals.Calls >= 0 {
				// A strategy starts: Calls -1 marks it open.
				got = append(got, Result{Strategy: s, Totals: Totals{Calls: -1}})
				cur = len(got) - 1
			}
			cp := *c // its parts and indices are reused by the next call
			cp.Parts, cp.Messages = slices.Clone(c.Parts), slices.Clone(c.Messages)
			got[cur].Calls = append(got[cur].Calls, cp)
			if ev != nil && (len(got[cur].Events) == 0 || got[cur].Events[len(got[cur].Events)-1].Call != ev.Call) {
				got[cur].Events = append(got[cur].Events, *ev)
			}
			return nil
		},
		OnResult: func(r *Result) error {
			if len(r.Calls) != 0 {
				t.Errorf("%s: %d calls kept", r.Strategy, len(r.Calls))
			}
			if cur < 0 || got[cur].Totals.Calls >= 0 {
				got = append(got, Result{Strategy: r.Strategy, Calls: []Call{}})
				cur = len(got) - 1
			}
			if got[cur].Strategy != r.Strategy {
				t.Fatalf("result of %s after calls of %s", r.Strategy, got[cur].Strategy)
			}
			if got[cur].Events == nil {
				got[cur].Events = []Event{}
			}
			if !reflect.DeepEqual(got[cur].Events, r.Events) {
				t.Errorf("%s: events streamed %v, returned %v", r.Strategy, got[cur].Events, r.Events)
			}
			got[cur].Totals = r.Totals
			return nil
		}}
	if _, err := Replay(context.Background(), tr, strategies, opts); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d results streamed, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%s: streamed result differs (calls %d/%d, totals %+v / %+v)", want[i].Strategy, len(got[i].Calls), len(want[i].Calls), got[i].Totals, want[i].Totals)
		}
	}
}

// TestReplayStreamedEmptyWindow: a call whose window is empty (a session
// that opens on a tool result whose call is not in the file, as a
// resumed Claude Code session does) hands OnCall messages and parts that
// are empty, not nil, so that the JSON report says [] as the kept calls
// do, not null.
func TestReplayStreamedEmptyWindow(t *testing.T) {
	in := `{"type":"tool_result","tool_call_id":"call_9","content":"stale"}
{"type":"assistant","content":"Done."}
{"type":"usage","input_tokens":95}
`
	ts, err := transcript.Read(strings.NewReader(in), "e.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	full, err := Parse("full", DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	opts := ReplayOptions{Options: DefaultOptions(), Indices: true, OnCall: func(_ string, c *Call, _ *Event) error {
		calls++
		if c.Messages == nil || c.Parts == nil {
			t.Errorf("call %d: messages %#v, parts %#v; want empty, not nil", c.Call, c.Messages, c.Parts)
		}
		return nil
	}}
	if _, err := Replay(context.Background(), ts[0], []Strategy{full}, opts); err != nil {
		t.Fatal(err)
	}
	if calls != 1 {
		t.Errorf("%d calls, want 1", calls)
	}
}
