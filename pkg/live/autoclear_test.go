package live_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/live"
	"github.com/harpe-dev/harpe/pkg/window"
)

// words is n tokens under the estimate counter: n one-letter words.
func words(n int) string { return strings.Repeat("a ", n) }

// TestAutoClearObservesCache: clear:auto:keep=2 on claude-sonnet-4-5
// ($3 input, $3.75 cache write, $0.30 cache read per million tokens;
// shortest cached prompt 1,024), calls 10 s apart, each usage reported
// whole as cache reads and writes. Sizes: system 2,000 tokens, prompt
// 10, a tool call 3 ("Read" 1, "{}" 2), results R1 600, R2 3,000,
// R3 10; a placeholder is 5 tokens, so clearing R1 frees s = 595.
//
// Call 1 sends 2,010; call 2 2,613; call 3 5,616; call 4 is the first
// with a candidate (R1; R2 and R3 are the newest two). W₋ = 5,616 (call
// 3's window); R = 2,010, call 1's entry, the latest that ends before R1.
//
//	Δ  = (3.75 − 0.30)·(5,616 − 2,010) − 3.75·595 = 12,440.7 − 2,231.25
//	   = 10,209.45 µ$
//	n̂  = min(4 − 1, 595 / (595/4)) = 3;  n̂·pr·s = 3·0.30·595 = 535.5 µ$
//
// so it does not clear: it expects to lose 9,673.95 µ$. When the
// provider reported after call 3 that it cached only the system part
// and the prompt (2,010 read, nothing written: a breakpoint there), the
// cache holds W₋ = 2,010 = R: Δ = −3.75·595 = −2,231.25 µ$ ≤ 0, and it
// clears, expecting 535.5 + 2,231.25 = 2,766.75 µ$.
func TestAutoClearObservesCache(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cached3  live.Usage // what call 3 reported
		cleared  bool
		extraNow float64
		saving   float64
	}{
		{"whole prompt cached", live.Usage{CacheRead: 2613, CacheWrite: 5616 - 2613}, false, 10209.45e-6, 535.5e-6 - 10209.45e-6},
		{"only the front cached", live.Usage{CacheRead: 2010, Input: 5616 - 2010}, true, -2231.25e-6, 2766.75e-6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at := time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC)
			now := func() time.Time { at = at.Add(10 * time.Second); return at }
			c, err := live.NewSpec("clear:auto:keep=2", live.Config{System: words(2000), Model: "claude-sonnet-4-5", Now: now})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			call := func(want int, u live.Usage) *live.Snapshot {
				s, err := c.Render(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if s.Tokens != want {
					t.Fatalf("call %d: %d tokens, want %d", s.Call, s.Tokens, want)
				}
				c.Observe(u)
				return s
			}
			c.Begin(user(words(10)))
			call(2010, live.Usage{CacheWrite: 2010})
			c.Add(toolCall("t1", "Read", "{}"))
			c.Add(toolResult("t1", words(600)))
			call(2613, live.Usage{CacheRead: 2010, CacheWrite: 603})
			c.Add(toolCall("t2", "Read", "{}"))
			c.Add(toolResult("t2", words(3000)))
			call(5616, tc.cached3)
			c.Add(toolCall("t3", "Read", "{}"))
			c.Add(toolResult("t3", words(10)))
			s, err := c.Render(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Clears) != 1 {
				t.Fatalf("decisions %+v, want one", s.Clears)
			}
			d := s.Clears[0]
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
			if d.Cleared != tc.cleared || d.Results != 1 || d.FreedTokens != 595 || !d.Warm || d.OverLimit ||
				!near(d.ExtraNowUSD, tc.extraNow) || !near(d.SavedPerCallUSD, 178.5e-6) || d.ExpectedCalls != 3 || !near(d.ExpectedSavingUSD, tc.saving) {
				t.Fatalf("decision %+v", d)
			}
			// Indices: system 0, prompt 1, call 2, R1 3.
			want := "whole"
			if tc.cleared {
				want = "cleared"
			}
			if got := sentAs(s.Parts, 3); got != want {
				t.Fatalf("R1 sent %s, want %s", got, want)
			}
		})
	}
}

// sentAs is how index i was sent ("" when it was not).
func sentAs(parts []window.Part, i int) string {
	for _, p := range parts {
		if p.From <= i && i <= p.To {
			return p.Sent
		}
	}
	return ""
}
