package cost

import (
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// A cache rule's arithmetic is written here and nowhere else: the
// simulator prices calls with it, and the planners of package window
// (the cheapest plan, its drop programme, clear:auto), the books of a
// replay and its checks ask a [Rule] rather than spell the rule again.
//
// Adding a rule: name it in package prices (a CacheRule constant, in
// prices.CacheRules, and the models it is the rule of), and give it a
// line in rules below, which says how it reads. A rule that reads as an
// existing one does (the longest shared prefix, or entries written at
// breakpoints) needs nothing else.

// Reads is how a cache rule serves a call: what it reads and what it
// pays for the rest.
type Reads int

// The ways a rule reads.
const (
	// ReadsNothing: no cache; the whole prompt is uncached input.
	ReadsNothing Reads = iota
	// ReadsEntries: explicit caching (Anthropic's). A call reads the
	// deepest entry an earlier call of its model wrote at a cache
	// breakpoint and writes the rest, at the write price; an entry lives
	// the TTL its writer chose, refreshed by each read. A prompt under
	// the model's minimum is sent uncached and writes nothing.
	ReadsEntries
	// ReadsPrefix: implicit caching (OpenAI's, Gemini's). A call reads
	// the longest prefix it shares with its model's latest call, in
	// whole steps, when that is at least the minimum; the rest is
	// uncached input (writing is free), kept for the provider's own
	// retention.
	ReadsPrefix
)

// Rule is a prompt cache's rule as the cost model applies it: how a call
// reads ([Rule.Reads]), what it pays for what it did not read, and how
// long what it leaves stays. [RuleOf] gives the rule of a name; the zero
// Rule is [prices.CacheNone]'s, no cache.
type Rule struct{ d *ruleDef }

// ruleDef is a rule's line in rules.
type ruleDef struct {
	name  prices.CacheRule
	reads Reads
	// step: reads are whole steps of step tokens (0: any length).
	step int
	// minTokens is the shortest prompt read when the model names none.
	minTokens int
	// retention is how long an entry stays unused; 0: the TTL its
	// writer chose.
	retention time.Duration
}

// rules are the cache rules harpe models, one line each (the figures:
// see the constants in cost.go and docs/cost.md).
var rules = []ruleDef{
	{name: prices.CacheAnthropic, reads: ReadsEntries},
	{name: prices.CacheOpenAI, reads: ReadsPrefix, step: OpenAIStep, minTokens: OpenAIMinTokens, retention: OpenAIRetention},
	{name: prices.CacheNone, reads: ReadsNothing},
}

// noRule is the zero Rule's line: no cache.
var noRule ruleDef

// RuleOf returns the rule named name; "" and a name harpe does not know
// ([prices.ParseCacheRule] rejects those) are [prices.CacheNone]'s.
func RuleOf(name prices.CacheRule) Rule {
	for i := range rules {
		if rules[i].name == name {
			return Rule{&rules[i]}
		}
	}
	return Rule{}
}

// def is the rule's line.
func (r Rule) def() *ruleDef {
	if r.d == nil {
		return &noRule
	}
	return r.d
}

// Reads is how the rule serves a call.
func (r Rule) Reads() Reads { return r.def().reads }

// Caches reports whether the rule caches prompts at all.
func (r Rule) Caches() bool { return r.def().reads != ReadsNothing }

// Writes reports whether a call pays to write what it did not read
// ([ReadsEntries]): its misses are writes, its entries live the TTL the
// writer chose, and the provider reports what it wrote.
func (r Rule) Writes() bool { return r.def().reads == ReadsEntries }

// MinTokens is the shortest prompt the rule reads for a model whose own
// minimum is model (0: none named, the rule's own).
func (r Rule) MinTokens(model int) int {
	if model <= 0 {
		return r.def().minTokens
	}
	return model
}

// Retention is how long an entry written under the rule stays readable:
// ttl where the writer chooses it (5 minutes or 1 hour under
// Anthropic's rule), else the provider's ([OpenAIRetention] under
// OpenAI's).
func (r Rule) Retention(ttl time.Duration) time.Duration {
	if d := r.def().retention; d != 0 {
		return d
	}
	return ttl
}

// LiveAt reports whether what a call at from left in the cache is still
// there for a call at at (ttl as for [Rule.Retention]). An unknown time
// (zero) counts as live.
func (r Rule) LiveAt(ttl time.Duration, from, at time.Time) bool {
	return live(expiry(from, r.Retention(ttl)), at)
}

// Steps is n tokens rounded down to the whole steps the rule reads in
// (128 under OpenAI's rule); n under a rule that reads any length.
func (r Rule) Steps(n int) int {
	step := r.def().step
	if step <= 1 {
		return n
	}
	return n / step * step
}

// Read is what a call reads of common cached tokens: nothing under
// minTokens or without a cache, else common in whole [Rule.Steps].
func (r Rule) Read(common, minTokens int) int {
	if !r.Caches() || common < minTokens {
		return 0
	}
	return r.Steps(common)
}

// HitPrice and MissPrice are what a token of a call costs when it is
// read from the cache and when it is not: read and written under a rule
// that [Rule.Writes], read and sent uncached under another, the input
// price either way without a cache. input, read and write are the
// model's prices per token.
func (r Rule) HitPrice(input, read float64) float64 {
	if r.Caches() {
		return read
	}
	return input
}

// MissPrice: see [Rule.HitPrice].
func (r Rule) MissPrice(input, write float64) float64 {
	if r.Writes() {
		return write
	}
	return input
}

// SentUncached reports whether a prompt of total tokens is sent uncached
// whatever the cache holds: no cache, or under a rule that [Rule.Writes]
// a prompt under minTokens (or empty), which is neither read nor
// written.
func (r Rule) SentUncached(total, minTokens int) bool {
	return !r.Caches() || r.Writes() && (total < minTokens || total <= 0)
}

// Rest splits a prompt of total tokens that reads read of them: the
// rest is written under a rule that [Rule.Writes], else uncached.
func (r Rule) Rest(read, total int) Parts {
	if r.Writes() {
		return Parts{Read: read, Write: total - read}
	}
	return Parts{Read: read, Uncached: total - read}
}

// split is a prompt of total tokens that reads read of them (no more
// than total), as the rule bills it: [Rule.Rest], or all uncached where
// [Rule.SentUncached].
func (r Rule) split(read, total, minTokens int) Parts {
	if r.SentUncached(total, minTokens) {
		return Parts{Uncached: max(0, total)}
	}
	return r.Rest(min(read, total), total)
}

// PromptUSD is the price of a prompt of total tokens that reads read of
// them: [Rule.Rest], or all uncached where [Rule.SentUncached]; input,
// hit and write are the prices per token.
func (r Rule) PromptUSD(read, total, minTokens int, input, hit, write float64) float64 {
	return r.split(read, total, minTokens).USD(input, hit, write)
}

// Leaves is what a call billed as p leaves in the cache for its model's
// next call: what it read and wrote under a rule that [Rule.Writes] (its
// tail and what it did not send are not in it), the whole prompt it sent
// under one that reads the shared prefix, nothing without a cache.
func (r Rule) Leaves(p Parts) int {
	switch r.def().reads {
	case ReadsEntries:
		return p.Read + p.Write
	case ReadsPrefix:
		return p.Read + p.Write + p.Uncached
	}
	return 0
}

// Missed is what a call billed as p paid for that it did not read: its
// writes under a rule that [Rule.Writes], else its uncached input.
func (r Rule) Missed(p Parts) int {
	if r.Writes() {
		return p.Write
	}
	return p.Uncached
}

// USD is the price of the parts at input, read and write per token.
func (p Parts) USD(input, read, write float64) float64 {
	return float64(p.Read)*read + float64(p.Write)*write + float64(p.Uncached)*input
}

// Unsend takes n tokens the provider was not sent off the parts: off the
// write first, then the uncached input, then the read ([Step.Unsent]).
func (p Parts) Unsend(n int) Parts {
	d := min(n, p.Write)
	p.Write -= d
	u := min(n-d, p.Uncached)
	p.Uncached -= u
	p.Read -= min(n-d-u, p.Read)
	return p
}

// Untail moves up to n written tokens, sent after the prompt's last
// breakpoint, to the uncached input ([Step.Tail]).
func (p Parts) Untail(n int) Parts {
	if d := min(n, p.Write); d > 0 {
		p.Write -= d
		p.Uncached += d
	}
	return p
}
