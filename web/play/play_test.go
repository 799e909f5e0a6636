package play

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/dates"
	"github.com/harpe-dev/harpe/report"
)

// answer decodes an Answer's JSON, failing on anything that is not one.
func answer(t *testing.T, out string) (result json.RawMessage, errMsg string) {
	t.Helper()
	var a struct {
		Result json.RawMessage `json:"result"`
		Error  string          `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		t.Fatalf("not JSON: %v: %s", err, out)
	}
	if (a.Result == nil) == (a.Error == "") {
		t.Fatalf("want exactly one of result and error: %s", out)
	}
	return a.Result, a.Error
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestSynthesizeSample checks the README's worked example: agent.jsonl at
// --budget 1200 --reserve-output 200 --safety-margin 5% (940 available),
// whose table the README works out by hand.
func TestSynthesizeSample(t *testing.T) {
	args := mustJSON(t, SynthesizeArgs{Items: readFile(t, "../../testdata/items/agent.jsonl"), Budget: 1200, ReserveOutput: 200, SafetyMargin: "5%"})
	res, msg := answer(t, Call("synthesize", args))
	if msg != "" {
		t.Fatal(msg)
	}
	var got SynthesizeResult
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id, status, reason string
		tokens             int
	}{
		{"sys", "kept", "pinned", 19},
		{"goal", "kept", "priority_zero", 14},
		{"mem-1", "kept", "selected", 13},
		{"mem-2", "kept", "selected", 10},
		{"call-1", "kept", "selected", 12},
		{"result-1", "kept", "selected", 420},
		{"call-2", "kept", "selected", 13},
		{"result-2", "kept", "selected", 180},
		{"doc-1", "dropped", "did_not_fit", 300},
		{"doc-2", "dropped", "did_not_fit", 260},
		{"doc-3", "dropped", "did_not_fit", 350},
		{"secret", "dropped", "confidential", 0},
		{"hist-1", "kept", "selected", 150},
	}
	if len(got.Rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(got.Rows), len(want), got.Rows)
	}
	for i, w := range want {
		r := got.Rows[i]
		if r.ID != w.id || r.Status != w.status || string(r.Reason) != w.reason || r.Tokens != w.tokens {
			t.Errorf("row %d = %+v, want %+v", i, r, w)
		}
	}
	rep := got.Report
	if rep.Budget.Available != 940 || rep.ConsumedTokens != 831 || rep.RemainingTokens != 109 || rep.Input.Tokens != 1741 {
		t.Errorf("totals: available %d consumed %d remaining %d input %d, want 940 831 109 1741",
			rep.Budget.Available, rep.ConsumedTokens, rep.RemainingTokens, rep.Input.Tokens)
	}
}

// TestSynthesizeBudget2000 works a bigger budget by hand: 2000 − 200 − 100
// = 1700 available. Always kept 33; the two tool groups 625, mem-1 and
// mem-2 23 (681); doc-1 and doc-2 (priority 7) 560 → 1241; doc-3 350 →
// 1591; hist-1 (150) would make 1741 > 1700 and is dropped, 109 left.
func TestSynthesizeBudget2000(t *testing.T) {
	got, err := Synthesize(SynthesizeArgs{Items: readFile(t, "../../testdata/items/agent.jsonl"), Budget: 2000, ReserveOutput: 200, SafetyMargin: "5%"})
	if err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, r := range got.Rows {
		status[r.ID] = r.Status + "/" + string(r.Reason)
	}
	for id, want := range map[string]string{"doc-1": "kept/selected", "doc-2": "kept/selected", "doc-3": "kept/selected", "hist-1": "dropped/did_not_fit", "secret": "dropped/confidential"} {
		if status[id] != want {
			t.Errorf("%s: %s, want %s", id, status[id], want)
		}
	}
	if got.Report.ConsumedTokens != 1591 || got.Report.RemainingTokens != 109 {
		t.Errorf("consumed %d remaining %d, want 1591 109", got.Report.ConsumedTokens, got.Report.RemainingTokens)
	}
}

// TestSynthesizeHand is a three-item case with token counts given: budget
// 100, reserve 10 → 90 available; a (pinned, 50) kept, b (priority 1, 30)
// fits (80), c (priority 2, 20) would make 100 and is dropped with 10 left.
func TestSynthesizeHand(t *testing.T) {
	items := `{"id":"a","pinned":true,"token_count":50,"content":"x"}
{"id":"b","priority":1,"token_count":30,"content":"y"}
{"id":"c","priority":2,"token_count":20,"content":"z"}
`
	got, err := Synthesize(SynthesizeArgs{Items: items, Budget: 100, ReserveOutput: 10})
	if err != nil {
		t.Fatal(err)
	}
	want := []Row{
		{ID: "a", Status: "kept", Reason: "pinned", Tokens: 50, Priority: 10},
		{ID: "b", Status: "kept", Reason: "selected", Tokens: 30, Priority: 1},
		{ID: "c", Status: "dropped", Reason: "did_not_fit", Tokens: 20, Priority: 2, Needed: 20, Left: 10},
	}
	if mustJSON(t, got.Rows) != mustJSON(t, want) {
		t.Errorf("rows\n got %s\nwant %s", mustJSON(t, got.Rows), mustJSON(t, want))
	}
}

func TestCallErrors(t *testing.T) {
	items := `{"id":"a","content":"x"}` + "\n"
	tests := []struct {
		name, fn, args, want string
	}{
		{"unknown function", "fit", `{}`, `unknown function "fit"; valid: count, dates, info, replay, synthesize`},
		{"not JSON", "synthesize", `{budget:`, "arguments: invalid character"},
		{"not an object", "count", `[1]`, "arguments: json: cannot unmarshal array"},
		{"two values", "count", `{} {}`, "arguments: more than one JSON value"},
		{"unknown field", "synthesize", `{"budgett":5}`, `arguments: json: unknown field "budgett"`},
		{"wrong type", "synthesize", `{"budget":"5"}`, "arguments: json: cannot unmarshal string"},
		{"negative budget", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: -1}), "budget: must be ≥ 0, got -1"},
		{"negative reserve", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 9, ReserveOutput: -2}), "reserve_output: must be ≥ 0, got -2"},
		{"reserves over budget", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 4, ReserveTools: 5}),
			"budget: reserves (0 output + 5 tools + 0 safety margin = 5) exceed the budget of 4"},
		{"bad margin", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 9, SafetyMargin: "lots"}), "safety_margin:"},
		{"bad policy", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 9, Policy: "cheapest"}), "policy:"},
		{"bad destination", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 9, Destination: "mars"}), `destination: unknown destination "mars"`},
		{"bad tokenizer", "synthesize", mustJSON(t, SynthesizeArgs{Items: items, Budget: 9, Tokenizer: "p50k"}), `unknown tokenizer "p50k"`},
		{"bad item line", "synthesize", mustJSON(t, SynthesizeArgs{Items: items + "{\"id\":\n", Budget: 9}), "items.jsonl:2:"},
		{"item name", "synthesize", mustJSON(t, SynthesizeArgs{Items: "nope\n", Name: "mine.jsonl", Budget: 9}), "mine.jsonl:1:"},
		{"no said_on", "dates", `{"text":"yesterday"}`, "said_on: required"},
		{"bad said_on", "dates", `{"text":"x","said_on":"20/05/2023"}`, `said_on: "20/05/2023" is not a date`},
		{"February 30", "dates", `{"text":"x","said_on":"2023-02-30"}`, `said_on: "2023-02-30": day 30 is out of range`},
		{"bad strategy", "replay", `{"transcript":"","strategies":["greedy"]}`, "strategies:"},
		{"bad format", "replay", `{"transcript":"","format":"word"}`, `format: unknown format "word"`},
		{"budget strategy without budget", "replay", `{"transcript":"","strategies":["budget"]}`, "budget: the budget strategy needs a budget"},
		{"bad transcript", "replay", `{"transcript":"{\"role\":","name":"t.jsonl"}`, "t.jsonl:"},
		{"unknown conversation", "replay", `{"transcript":"","conversation":"c9"}`, "conversation:"},
		{"negative window chars", "replay", `{"transcript":"","window_chars":-1}`, "window_chars: must be a whole number ≥ 0, got -1"},
		{"negative context window", "replay", `{"transcript":"","context_window":-2}`, "context_window: must be a whole number ≥ 0, got -2"},
		{"negative budget", "replay", `{"transcript":"","budget":-3}`, "budget: must be a whole number ≥ 0, got -3"},
		{"bad policy", "replay", `{"transcript":"","strategies":["budget"],"budget":5,"policy":"nope"}`, `policy: unknown policy "nope"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, msg := answer(t, Call(tt.fn, tt.args))
			if !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want one containing %q", msg, tt.want)
			}
			if strings.Contains(msg, "internal error") {
				t.Errorf("a panic was recovered: %s", msg)
			}
		})
	}
}

