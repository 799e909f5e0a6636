package window_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/window"
)

// chars counts a message's characters independently of the package: text
// plus tool-call names and arguments.
func chars(m transcript.Message) int {
	n := utf8.RuneCountInString(m.Text)
	for _, tc := range m.ToolCalls {
		n += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
	}
	return n
}

// replies lists the message index that starts each call (every generated
// assistant message is its own call).
func replies(tr *transcript.Transcript) []int {
	var out []int
	for i, m := range tr.Messages {
		if m.Role == transcript.RoleAssistant {
			out = append(out, i)
		}
	}
	return out
}

// turnsBefore returns, for the call at reply, the retained turns before the
// active one as [start, end) index ranges, oldest first.
func turnsBefore(tr *transcript.Transcript, reply int) [][2]int {
	active := tr.Messages[reply].Turn
	var out [][2]int
	for i := 0; i < reply; i++ {
		m := tr.Messages[i]
		if m.Turn == 0 || m.Turn == active || m.Aborted {
			continue
		}
		if len(out) > 0 && tr.Messages[out[len(out)-1][0]].Turn == m.Turn {
			out[len(out)-1][1] = i + 1
		} else {
			out = append(out, [2]int{i, i + 1})
		}
	}
	return out
}

func TestPropertiesGenerated(t *testing.T) {
	for seed := uint64(1); seed <= 12; seed++ {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: 60, AbortEvery: 6, Usage: seed%2 == 0, Overhead: 500})
		rep := replies(tr)
		for _, w := range []int{0, 3000, 12000} {
			o := window.DefaultOptions()
			o.Windowed.Chars, o.Sliding.Chars = new(w), new(w)
			o.Sliding.Head = new(2)
			o.Summarizing.HighWaterTokens = new(w / 2)
			o.Summarizing.LowWaterChars = new(w)
			o.Summarizing.SummaryMaxChars = new(600)
			o.Budget = engine.Budget{Total: w/4 + 1}
			strategies := []window.Strategy{window.Full, window.Windowed, window.Summarizing, window.TurnOnly, window.Sliding, window.Budget}
			res, err := window.Replay(context.Background(), tr, strategies, window.ReplayOptions{Options: o, Indices: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res {
				name := fmt.Sprintf("seed %d window %d %s", seed, w, r.Strategy)
				if len(r.Calls) != len(rep) {
					t.Fatalf("%s: %d calls, want %d", name, len(r.Calls), len(rep))
				}
				for k, c := range r.Calls {
					if err := window.Check(tr, rep[k], c.Messages, r.Summarized(c.Call)); err != nil {
						t.Fatalf("%s call %d: %v", name, c.Call, err)
					}
					sent := 0
					for _, i := range c.Messages {
						sent += chars(tr.Messages[i])
					}
					if sent+c.SummaryChars != c.Chars {
						t.Fatalf("%s call %d: chars %d, messages add up to %d + summary %d", name, c.Call, c.Chars, sent, c.SummaryChars)
					}
					checkStrategy(t, name, tr, rep[k], c, r.Strategy, w)
				}
				if r.Strategy == string(window.Summarizing) && w > 0 {
					for _, e := range r.Events {
						if e.SummaryChars > *o.Summarizing.SummaryMaxChars {
							t.Fatalf("%s: summary %d chars", name, e.SummaryChars)
						}
					}
				}
			}
		}
	}
}

