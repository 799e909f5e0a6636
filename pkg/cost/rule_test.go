package cost

import (
	"math"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

func TestRule(t *testing.T) {
	at := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	hour := time.Hour
	live := []struct {
		rule     prices.CacheRule
		ttl      time.Duration
		from, to time.Time
		want     bool
	}{
		{prices.CacheAnthropic, hour, at, at.Add(hour), true},                // the TTL's last instant
		{prices.CacheAnthropic, hour, at, at.Add(hour + time.Second), false}, // past it
		{prices.CacheOpenAI, hour, at, at.Add(5 * time.Minute), true},        // OpenAI keeps 5 minutes, whatever ttl says
		{prices.CacheOpenAI, hour, at, at.Add(6 * time.Minute), false},       //
		{prices.CacheAnthropic, time.Minute, time.Time{}, at, true},          // unknown time: live
		{prices.CacheAnthropic, time.Minute, at, time.Time{}, true},          //
	}
	for i, c := range live {
		if got := LiveAt(c.rule, c.ttl, c.from, c.to); got != c.want {
			t.Errorf("live %d: LiveAt = %v, want %v", i, got, c.want)
		}
	}
	for _, c := range []struct{ common, min, want int }{
		{1023, 1024, 0}, {1024, 1024, 1024}, {1151, 1024, 1024}, {1152, 1024, 1152}, {200, 1, 128},
	} {
		if got := OpenAIRead(c.common, c.min); got != c.want {
			t.Errorf("OpenAIRead(%d, %d) = %d, want %d", c.common, c.min, got, c.want)
		}
	}
	// Prices per token: input 3, read 0.3, write 3.75.
	for _, c := range []struct {
		rule             prices.CacheRule
		read, total, min int
		want             float64
	}{
		{prices.CacheAnthropic, 600, 1000, 1024, 3000},                // under the minimum: all uncached
		{prices.CacheAnthropic, 600, 2000, 1024, 600*0.3 + 1400*3.75}, // read, the rest written
		{prices.CacheAnthropic, 3000, 2000, 1024, 2000 * 0.3},         // no more read than sent
		{prices.CacheOpenAI, 600, 2000, 1024, 600*0.3 + 1400*3},       // the rest uncached
		{prices.CacheNone, 600, 2000, 1024, 2000 * 3},                 // nothing cached
	} {
		if got := PromptUSD(c.rule, c.read, c.total, c.min, 3, 0.3, 3.75); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("PromptUSD(%s, %d of %d) = %g, want %g", c.rule, c.read, c.total, got, c.want)
		}
	}
}
