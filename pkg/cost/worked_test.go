package cost

import (
	"math"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

var t0 = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// session builds calls over one growing window: the overhead S (2,000
// tokens, a breakpoint), then messages; call k sends the first n[k]
// message blocks, at times at[k], with model models[k] and 100 output
// tokens.
func session(models []string, at []time.Duration, n []int, msgs []Block) []Call {
	var calls []Call
	for k := range n {
		w := append([]Block{{ID: "S", Tokens: 2000, Breakpoint: true}}, msgs[:n[k]]...)
		calls = append(calls, Call{Model: models[k], Time: t0.Add(at[k]), Blocks: w, Output: 100})
	}
	return calls
}

// The five-call session of docs/cost.md: U1 500, A1 300, T1 1,200, A2 200,
// T2 800, A3 100, T3 900, A4 150, U2 350 tokens.
var msgs = []Block{{ID: "U1", Tokens: 500}, {ID: "A1", Tokens: 300}, {ID: "T1", Tokens: 1200}, {ID: "A2", Tokens: 200},
	{ID: "T2", Tokens: 800}, {ID: "A3", Tokens: 100}, {ID: "T3", Tokens: 900}, {ID: "A4", Tokens: 150}, {ID: "U2", Tokens: 350}}

var (
	fiveN  = []int{1, 3, 5, 7, 9} // windows of 2,500 4,000 5,000 6,000 6,500 tokens
	fiveAt = []time.Duration{0, 10 * time.Second, 20 * time.Second, 30 * time.Second, 40 * time.Second}
)

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

type want struct {
	read, write, uncached int
	usd                   float64
}

// TestWorkedExamples checks the cache model on sessions worked by hand in
// docs/cost.md, with the built-in prices (claude-sonnet-4-5: $3 input,
// $0.30 read, $3.75 5-minute write, $15 output; claude-haiku-4-5: $1,
// $0.10, $1.25, $5, minimum 4,096 tokens; gpt-5: $1.25, $0.125, $10).
func TestWorkedExamples(t *testing.T) {
	sonnet := repeat("claude-sonnet-4-5", 5)
	edited := session(sonnet, fiveAt, []int{1, 3, 5, 7}, msgs)
	edited[3].Blocks[3] = Block{ID: "T1-cleared", Tokens: 20} // T1 cleared at call 4
	editedGPT := session(repeat("gpt-5", 4), fiveAt, []int{1, 3, 5, 7}, msgs)
	editedGPT[3].Blocks[3] = Block{ID: "T1-cleared", Tokens: 20}
	tests := []struct {
		name  string
		calls []Call
		rule  prices.CacheRule
		want  []want
	}{
		{"five calls, anthropic", session(sonnet, fiveAt, fiveN, msgs), "", []want{
			// read = the previous window; the rest is written at $3.75.
			{0, 2500, 0, 0.010875},    // 2500×3.75 + 100×15
			{2500, 1500, 0, 0.007875}, // 2500×0.30 + 1500×3.75 + 1500
			{4000, 1000, 0, 0.00645},
			{5000, 1000, 0, 0.00675},
			{6000, 500, 0, 0.005175},
		}},
		{"five calls, openai", session(repeat("gpt-5", 5), fiveAt, fiveN, msgs), "", []want{
			// read = the shared prefix rounded down to 128; no write charge.
			{0, 0, 2500, 0.004125},    // 2500×1.25 + 100×10
			{2432, 0, 1568, 0.003264}, // 19×128 of 2500
			{3968, 0, 1032, 0.002786}, // 31×128 of 4000
			{4992, 0, 1008, 0.002884}, // 39×128 of 5000
			{5888, 0, 612, 0.002501},  // 46×128 of 6000
		}},
		{"five calls, none", session(repeat("gpt-5", 5), fiveAt, fiveN, msgs), "none", []want{
			{0, 0, 2500, 0.004125},
			{0, 0, 4000, 0.006},
			{0, 0, 5000, 0.00725},
			{0, 0, 6000, 0.0085},
			{0, 0, 6500, 0.009125},
		}},
		{"model switch", session([]string{"claude-sonnet-4-5", "claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-5"}, fiveAt, []int{1, 3, 5, 7}, msgs), "", []want{
			{0, 2500, 0, 0.010875},
			{2500, 1500, 0, 0.007875},
			{0, 5000, 0, 0.00675},   // haiku has no cache yet: 5000×1.25 + 100×5
			{4000, 2000, 0, 0.0102}, // sonnet's call-2 entry is still live
		}},
		{"pause past the TTL", session(sonnet, []time.Duration{0, 10 * time.Second, 6*time.Minute + 10*time.Second}, []int{1, 3, 5}, msgs), "", []want{
			{0, 2500, 0, 0.010875},
			{2500, 1500, 0, 0.007875},
			{0, 5000, 0, 0.020250}, // every entry expired at 5:10: 5000×3.75 + 1500
		}},
		{"a read refreshes the TTL", session(sonnet, []time.Duration{0, 4 * time.Minute, 8 * time.Minute}, []int{1, 1, 2}, msgs), "", []want{
			{0, 2500, 0, 0.010875},
			{2500, 0, 0, 0.00225},    // 2500×0.30 + 1500; refreshed until 9:00
			{2500, 300, 0, 0.003375}, // 8:00 is past 5:00 but not 9:00
		}},
		{"below the minimum", session(repeat("claude-haiku-4-5", 2), fiveAt, []int{1, 3}, msgs), "", []want{
			{0, 0, 2500, 0.003},  // 2500 < 4096: sent uncached, nothing written
			{0, 0, 4000, 0.0045}, // and so nothing to read
		}},
		{"an edit invalidates from the edited position, anthropic", edited, "", []want{
			{0, 2500, 0, 0.010875},
			{2500, 1500, 0, 0.007875},
			{4000, 1000, 0, 0.00645},
			{2500, 2320, 0, 0.01095}, // 750 + 2320×3.75 + 1500: the last entry before T1 is call 1's end
		}},
		{"an edit invalidates from the edited position, openai", editedGPT, "", []want{
			{0, 0, 2500, 0.004125},
			{2432, 0, 1568, 0.003264},
			{3968, 0, 1032, 0.002786},
			{2688, 0, 2132, 0.004001}, // S+U1+A1 = 2800 shared, 21×128
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Simulate(tc.calls, Options{Rule: tc.rule})
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for i, w := range tc.want {
				g := rep.Calls[i]
				if g.Cache.Read != w.read || g.Cache.Write != w.write || g.Cache.Uncached != w.uncached {
					t.Errorf("call %d: read %d write %d uncached %d, want %d %d %d", i+1, g.Cache.Read, g.Cache.Write, g.Cache.Uncached, w.read, w.write, w.uncached)
				}
				if math.Abs(g.CostUSD-w.usd) > 1e-9 {
					t.Errorf("call %d: $%.6f, want $%.6f", i+1, g.CostUSD, w.usd)
				}
				sum += w.usd
			}
			if math.Abs(rep.Totals.CostUSD-sum) > 1e-9 || rep.Totals.Calls != len(tc.want) {
				t.Errorf("totals %+v, want %d calls, $%.6f", rep.Totals, len(tc.want), sum)
			}
		})
	}
}

func TestOneHourTTL(t *testing.T) {
	// With the 1-hour TTL a 20-minute pause keeps the cache, and writes are
	// billed at $6 (claude-sonnet-4-5).
	calls := session(repeat("claude-sonnet-4-5", 2), []time.Duration{0, 20 * time.Minute}, []int{1, 3}, msgs)
	rep, err := Simulate(calls, Options{TTL: AnthropicLongTTL})
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Calls[1]
	// 2500×0.30 + 1500×6 + 100×15 = 750 + 9000 + 1500 micro-dollars.
	if got.Cache.Read != 2500 || got.Cache.Write != 1500 || math.Abs(got.CostUSD-0.01125) > 1e-9 {
		t.Errorf("got %+v", got)
	}
}

func TestUnpricedModel(t *testing.T) {
	calls := []Call{{Model: "my-model", Blocks: []Block{{ID: "a", Tokens: 5000}}, Output: 10}}
	rep, err := Simulate(calls, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Totals.CostUSD != 0 || len(rep.Unpriced) != 1 || rep.Unpriced[0] != "my-model" || rep.Calls[0].Rule != prices.CacheNone {
		t.Errorf("got %+v", rep)
	}
	if _, err := Simulate(calls, Options{Rule: "lru"}); err == nil || err.Error() != `unknown cache rule "lru"; valid: anthropic, openai, none` {
		t.Errorf("error %v", err)
	}
}
