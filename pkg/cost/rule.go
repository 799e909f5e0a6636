package cost

import (
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// A cache rule's arithmetic, written once: the simulator prices calls
// with it, and the planners of package window (the cheapest plan, its
// drop programme, clear:auto) ask it rather than spell the rule again.

// Retention is how long an entry written under rule stays readable: ttl
// under Anthropic's rule (5 minutes or 1 hour, the writer's choice),
// [OpenAIRetention] under OpenAI's.
func Retention(rule prices.CacheRule, ttl time.Duration) time.Duration {
	if rule == prices.CacheOpenAI {
		return OpenAIRetention
	}
	return ttl
}

// LiveAt reports whether what a call at from left in the cache under
// rule is still there for a call at at (ttl as for [Retention]). An
// unknown time (zero) counts as live.
func LiveAt(rule prices.CacheRule, ttl time.Duration, from, at time.Time) bool {
	return live(expiry(from, Retention(rule, ttl)), at)
}

// OpenAIRead is what a call reads under OpenAI's rule of a cached prefix
// of common tokens: nothing under minTokens, else whole steps of
// [OpenAIStep].
func OpenAIRead(common, minTokens int) int {
	if common < minTokens {
		return 0
	}
	return common / OpenAIStep * OpenAIStep
}

// HitPrice and MissPrice are what a token of a call costs under rule
// when it is read from the cache and when it is not: read and written
// under Anthropic's rule, read and sent uncached under OpenAI's, the
// input price either way without a rule. input, read and write are the
// model's prices per token.
func HitPrice(rule prices.CacheRule, input, read float64) float64 {
	if Caches(rule) {
		return read
	}
	return input
}

// MissPrice: see [HitPrice].
func MissPrice(rule prices.CacheRule, input, write float64) float64 {
	if rule == prices.CacheAnthropic {
		return write
	}
	return input
}

// Caches reports whether rule caches prompts at all.
func Caches(rule prices.CacheRule) bool {
	return rule == prices.CacheAnthropic || rule == prices.CacheOpenAI
}

// PromptUSD is the price of a prompt of total tokens that reads read of
// them from the cache under rule, the rest missed ([MissPrice]). An
// Anthropic prompt under minTokens is neither read nor written: sent
// uncached.
func PromptUSD(rule prices.CacheRule, read, total, minTokens int, input, hit, write float64) float64 {
	if !Caches(rule) || rule == prices.CacheAnthropic && total < minTokens {
		return float64(total) * input
	}
	read = min(read, total)
	return float64(read)*HitPrice(rule, input, hit) + float64(total-read)*MissPrice(rule, input, write)
}
