package window

import "testing"

func TestLimitName(t *testing.T) {
	for n, want := range map[int]string{100000: "100k", 0: "0", 1500: "1500", 4000: "4k", 1000: "1k", 999: "999"} {
		if got := limitName(n); got != want {
			t.Errorf("limitName(%d) = %q, want %q", n, got, want)
		}
	}
}
