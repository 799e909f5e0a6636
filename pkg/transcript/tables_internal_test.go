package transcript

import "testing"

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
