package cmd

import "testing"

func TestCompactCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0"}, {9999, "9999"}, // below 10,000 as it is
		{10000, "10.0k"}, {12345, "12.3k"}, {68183, "68.2k"}, // three significant digits
		{737580, "738k"}, {999499, "999k"}, // 999.499k rounds to 999k
		{999500, "1.00M"}, {1148538, "1.15M"}, {17158013, "17.2M"}, {40399479, "40.4M"},
		{999500000, "1.00G"},
	} {
		if got := compactCount(tc.n); got != tc.want {
			t.Errorf("compactCount(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestShortModel(t *testing.T) {
	for in, want := range map[string]string{
		"claude-opus-4-5-20251101": "opus-4-5",
		"gpt-5-codex":              "gpt-5-codex",
		"gpt-4o-2024-08-06":        "gpt-4o-2024-08-06", // not an 8-digit date
		"claude-sonnet-4-5":        "sonnet-4-5",
	} {
		if got := shortModel(in); got != want {
			t.Errorf("shortModel(%q) = %q, want %q", in, got, want)
		}
	}
}