// TestCallRecovers checks that a panic below Call is an error value.
func TestCallRecovers(t *testing.T) {
	handlers["boom"] = func([]byte) (any, error) { panic("kaboom") }
	defer delete(handlers, "boom")
	_, msg := answer(t, Call("boom", "{}"))
	if msg != "internal error in boom: kaboom" {
		t.Errorf("error %q", msg)
	}
}

// TestDates checks the dates package's own worked example through the
// binding: said on 2023-05-20 (a Saturday), yesterday is 2023-05-19 and
// three weeks ago 2023-04-29.
func TestDates(t *testing.T) {
	got, err := Dates(DatesArgs{Text: "I ran yesterday and three weeks ago.", SaidOn: "2023-05-20"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Text != "I ran yesterday (2023-05-19) and three weeks ago (2023-04-29)." {
		t.Errorf("text %q", got.Text)
	}
	want := []Span{
		{dates.ReportSpan{Start: 6, End: 15, Phrase: "yesterday", Date: "2023-05-19", EndDate: "2023-05-19"}, "2023-05-19"},
		{dates.ReportSpan{Start: 20, End: 35, Phrase: "three weeks ago", Date: "2023-04-29", EndDate: "2023-04-29"}, "2023-04-29"},
	}
	if mustJSON(t, got.Spans) != mustJSON(t, want) {
		t.Errorf("spans\n got %s\nwant %s", mustJSON(t, got.Spans), mustJSON(t, want))
	}
}

// TestReplayWorked checks docs/replay.md's hand-worked example,
// testdata/replay/worked.jsonl with --window-chars 50: tokens per call
// full 3 10 20 27 27 (87), windowed 3 10 13 3 3 (32), turn 3 3 13 3 3 (25).
func TestReplayWorked(t *testing.T) {
	res, msg := answer(t, Call("replay", mustJSON(t, ReplayArgs{
		Transcript: readFile(t, "../../testdata/replay/worked.jsonl"), Strategies: []string{"full", "windowed", "turn"}, WindowChars: 50})))
	if msg != "" {
		t.Fatal(msg)
	}
	var got ReplayResult
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	if got.Format != "harpe" || got.Messages != 11 || got.Turns != 4 || got.Conversations != 1 {
		t.Errorf("transcript %s, %d messages, %d turns, %d conversations; want harpe, 11, 4, 1", got.Format, got.Messages, got.Turns, got.Conversations)
	}
	want := map[string]string{"full": "[3,10,20,27,27] 87", "windowed": "[3,10,13,3,3] 32", "turn": "[3,3,13,3,3] 25"}
	if len(got.Strategies) != 3 {
		t.Fatalf("%d strategies", len(got.Strategies))
	}
	for _, s := range got.Strategies {
		if g := mustJSON(t, s.Tokens) + " " + mustJSON(t, s.TokensSent); g != want[s.Strategy] {
			t.Errorf("%s: %s, want %s", s.Strategy, g, want[s.Strategy])
		}
	}
	if !strings.HasPrefix(got.Plot, "<svg") || !strings.Contains(got.Plot, "windowed") {
		t.Errorf("plot is not an SVG with the series: %.80s", got.Plot)
	}
	// harpe replay --plot's title: the file (the default name), then
	// the transcript.
	if title := "Tokens per call: transcript (harpe transcript, 4 turns)"; !strings.Contains(got.Plot, title) {
		t.Errorf("plot has no title %q", title)
	}
}

// TestReplayReport checks the report the playground gives on request:
// the worked example's, whose tokens per call are worked by hand above,
// as harpe replay --format json writes it.
func TestReplayReport(t *testing.T) {
	res, msg := answer(t, Call("replay", mustJSON(t, ReplayArgs{
		Transcript: readFile(t, "../../testdata/replay/worked.jsonl"), Strategies: []string{"full", "windowed"}, WindowChars: 50, Report: true})))
	if msg != "" {
		t.Fatal(msg)
	}
	var got struct {
		Report report.Replay `json:"report"`
	}
	if err := json.Unmarshal(res, &got); err != nil {
		t.Fatal(err)
	}
	rep := got.Report
	if rep.Transcript.Format != "harpe" || rep.Transcript.Messages != 11 || len(rep.Strategies) != 2 {
		t.Fatalf("report of %+v with %d strategies; want harpe, 11 messages, 2", rep.Transcript, len(rep.Strategies))
	}
	want := map[string][]int{"full": {3, 10, 20, 27, 27}, "windowed": {3, 10, 13, 3, 3}}
	for _, r := range rep.Strategies {
		var tokens []int
		for _, c := range r.Calls {
			tokens = append(tokens, c.Tokens)
			if len(c.Messages) == 0 {
				t.Errorf("%s call %d: no message indices", r.Strategy, c.Call)
			}
		}
		if mustJSON(t, tokens) != mustJSON(t, want[r.Strategy]) {
			t.Errorf("%s: tokens %v, want %v", r.Strategy, tokens, want[r.Strategy])
		}
	}
	// Without it, no report.
	res, _ = answer(t, Call("replay", mustJSON(t, ReplayArgs{Transcript: readFile(t, "../../testdata/replay/worked.jsonl")})))
	if strings.Contains(string(res), `"report"`) {
		t.Error("a report without asking")
	}
}

// TestEncodings runs in one order on purpose: before LoadEncoding the
// exact counts are per-tokenizer errors (the estimate still shows), after
// it they are tiktoken's. "Hello, world! It's 2026." is 9 tokens by the
// estimate, 9 in o200k_base and 10 in cl100k_base (pkg/tokenize's
// example, checked there against tiktoken).
func TestEncodings(t *testing.T) {
	before := Count(CountArgs{Text: "Hello, world! It's 2026."})
	if mustJSON(t, before) != `{"bytes":24,"chars":24,"counts":[{"tokenizer":"estimate","tokens":9},{"tokenizer":"o200k_base","error":"tokenizer o200k_base: its table is not loaded yet"},{"tokenizer":"cl100k_base","error":"tokenizer cl100k_base: its table is not loaded yet"}]}` {
		t.Errorf("before loading: %s", mustJSON(t, before))
	}
	if inf := Info(); inf.Tokenizers[1].Loaded {
		t.Errorf("info says o200k_base is loaded: %+v", inf.Tokenizers)
	}
	if _, msg := answer(t, LoadEncoding("o200k_base", []byte("not a table"))); !strings.Contains(msg, "bad header") {
		t.Errorf("bad table: %q", msg)
	}
	if _, msg := answer(t, LoadEncoding("p50k_base", nil)); !strings.Contains(msg, `no exact encoding "p50k_base"`) {
		t.Errorf("unknown encoding: %q", msg)
	}
	for _, e := range []struct{ name, path string }{
		{"o200k_base", "../../pkg/tokenize/o200k/o200k_base.bin"},
		{"cl100k_base", "../../pkg/tokenize/cl100k/cl100k_base.bin"},
	} {
		res, msg := answer(t, LoadEncoding(e.name, []byte(readFile(t, e.path))))
		if msg != "" || string(res) != `{"tokenizer":"`+e.name+`"}` {
			t.Errorf("LoadEncoding(%s) = %s %s", e.name, res, msg)
		}
	}
	// The same table again is a no-op; another one for a loaded encoding
	// is an error.
	if res, msg := answer(t, LoadEncoding("o200k_base", []byte(readFile(t, "../../pkg/tokenize/o200k/o200k_base.bin")))); msg != "" || string(res) != `{"tokenizer":"o200k_base"}` {
		t.Errorf("loading the same table again: %s %s", res, msg)
	}
	if _, msg := answer(t, LoadEncoding("o200k_base", []byte(readFile(t, "../../pkg/tokenize/cl100k/cl100k_base.bin")))); msg != "tokenizer o200k_base already has a different table" {
		t.Errorf("loading another table: %q", msg)
	}
	res, msg := answer(t, Call("count", `{"text":"Hello, world! It's 2026."}`))
	if msg != "" || string(res) != `{"bytes":24,"chars":24,"counts":[{"tokenizer":"estimate","tokens":9},{"tokenizer":"o200k_base","tokens":9},{"tokenizer":"cl100k_base","tokens":10}]}` {
		t.Errorf("after loading: %s %s", res, msg)
	}
	if inf := Info(); !inf.Tokenizers[1].Loaded || !inf.Tokenizers[2].Loaded {
		t.Errorf("info: %+v", inf.Tokenizers)
	}
}

// FuzzCall feeds any arguments to every function: the answer is always
// one JSON Answer, and no panic happens underneath (Call would turn it
// into an "internal error").
func FuzzCall(f *testing.F) {
	f.Add("synthesize", `{"items":"{\"id\":\"a\",\"content\":\"x\"}\n","budget":10}`)
	f.Add("count", `{"text":"héllo\u0000 wörld"}`)
	f.Add("dates", `{"text":"last Friday and next month","said_on":"2024-02-29"}`)
	f.Add("replay", `{"transcript":"{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"yo\"}\n"}`)
	f.Add("info", ``)
	f.Fuzz(func(t *testing.T, fn, args string) {
		if fn != "info" && fn != "count" && fn != "dates" && fn != "replay" && fn != "synthesize" {
			fn = "synthesize"
		}
		_, msg := answer(t, Call(fn, args))
		if strings.HasPrefix(msg, "internal error") {
			t.Fatalf("panic: %s", msg)
		}
	})
}
