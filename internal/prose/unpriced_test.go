package prose

import "testing"

func TestUnpriced(t *testing.T) {
	for _, tc := range []struct {
		calls, tokens int
		models        []string
		want          string
	}{
		{6, 66116, []string{"mystery-1"}, "unpriced: 6 calls, 66116 tokens of \"mystery-1\": not in the cost\n"},
		{1, 7, []string{"a", `b"c`}, "unpriced: 1 call, 7 tokens of \"a\", \"b\\\"c\": not in the cost\n"},
	} {
		if got := Unpriced(tc.calls, tc.tokens, tc.models); got != tc.want {
			t.Errorf("Unpriced(%d, %d, %q) = %q, want %q", tc.calls, tc.tokens, tc.models, got, tc.want)
		}
	}
}
