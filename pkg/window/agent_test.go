package window_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
)

// TestPropertiesAgentLoop replays generated agent-loop sessions (one or two
// human turns, hundreds of calls, tool results up to 50 KB) under every
// retention strategy with and without each edit, and checks: every window
// is valid; each call's parts add up to its size; an edit never makes a
// call cost more than the same strategy without it (summarizing apart,
// whose compactions follow what it sent); a result and its call travel
// together (Check); the set of cleared results only grows; masking sends
// the results of the last M tool-using calls verbatim and no older one.
func TestPropertiesAgentLoop(t *testing.T) {
	const keep = 4
	for seed := uint64(1); seed <= 4; seed++ {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 120, AgentTurns: 1 + int(seed%2), Usage: seed%2 == 0, Overhead: 2000, MaxToolChars: 20000})
		rep := replies(tr)
		o := window.DefaultOptions()
		o.Windowed.Chars, o.Sliding.Chars = new(60000), new(60000)
		o.Summarizing.HighWaterTokens = new(40000)
		o.Summarizing.LowWaterChars = new(30000)
		o.Budget = engine.Budget{Total: 30000}
		o.Clear = window.ClearSettings{Trigger: new(30000), Keep: new(3), ClearAtLeast: new(5000 * int(seed%2)), ExcludeTools: []string{"Edit"}}
		o.Mask = window.MaskSettings{Keep: new(keep)}
		bases := []string{"full", "windowed", "turn", "sliding", "budget", "summarizing"}
		var specs []string
		for _, b := range bases {
			specs = append(specs, b, b+"+clear", b+"+mask", b+"+limit:bytes=4000", b+"+clear+mask")
		}
		var strategies []window.Strategy
		for _, s := range specs {
			st, err := window.Parse(s, o)
			if err != nil {
				t.Fatal(err)
			}
			strategies = append(strategies, st)
		}
		res, err := window.Replay(context.Background(), tr, strategies, window.ReplayOptions{Options: o, Indices: true})
		if err != nil {
			t.Fatal(err)
		}
		byName := map[string]window.Result{}
		for _, r := range res {
			byName[r.Strategy] = r
		}
		toolCallsBefore := toolUsingCalls(tr, rep)
		for _, r := range res {
			name := fmt.Sprintf("seed %d %s", seed, r.Strategy)
			base := byName[baseOf(r.Strategy)]
			cleared := map[int]bool{}
			for k, c := range r.Calls {
				if err := window.Check(tr, rep[k], c.Messages, r.Summarized(c.Call)); err != nil {
					t.Fatalf("%s call %d: %v", name, c.Call, err)
				}
				chars, toks := 0, 0
				for _, p := range c.Parts {
					chars += p.Chars
					toks += p.Tokens
				}
				if chars != c.Chars || toks != c.Counted {
					t.Fatalf("%s call %d: parts add up to %d chars %d tokens, call %d %d", name, c.Call, chars, toks, c.Chars, c.Counted)
				}
				if baseOf(r.Strategy) != "summarizing" && c.Tokens > base.Calls[k].Tokens {
					t.Fatalf("%s call %d: %d tokens, %d without the edit", name, c.Call, c.Tokens, base.Calls[k].Tokens)
				}
				in := map[int]bool{}
				for _, p := range c.Parts {
					for m := p.From; m <= p.To && m >= 0; m++ {
						in[m] = true
						if p.Sent == "cleared" && tr.Messages[m].ToolCallID != "" {
							cleared[m] = true
						}
					}
				}
				for m := range cleared {
					if in[m] && !sentAs(c, m, "cleared") {
						t.Fatalf("%s call %d: result %d was cleared before, now %v", name, c.Call, m, c.Parts)
					}
				}
				if r.Strategy == baseOf(r.Strategy)+"+mask" {
					checkMask(t, name, tr, c, toolCallsBefore[k], keep)
				}
			}
		}
	}
}

// baseOf returns the strategy a spec edits.
func baseOf(spec string) string {
	for i := range spec {
		if spec[i] == '+' {
			return spec[:i]
		}
	}
	return spec
}

func sentAs(c window.Call, m int, how string) bool {
	for _, p := range c.Parts {
		if p.From <= m && m <= p.To {
			return p.Sent == how
		}
	}
	return false
}

// toolUsingCalls returns, for each call, the ordinal of every tool call id
// made before it: the number of earlier tool-using calls when it was made.
func toolUsingCalls(tr *transcript.Transcript, rep []int) []map[string]int {
	out := make([]map[string]int, len(rep))
	ord := map[string]int{}
	n := 0
	for k, r := range rep {
		cp := map[string]int{}
		for id, o := range ord {
			cp[id] = o
		}
		out[k] = cp
		if len(tr.Messages[r].ToolCalls) > 0 {
			for _, tc := range tr.Messages[r].ToolCalls {
				ord[tc.ID] = n
			}
			n++
		}
	}
	// out[k] holds the ordinals; the count of tool-using calls before
	// call k is stored under "".
	n = 0
	for k, r := range rep {
		out[k][""] = n
		if len(tr.Messages[r].ToolCalls) > 0 {
			n++
		}
	}
	return out
}

// checkMask: a result answering one of the last keep tool-using calls is
// whole (or truncated), an older one masked unless its placeholder would
// not be smaller.
func checkMask(t *testing.T, name string, tr *transcript.Transcript, c window.Call, ord map[string]int, keep int) {
	t.Helper()
	for _, p := range c.Parts {
		for i := p.From; i <= p.To && i >= 0; i++ {
			m := tr.Messages[i]
			if m.ToolCallID == "" {
				continue
			}
			old := ord[m.ToolCallID] < ord[""]-keep
			switch {
			case !old && p.Sent == "masked":
				t.Fatalf("%s call %d: result %d of a recent call masked", name, c.Call, i)
			case old && p.Sent != "masked" && len(m.Text) > 200:
				t.Fatalf("%s call %d: old result %d (%d bytes) sent %s", name, c.Call, i, len(m.Text), p.Sent)
			}
		}
	}
}

// BenchmarkReplayAgent replays generated agent-loop sessions of 1,000 and
// 10,000 calls (one human turn, tool results 200 B to 10 KB) through each
// strategy: 10× the calls should take at most about 12× the time.
func BenchmarkReplayAgent(b *testing.B) {
	specs := []string{"full", "windowed", "windowed+clear", "mask", "summarizing+mask", "budget", "budget+clear:at-least=20000"}
	for _, n := range []int{1000, 10000} {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: 1, AgentCalls: n, Usage: true, Overhead: 5000, MaxToolChars: 10000})
		o := window.DefaultOptions()
		o.Budget = engine.Budget{Total: 100000}
		o.Windowed.Chars, o.Sliding.Chars = new(400000), new(400000)
		for _, spec := range specs {
			s, err := window.Parse(spec, o)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/calls=%d", spec, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := window.Replay(context.Background(), tr, []window.Strategy{s}, window.ReplayOptions{Options: o}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/call")
			})
		}
	}
}
