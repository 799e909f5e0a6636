package window

import (
	"math"
	"runtime"
	"slices"
	"testing"
	"time"
)

// solveTable is the programme with its whole way back kept: a row of
// boundaries for every call (what solve kept before its segments), the
// reference the segmented solve is checked against.
func (s *session) solveTable() []int {
	n, m := len(s.calls), len(s.cands)
	cur, next := newDPRow(m), newDPRow(m)
	for k := range cur.g {
		cur.g[k], cur.lc[k], cur.ent[k] = math.Inf(1), -1, -1
	}
	cur.g[0] = 0
	from := make([][]int32, n)
	merged := make([]int, n)
	for i := range n {
		from[i] = make([]int32, m+1)
		merged[i] = s.step(i, cur, next, from[i])
		cur, next = next, cur
	}
	k := 0
	for j := range cur.g {
		if cur.g[j] < cur.g[k] {
			k = j
		}
	}
	out := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		out[i] = k
		if k = int(from[i][k]); k == s.calls[i].lo {
			k = merged[i]
		}
	}
	return out
}

// The segmented way back finds the plan the whole table does, whatever
// the segments' length (one call each, a few, √calls, more than the
// session), on the test sessions and under a window limit.
func TestCheapestSolveSegments(t *testing.T) {
	sessions := testSessions(t)
	sessions["gen limit"] = pricedSession(5, 120, "claude-sonnet-4-5", 10*time.Second, 30, false)
	for name, tr := range sessions {
		opts := ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}
		if name == "gen limit" {
			opts.ContextWindow = 60000
		}
		_, s, _ := planSession(t, tr, opts, cheapestStrategy{Keep: 1})
		want := s.solveTable()
		if !slices.ContainsFunc(want, func(k int) bool { return k > 0 }) {
			t.Errorf("%s: the plan clears nothing: no test of the way back", name)
		}
		for _, seg := range []int{1, 2, 3, 7, len(s.calls) - 1, len(s.calls) + 5} {
			if got := s.solveIn(seg); !slices.Equal(got, want) {
				t.Errorf("%s, segments of %d calls: bounds differ from the whole table's\n got %v\nwant %v", name, seg, got, want)
			}
		}
		if got := s.solve(); !slices.Equal(got, want) {
			t.Errorf("%s: solve's bounds differ from the whole table's", name)
		}
	}
}

// longPlanSession is a generated agent loop of about 2 × calls calls
// (two turns or one), collected for the plan.
func longPlanSession(t testing.TB, calls int) *session {
	tr := pricedSession(1, calls, "claude-sonnet-4-5", 10*time.Second, 0, false)
	_, s, _ := planSession(t, tr, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}, cheapestStrategy{Keep: 1})
	return s
}

// solve's memory grows with candidates × √calls, not with calls ×
// candidates: on a session of 1,600 calls the bytes it allocates stay
// within 32 × (candidates + 1) × (√calls + 4) + 64 × calls, the
// checkpoints and one segment's rows, where a row per call (4 bytes a
// candidate) took about 4 × calls × candidates.
func TestCheapestSolveMemory(t *testing.T) {
	s := longPlanSession(t, 800)
	n, m := len(s.calls), len(s.cands)
	if n < 1500 || m < 1500 {
		t.Fatalf("%d calls, %d candidates: want a long session", n, m)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s.solve()
	runtime.ReadMemStats(&after)
	got := after.TotalAlloc - before.TotalAlloc
	bound := uint64(32*(m+1)*(int(math.Sqrt(float64(n)))+4) + 64*n)
	if got > bound {
		t.Errorf("solve allocated %d bytes on %d calls × %d candidates; want at most %d", got, n, m, bound)
	}
}

// BenchmarkCheapestSolve runs the programme on a session of 1,600 calls.
func BenchmarkCheapestSolve(b *testing.B) {
	s := longPlanSession(b, 800)
	b.ReportMetric(float64(len(s.cands)), "candidates")
	for b.Loop() {
		s.solve()
	}
}
