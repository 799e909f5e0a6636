package report

import "testing"

func TestTranscriptShortModel(t *testing.T) {
	for in, want := range map[string]string{
		"claude-opus-4-5-20251101": "opus-4-5",
		"gpt-5-codex":              "gpt-5-codex",
		"gpt-4o-2024-08-06":        "gpt-4o-2024-08-06", // not an 8-digit date
		"claude-sonnet-4-5":        "sonnet-4-5",
	} {
		if got := transcriptShortModel(in); got != want {
			t.Errorf("transcriptShortModel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTranscriptShortID: the session table shows a session id's first 8
// characters.
func TestTranscriptShortID(t *testing.T) {
	if got := transcriptShortID("74671abd-5a64-439f"); got != "74671abd" {
		t.Errorf("transcriptShortID %q", got)
	}
}