func checkStrategy(t *testing.T, name string, tr *transcript.Transcript, reply int, c window.Call, s string, w int) {
	t.Helper()
	active := tr.Messages[reply].Turn
	// The system part and the active turn so far.
	base := 0
	activeChars := 0
	for i := 0; i < reply; i++ {
		m := tr.Messages[i]
		switch m.Turn {
		case 0:
			base++
		case active:
			base++
			activeChars += chars(m)
		}
	}
	prior := turnsBefore(tr, reply)
	switch s {
	case string(window.Full):
		// Full sends the sum: every retained message.
		want := base
		for _, p := range prior {
			want += p[1] - p[0]
		}
		if len(c.Messages) != want || c.MessageCount != c.FullMessages {
			t.Fatalf("%s call %d: full sends %d messages, want %d", name, c.Call, len(c.Messages), want)
		}
		if !c.Recorded && c.Tokens != c.FullTokens {
			t.Fatalf("%s call %d: tokens %d != full %d", name, c.Call, c.Tokens, c.FullTokens)
		}
	case string(window.Windowed):
		// Within the budget unless the active turn is alone, and the next
		// older turn would not fit.
		hist := 0
		for _, i := range c.Messages {
			if tr.Messages[i].Turn > 0 {
				hist += chars(tr.Messages[i])
			}
		}
		alone := len(c.Messages) == base
		if hist > w && !alone {
			t.Fatalf("%s call %d: %d chars over %d with older turns", name, c.Call, hist, w)
		}
		kept := len(c.Messages) - base
		n := 0
		for j := len(prior) - 1; j >= 0; j-- {
			if n == kept {
				older := 0
				for i := prior[j][0]; i < prior[j][1]; i++ {
					older += chars(tr.Messages[i])
				}
				if hist+older <= w {
					t.Fatalf("%s call %d: turn at %d would still fit", name, c.Call, prior[j][0])
				}
				break
			}
			n += prior[j][1] - prior[j][0]
		}
		if activeChars > w && !alone {
			t.Fatalf("%s call %d: active turn over budget but not alone", name, c.Call)
		}
	case string(window.Budget):
		// Marked over the budget exactly when the counted window passes
		// it, and then it holds no older turn, unless the active turn is
		// glued to one by a tool call and its result.
		if over := c.Counted > w/4+1; over != c.OverBudget {
			t.Fatalf("%s call %d: %d counted tokens, budget %d, over_budget %v", name, c.Call, c.Counted, w/4+1, c.OverBudget)
		}
		if c.OverBudget && !gluedActive(tr, reply) {
			for _, i := range c.Messages {
				if m := tr.Messages[i]; m.Turn != 0 && m.Turn != active {
					t.Fatalf("%s call %d: over the budget with message %d of turn %d", name, c.Call, i, m.Turn)
				}
			}
		}
	case string(window.TurnOnly):
		if len(c.Messages) != base {
			t.Fatalf("%s call %d: turn sends %d, want %d", name, c.Call, len(c.Messages), base)
		}
	}
}

// gluedActive reports whether the active turn at reply holds a tool result
// whose call is in an earlier turn.
func gluedActive(tr *transcript.Transcript, reply int) bool {
	active := tr.Messages[reply].Turn
	callTurn := map[string]int{}
	for i := 0; i < reply; i++ {
		m := tr.Messages[i]
		for _, tc := range m.ToolCalls {
			callTurn[tc.ID] = m.Turn
		}
		if m.Turn == active && m.ToolCallID != "" {
			if t, ok := callTurn[m.ToolCallID]; ok && t != active {
				return true
			}
		}
	}
	return false
}

