package report

import "testing"

// Long file names keep their start and end around an ellipsis, so a plot
// title stays within the picture.
func TestShortenMiddle(t *testing.T) {
	tests := []struct {
		name, s string
		n       int
		want    string
	}{
		{"short stays", "session.jsonl", 36, "session.jsonl"},
		{"exactly n stays", "abcdef", 6, "abcdef"},
		// 7 kept: 3 before the ellipsis, 3 after.
		{"odd n", "abcdefghij", 7, "abc…hij"},
		// 6 kept: 2 before, 3 after.
		{"even n", "abcdefghij", 6, "ab…hij"},
		{"code points, not bytes", "ééééééééé", 5, "éé…éé"},
		// 36 kept: the first 17 code points, the last 18.
		{"a Codex rollout", "rollout-2026-11-24T14-02-09-019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73.jsonl", 36,
			"rollout-2026-11-2…4b1f0c2d8a73.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replayShortenMiddle(tt.s, tt.n); got != tt.want {
				t.Errorf("replayShortenMiddle(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
			}
		})
	}
}
