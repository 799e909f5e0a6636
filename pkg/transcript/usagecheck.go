package transcript

import (
	"fmt"
	"strings"
)

// count is one token count of a usage record: its field name and value.
type count struct {
	name string
	n    int
}

// nonNegative is nil when every count is ≥ 0, else an error naming the
// negative ones: a negative count would bill a negative cost, or make a
// prompt total ≤ 0 that drops the call's usage silently.
func nonNegative(cs ...count) error {
	var bad []string
	for _, c := range cs {
		if c.n < 0 {
			bad = append(bad, fmt.Sprintf("%q (%d)", c.name, c.n))
		}
	}
	if bad == nil {
		return nil
	}
	return fmt.Errorf("token counts must be whole numbers ≥ 0: %s", strings.Join(bad, ", "))
}

// check is nil when every count u records is ≥ 0.
func (u *anUsage) check() error {
	if u == nil {
		return nil
	}
	cs := []count{{"input_tokens", u.InputTokens}, {"cache_creation_input_tokens", u.CacheCreationInputTokens},
		{"cache_read_input_tokens", u.CacheReadInputTokens}, {"output_tokens", u.OutputTokens}}
	if c := u.CacheCreation; c != nil {
		cs = append(cs, count{"cache_creation.ephemeral_5m_input_tokens", c.Ephemeral5m}, count{"cache_creation.ephemeral_1h_input_tokens", c.Ephemeral1h})
	}
	return nonNegative(cs...)
}

// check is nil when every count u records is ≥ 0.
func (u *gmUsage) check() error {
	if u == nil {
		return nil
	}
	prompt := 0
	if u.PromptTokenCount != nil {
		prompt = *u.PromptTokenCount
	}
	return nonNegative(count{"promptTokenCount", prompt}, count{"cachedContentTokenCount", u.CachedContentTokenCount},
		count{"candidatesTokenCount", u.CandidatesTokenCount}, count{"thoughtsTokenCount", u.ThoughtsTokenCount})
}

// deref is *p, or 0 for nil.
func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
