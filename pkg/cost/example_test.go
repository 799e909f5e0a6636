package cost_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Two calls on claude-sonnet-4-5: the second reads what the first wrote.
func ExampleSimulate() {
	t := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	sys := cost.Block{ID: "system+tools", Tokens: 12000, Breakpoint: true}
	q := cost.Block{ID: "0/whole/q", Tokens: 40}
	a := cost.Block{ID: "1/whole/a", Tokens: 300}
	r := cost.Block{ID: "2/whole/r", Tokens: 5000}
	calls := []cost.Call{
		{Model: "claude-sonnet-4-5", Time: t, Blocks: []cost.Block{sys, q}, Output: 310},
		{Model: "claude-sonnet-4-5", Time: t.Add(20 * time.Second), Blocks: []cost.Block{sys, q, a, r}, Output: 150},
	}
	rep, err := cost.Simulate(calls, cost.Options{})
	if err != nil {
		panic(err)
	}
	for i, c := range rep.Calls {
		fmt.Printf("call %d: read %d, write %d, $%.4f\n", i+1, c.Cache.Read, c.Cache.Write, c.CostUSD)
	}
	fmt.Printf("total $%.4f\n", rep.Totals.CostUSD)
	// Output:
	// call 1: read 0, write 12040, $0.0498
	// call 2: read 12040, write 5300, $0.0257
	// total $0.0755
}

// What a recorded session cost: one Claude Code call on claude-haiku-4-5
// ($1 input, $0.10 read, $1.25 write, $5 output per million tokens).
func ExampleRecorded() {
	session := `{"type":"user","uuid":"u1","timestamp":"2026-11-24T09:00:00.000Z","message":{"role":"user","content":"hi"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-11-24T09:00:02.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-haiku-4-5-20251001","content":[{"type":"text","text":"hello"}],"usage":{"input_tokens":2,"cache_creation_input_tokens":800,"cache_read_input_tokens":12000,"output_tokens":40}}}
`
	ts, err := transcript.Read(strings.NewReader(session), "s.jsonl", "")
	if err != nil {
		panic(err)
	}
	_, tot, err := cost.Recorded(ts[0], nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d call: input %d, read %d, write %d, output %d: $%.6f\n", tot.Calls, tot.Input, tot.CacheRead, tot.CacheWrite, tot.Output, tot.CostUSD)
	// Output:
	// 1 call: input 2, read 12000, write 800, output 40: $0.002402
}

// The same two calls given as steps, and a third that edits the tool
// result r (masked to 12 tokens): the cache holds only up to it, so the
// third call reads what call 1 wrote and writes the rest.
func ExampleSimulator() {
	t := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	s, err := cost.NewSimulator(cost.Options{})
	if err != nil {
		panic(err)
	}
	front := cost.Block{ID: "system+tools", Tokens: 12000, Breakpoint: true}
	steps := []cost.Step{
		{Keep: 0, Append: []cost.Block{{Tokens: 40}}, Output: 310},                  // q
		{Keep: 1, Append: []cost.Block{{Tokens: 300}, {Tokens: 5000}}, Output: 150}, // q, then a and r
		{Keep: 2, Append: []cost.Block{{Tokens: 12}, {Tokens: 100}}, Output: 100},   // q a, then r masked and b
	}
	for i, st := range steps {
		st.Model, st.Time, st.Front = "claude-sonnet-4-5", t.Add(time.Duration(i)*20*time.Second), front
		c := s.Step(st)
		fmt.Printf("call %d: read %d, write %d, $%.6f\n", i+1, c.Cache.Read, c.Cache.Write, c.CostUSD)
	}
	// Output:
	// call 1: read 0, write 12040, $0.049800
	// call 2: read 12040, write 5300, $0.025737
	// call 3: read 12040, write 412, $0.006657
}
