package cmd

import (
	"testing"

	"github.com/harpe-dev/harpe/pkg/cost"
)

// The flags become the pricing options as given: whether a transcript is
// priced at all is window's rule (see TestCostWhenPriced there).
func TestCostOptions(t *testing.T) {
	tests := []struct {
		name        string
		o           replayOptions
		rule, model string
		ttl         cost.TTL
	}{
		{"defaults", replayOptions{cacheTTL: "5m"}, "", "", 0}, // the records' TTL, else 5 minutes
		{"--model", replayOptions{model: "gpt-5", cacheTTL: "5m"}, "", "gpt-5", 0},
		{"--cache", replayOptions{cache: "openai", cacheTTL: "5m"}, "openai", "", 0},
		{"--cache-ttl 5m", replayOptions{cacheTTL: "5m", cacheTTLSet: true}, "", "", cost.AnthropicTTL},
		{"--cache-ttl 1h", replayOptions{cacheTTL: "1h", cacheTTLSet: true}, "", "", cost.AnthropicLongTTL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			co := costOptions(&tt.o, nil)
			if string(co.Rule) != tt.rule || co.Model != tt.model || co.TTL != tt.ttl {
				t.Errorf("rule %q model %q ttl %v, want %q %q %v", co.Rule, co.Model, co.TTL, tt.rule, tt.model, tt.ttl)
			}
		})
	}
}