// TestPropertiesCompacted replays generated transcripts in which the
// harness compacts its context now and then: every strategy's every
// window is valid and holds only messages full sends at the same call
// (what the provider saw), so no strategy sends more than full save
// summarizing's own rolling summary.
func TestPropertiesCompacted(t *testing.T) {
	compactions := 0
	for seed := uint64(1); seed <= 12; seed++ {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: seed, Turns: 60, AbortEvery: 5, CompactEvery: 4, Usage: seed%2 == 0, Overhead: 500})
		compactions += len(tr.Compactions)
		rep := replies(tr)
		for _, w := range []int{0, 3000, 12000, 1 << 20} {
			o := window.DefaultOptions()
			o.Windowed.Chars, o.Sliding.Chars = new(w), new(w)
			o.Sliding.Head = new(2)
			o.Summarizing.HighWaterTokens = new(w / 2)
			o.Summarizing.LowWaterChars = new(w)
			o.Summarizing.SummaryMaxChars = new(600)
			o.Budget = engine.Budget{Total: w/4 + 1}
			res, err := window.Replay(context.Background(), tr, window.Strategies(), window.ReplayOptions{Options: o, Indices: true})
			if err != nil {
				t.Fatal(err)
			}
			full := res[0]
			if full.Strategy != string(window.Full) {
				t.Fatalf("first result is %s", full.Strategy)
			}
			for _, r := range res {
				name := fmt.Sprintf("seed %d window %d %s", seed, w, r.Strategy)
				if len(r.Calls) != len(rep) {
					t.Fatalf("%s: %d calls, want %d", name, len(r.Calls), len(rep))
				}
				for k, c := range r.Calls {
					if err := window.Check(tr, rep[k], c.Messages, r.Summarized(c.Call)); err != nil {
						t.Fatalf("%s call %d: %v", name, c.Call, err)
					}
					f := full.Calls[k]
					inFull := map[int]bool{}
					for _, i := range f.Messages {
						inFull[i] = true
					}
					for _, i := range c.Messages {
						if !inFull[i] {
							t.Fatalf("%s call %d: message %d is not in full's window %v", name, c.Call, i, f.Messages)
						}
					}
					if c.Chars-c.SummaryChars > f.Chars {
						t.Fatalf("%s call %d: %d chars (summary %d), full %d", name, c.Call, c.Chars, c.SummaryChars, f.Chars)
					}
					if r.Strategy != string(window.Summarizing) && c.Tokens > c.FullTokens {
						t.Fatalf("%s call %d: %d tokens, full %d", name, c.Call, c.Tokens, c.FullTokens)
					}
					// A huge window sends what full sends.
					if w == 1<<20 && r.Strategy != string(window.TurnOnly) && r.Strategy != string(window.Budget) && !slices.Equal(c.Messages, f.Messages) {
						t.Fatalf("%s call %d: %v, full %v", name, c.Call, c.Messages, f.Messages)
					}
				}
			}
		}
	}
	if compactions < 100 {
		t.Fatalf("only %d compactions generated", compactions)
	}
}

func benchReplay(b *testing.B, turns int) {
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 1, Turns: turns, AbortEvery: 20, Usage: true, Overhead: 500})
	o := window.DefaultOptions()
	o.Windowed.Chars, o.Sliding.Chars = new(20000), new(20000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := window.Replay(context.Background(), tr, []window.Strategy{window.Windowed}, window.ReplayOptions{Options: o}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(turns), "ns/turn")
}

// BenchmarkReplayWindowed replays generated transcripts through windowed
// (and the full reference every replay measures against): 10× the turns
// should take about 10× the time.
func BenchmarkReplayWindowed(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("turns=%d", n), func(b *testing.B) { benchReplay(b, n) })
	}
}

func BenchmarkReplaySummarizing(b *testing.B) {
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: 1, Turns: 1000, AbortEvery: 20, Usage: true, Overhead: 500})
	o := window.DefaultOptions()
	o.Summarizing.HighWaterTokens = new(8000)
	o.Summarizing.LowWaterChars = new(16000)
	for b.Loop() {
		if _, err := window.Replay(context.Background(), tr, []window.Strategy{window.Summarizing}, window.ReplayOptions{Options: o}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplayBudget replays generated chat transcripts through
// budget: its candidates are kept from call to call, so 1,000 and 10,000
// turns should differ by about 10×.
func BenchmarkReplayBudget(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("turns=%d", n), func(b *testing.B) {
			tr := transcriptgen.Generate(transcriptgen.Config{Seed: 1, Turns: n, AbortEvery: 20, Usage: true, Overhead: 500})
			o := window.DefaultOptions()
			o.Budget = engine.Budget{Total: 20000}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := window.Replay(context.Background(), tr, []window.Strategy{window.Budget}, window.ReplayOptions{Options: o}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
