package report

import (
	"testing"

	"github.com/harpe-dev/harpe/pkg/window"
)

// TestCostWhyLine: the line of a [window.CostWhy] worked by hand. Three
// of six calls rewrote the cache (full at one), 113,312 tokens each on
// average (two significant digits: ~110k), most at the 1-hour write
// price, $8.75 more than full; and the line of a strategy that rewrote
// at no call. Clearing fired at 97 of 109 calls of a 1-hour-cache
// session, each rewriting some 180,000 tokens.
func TestCostWhyLine(t *testing.T) {
	for _, tt := range []struct {
		w    window.CostWhy
		want string
	}{
		{window.CostWhy{ExtraUSD: 8.75, Calls: 3, Of: 6, FullCalls: 1, PerCall: 113312, Price: "1-hour write"},
			"rewrote the cache at 3 of 6 calls (full at 1), each ~110k tokens at the 1-hour write price: $8.750000 more than full"},
		{window.CostWhy{ExtraUSD: 41.2, Calls: 97, Of: 109, FullCalls: 2, PerCall: 181234, Price: "1-hour write"},
			"rewrote the cache at 97 of 109 calls (full at 2), each ~180k tokens at the 1-hour write price: $41.200000 more than full"},
		{window.CostWhy{ExtraUSD: 0.5, Of: 4, FullCalls: 2},
			"rewrote the cache at no call (full at 2): $0.500000 more than full"},
	} {
		if got := costWhyLine(&tt.w); got != tt.want {
			t.Errorf("line %q,\nwant %q", got, tt.want)
		}
	}
}

func TestAbout(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 949: "950", 999: "1k", 1234: "1.2k", 1250: "1.3k", 180400: "180k",
		999_499: "1M", 999_500: "1M", 1_260_000: "1.3M", 23036: "23k"} {
		if got := about(n); got != want {
			t.Errorf("about(%d) = %q, want %q", n, got, want)
		}
	}
}
