// Package cost prices model calls: what a session cost from its recorded
// usage, and what a sequence of context windows would cost with the
// provider's prompt cache modelled as the provider bills it.
//
// # Calls and blocks
//
// A [Call] is one request: the model asked, when, its window as an ordered
// list of [Block] values and the output tokens the reply had. A block is a
// piece of the window with a stable identity (which message, how it was
// sent, a hash of its content) and its tokens: two calls share a prefix
// exactly when their first blocks have the same identities. [Simulate]
// walks the calls in order and splits each window into what the cache
// served (read), what it wrote and what was sent uncached, then prices
// each part with the model's [prices.Prices].
//
// A [Simulator] does the same one call at a time, each given as a [Step]:
// the front block (the unseen system prompt and tools), how many blocks
// after it the call shares with the previous one, and the blocks that
// follow. A call then costs time in proportion to what changed, so a
// replay of 10,000 calls costs ten times one of 1,000; [Simulate] finds
// the shared prefix of whole windows itself and steps through them.
//
// # Cache rules
//
// The rule comes from the model ([prices.Model.Cache]) unless
// [Options.Rule] overrides it:
//
//   - [prices.CacheAnthropic]: a call reads the longest prefix of its
//     window that an earlier call of the same model wrote and that has not
//     expired (5 minutes, refreshed by each read, or 1 hour with
//     [Options.TTL]); the rest is written. Entries are written at cache
//     breakpoints: the end of every window (automatic caching on the last
//     block) and after each block marked [Block.Breakpoint] (the system
//     prompt and tools). A window shorter than the model's minimum
//     cacheable length ([prices.Model.MinCacheTokens]) is sent uncached
//     and writes nothing.
//   - [prices.CacheOpenAI]: automatic; a call reads the longest prefix it
//     shares with any earlier call of the same model seen within 5 minutes,
//     rounded down to a multiple of 128 tokens, when that is at least 1,024
//     tokens; writing is free.
//   - [prices.CacheNone]: everything is uncached input.
//
// Each rule's arithmetic is written once, as a [Rule] ([RuleOf]): how a
// call reads ([Rule.Reads]), how long an entry lives ([Rule.Retention]),
// what a call reads, pays and leaves. The simulator and package window's
// planners ask it; adding a rule is a name in package prices and a line
// in this package's table of rules.
//
// docs/cost.md gives the provider pages these figures come from, with the
// date they were read, and the simplifications made.
//
// # Recorded cost
//
// [Recorded] totals a transcript's recorded usage ([transcript.Usage]) and
// prices it; [FullCalls] turns a transcript into the calls its harness
// really sent (every message since the last compaction, after an unseen
// overhead block sized from the recorded usage), so that [Simulate] can be
// checked against what the provider recorded ([Agreement]).
package cost
