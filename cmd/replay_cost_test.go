package cmd

import (
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// When a replay is priced, and with what.
func TestCostOptions(t *testing.T) {
	plain := &transcript.Transcript{Messages: []transcript.Message{{Role: "user"}, {Role: "assistant"}}}
	named := &transcript.Transcript{Messages: []transcript.Message{{Role: "user"}, {Role: "assistant", Model: "claude-sonnet-4-5"}}}
	tests := []struct {
		name        string
		o           replayOptions
		t           *transcript.Transcript
		on          bool
		rule, model string
	}{
		{"no model anywhere: nothing to price", replayOptions{}, plain, false, "", ""},
		{"the calls name their model", replayOptions{}, named, true, "", ""},
		{"--model names one", replayOptions{model: "gpt-5"}, plain, true, "", "gpt-5"},
		{"--cache alone prices at zero under that rule", replayOptions{cache: "openai"}, plain, true, "openai", ""},
		{"--cache overrides the recorded model's rule", replayOptions{cache: "none"}, named, true, "none", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.o.cacheTTL == "" {
				tt.o.cacheTTL = "5m"
			}
			co := costOptions(&tt.o, tt.t, nil)
			if (co != nil) != tt.on {
				t.Fatalf("priced = %v, want %v", co != nil, tt.on)
			}
			if co != nil && (co.Rule != tt.rule || co.Model != tt.model) {
				t.Errorf("rule %q model %q, want %q %q", co.Rule, co.Model, tt.rule, tt.model)
			}
		})
	}
}
