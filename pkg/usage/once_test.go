package usage

import (
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestCountOnce: a response (Message.Response, UnsentCall.Response) met
// in several sessions of a run is counted in the first one added; every
// later copy leaves its session's usage, cost and day and is counted in
// its repeats. datedPrices: m1 costs 1 µ$ a token before 2026-01-03,
// m2 100 µ$, mystery has no price (the figures below are µ$). A cost is null where no call left has a
// price, 0 where no call is left. By hand, for each case.
func TestCountOnce(t *testing.T) {
	type call struct {
		ts, model, response string
		u                   transcript.Usage
		unsent              bool
	}
	r1 := call{"2026-01-02T10:00:00Z", "m1", "msg_1:req_1", transcript.Usage{Input: 1, Output: 2}, false}   // 3 µ$
	r2 := call{"2026-01-02T11:00:00Z", "m2", "msg_2:req_2", transcript.Usage{Output: 1}, false}             // 100 µ$
	r3 := call{"2026-01-02T12:00:00Z", "mystery", "msg_3:req_3", transcript.Usage{Input: 4}, false}         // unpriced
	side := call{"2026-01-02T10:30:00Z", "m1", "msg_s:req_s", transcript.Usage{CacheWrite: 5}, true}        // 5 µ$
	nokey := call{"2026-01-02T10:00:00Z", "m1", "", transcript.Usage{Input: 7}, false}                      // 7 µ$
	undated := call{"", "", "msg_u:req_u", transcript.Usage{Input: 2}, false}                               // no model, no price
	sideAsMain := call{"2026-01-02T10:30:00Z", "m1", "msg_s:req_s", transcript.Usage{CacheWrite: 5}, false} // 5 µ$
	for _, tc := range []struct {
		name     string
		sessions [][]call
		// per session: calls, input, cost (-1: null), repeated, repeated cost (-1: null)
		want [][5]float64
		// totals: calls, cost, repeated, repeated cost
		total [4]float64
		days  int // the --by day groups
	}{
		{"resumed: one response again", [][]call{{r1}, {r1, r2}},
			[][5]float64{{1, 1, 3, 0, -1}, {1, 0, 100, 1, 3}}, [4]float64{2, 103, 1, 3}, 1},
		{"three checkpoints", [][]call{{r1}, {r1, r2}, {r1, r2, r3}},
			[][5]float64{{1, 1, 3, 0, -1}, {1, 0, 100, 1, 3}, {1, 4, -1, 2, 103}}, [4]float64{3, 103, 3, 106}, 1},
		{"every response a repeat: no call left, cost 0", [][]call{{r1, r2}, {r2, r1}},
			[][5]float64{{2, 1, 103, 0, -1}, {0, 0, 0, 2, 103}}, [4]float64{2, 103, 2, 103}, 1},
		{"a subagent's copy of a sidechain call", [][]call{{sideAsMain}, {r1, side}},
			[][5]float64{{1, 0, 5, 0, -1}, {1, 1, 3, 1, 5}}, [4]float64{2, 8, 1, 5}, 1},
		{"no response id: counted in each", [][]call{{nokey}, {nokey}},
			[][5]float64{{1, 7, 7, 0, -1}, {1, 7, 7, 0, -1}}, [4]float64{2, 14, 0, -1}, 1},
		{"an unpriced repeat", [][]call{{r3}, {r3}},
			[][5]float64{{1, 4, -1, 0, -1}, {0, 0, 0, 1, -1}}, [4]float64{1, -1, 1, -1}, 1},
		{"an undated call with no model: out of the session's first day", [][]call{{undated, r1}, {undated, r2}},
			[][5]float64{{2, 3, 3, 0, -1}, {1, 0, 100, 1, -1}}, [4]float64{3, 103, 1, -1}, 1},
		{"a repeat within one session", [][]call{{r1, r1}},
			[][5]float64{{1, 1, 3, 1, 3}}, [4]float64{1, 3, 1, 3}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ss SessionSummaries
			for i, calls := range tc.sessions {
				s := NewSessionSummary("f.jsonl", "/p")
				s.Catalog = datedPrices
				tr := &transcript.Transcript{Format: "claude-code", ID: string(rune('a' + i))}
				for _, c := range calls {
					at, _ := time.Parse(time.RFC3339, c.ts)
					if c.unsent {
						tr.Unsent = append(tr.Unsent, transcript.UnsentCall{Model: c.model, Time: at, Usage: c.u, Response: c.response})
						continue
					}
					u := c.u
					m := transcript.Message{Role: transcript.RoleAssistant, Timestamp: at, Model: c.model, Usage: &u, Response: c.response}
					if err := s.Add(&m); err != nil {
						t.Fatal(err)
					}
				}
				if err := s.Finish(tr); err != nil {
					t.Fatal(err)
				}
				ss.Add(s)
			}
			f := micro
			sum, err := NewSummary(ss, "session")
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range tc.want {
				s := ss.At(i)
				got := [5]float64{float64(s.Recorded.Calls), float64(s.Recorded.Input), f(s.CostUSD), float64(s.RepeatedResponses), f(s.RepeatedUSD)}
				if got != w {
					t.Errorf("session %d: calls, input, cost, repeated, repeated cost = %v, want %v", i, got, w)
				}
				if len(s.Models) == 0 {
					t.Errorf("session %d names no model", i)
				}
			}
			tot := sum.Totals
			if got := [4]float64{float64(tot.Recorded.Calls), f(tot.CostUSD), float64(tot.RepeatedResponses), f(tot.RepeatedUSD)}; got != tc.total {
				t.Errorf("totals: calls, cost, repeated, repeated cost = %v, want %v", got, tc.total)
			}
			byDay, err := NewSummary(ss, "day")
			if err != nil {
				t.Fatal(err)
			}
			if len(byDay.Groups) != tc.days || byDay.Groups[0].Recorded.Calls != tot.Recorded.Calls {
				t.Errorf("by day: %d groups, want %d of %d calls", len(byDay.Groups), tc.days, tot.Recorded.Calls)
			}
		})
	}
}
