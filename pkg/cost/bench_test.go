package cost

import (
	"strconv"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// BenchmarkSimulateFull prices the 230-call Claude Code sample under
// `full` from whole windows: Simulate compares each window with the last
// one, so this grows with the windows' lengths.
func BenchmarkSimulateFull(b *testing.B) {
	tr := readSample(b, agentSamples[0])
	calls, _ := FullCalls(tr, tokenize.Estimate, "")
	for b.Loop() {
		if _, err := Simulate(calls, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSimulatorSteps prices an agent loop of n calls given as steps
// (each call appends a tool call and its result; every tenth call edits
// the result 20 blocks back, as masking does), under each rule: the time
// per call stays flat from 1,000 to 10,000 calls.
func BenchmarkSimulatorSteps(b *testing.B) {
	for _, rule := range []prices.CacheRule{"anthropic", "openai"} {
		for _, n := range []int{1000, 10000} {
			b.Run(string(rule)+"/"+strconv.Itoa(n), func(b *testing.B) {
				for b.Loop() {
					s, err := NewSimulator(Options{Rule: rule})
					if err != nil {
						b.Fatal(err)
					}
					blocks := 0
					for i := range n {
						st := Step{Model: "claude-sonnet-4-5", Time: t0.Add(time.Duration(i) * 10 * time.Second),
							Output: 100, Front: Block{ID: "S", Tokens: 12000, Breakpoint: true}, Keep: blocks,
							Append: []Block{{ID: "a", Tokens: 40}, {ID: "r", Tokens: 600}}}
						if i%10 == 9 && blocks > 20 {
							st.Keep = blocks - 20
							st.Append = make([]Block, 22)
							for k := range st.Append {
								st.Append[k] = Block{ID: "e", Tokens: 30}
							}
						}
						blocks = st.Keep + len(st.Append)
						s.Step(st)
					}
				}
			})
		}
	}
}

// BenchmarkCallCost prices the 230 calls of the Claude Code sample one
// by one, as the transcript summaries do (usage.CallCost of the model the
// catalog finds).
func BenchmarkCallCost(b *testing.B) {
	tr := readSample(b, agentSamples[0])
	cat := prices.Default()
	b.ReportAllocs()
	for b.Loop() {
		for i := range tr.Messages {
			if m := &tr.Messages[i]; m.Usage != nil {
				usage.CallCost(cat.LookupCall(m.Model), m.Timestamp, *m.Usage)
			}
		}
	}
}
