package window

import (
	"math"
	"testing"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/prices"
)

// The plan prices a call as the cost model bills it: prices per token
// input 3, read 0.3, write 3.75; a recorded call whose prompt was 100
// tokens shorter than its window (unsent), a tail of 50.
func TestCheapestCallCost(t *testing.T) {
	for _, c := range []struct {
		rule         prices.CacheRule
		unsent, tail int
		w, r         int
		want         float64
	}{
		// Read 600, write 1400 less 100 unsent less the tail of 50,
		// the tail uncached.
		{prices.CacheAnthropic, 100, 50, 2000, 600, 600*0.3 + 1250*3.75 + 50*3},
		// Under the minimum: uncached, and what was not sent is not
		// billed either (as cost.Simulator.Step bills it; the plan
		// billed all 800 before).
		{prices.CacheAnthropic, 100, 50, 800, 0, 700 * 3},
		{prices.CacheAnthropic, 0, 0, 800, 0, 800 * 3},
		// OpenAI: the rest uncached, less what was not sent; no tail.
		{prices.CacheOpenAI, 100, 50, 2000, 1024, 1024*0.3 + 876*3},
		{prices.CacheNone, 100, 50, 2000, 0, 1900 * 3},
		{prices.CacheNone, 100, 50, 60, 0, 0}, // no less than nothing
	} {
		s := &session{calls: []pcall{{rule: cost.RuleOf(c.rule), pi: 3, pr: 0.3, pw: 3.75, minCache: 1024,
			recorded: c.unsent > 0, overhead: -c.unsent, tail: c.tail}}}
		if got := s.callCost(0, c.w, c.r); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s window %d read %d: callCost = %g, want %g", c.rule, c.w, c.r, got, c.want)
		}
	}
}
