// Package engine decides which context items go into one model call under a
// token budget, and reports what it kept, what it dropped and why.
//
// # Items
//
// An [Item] is one piece of context: a system prompt, a goal, a memory, a
// tool call or its result, a retrieved chunk. Items are usually read from
// JSON Lines with [ReadItems] or an [ItemReader] (several inputs in a row);
// every field of the JSONL format has a field here, and [Item.Raw] keeps the
// input line byte for byte so a caller can emit the selected lines exactly
// as they came in. Bad lines give a [*LineError] that names the input, the
// line and, for JSON syntax errors, the column. Every harpe command reads
// items with this reader, so a line means the same to all of them: a
// leading UTF-8 byte order mark is skipped, blank lines are not items, ids
// are strings unique over all inputs, and a whole-number timestamp of
// [MillisFrom] or more is Unix milliseconds. [ItemReader.ReadEach] hands
// over every line, blank ones too, for a command that writes its input
// back.
//
// # Budget
//
// A [Budget] is the model's total window minus what is set aside first: the
// reply, tool definitions and a safety margin. [Budget.Available] is what the
// items may take. [ParseAmount] reads the "N" or "N%" form used for the
// safety margin and for caps.
//
// # Synthesis
//
// [Synthesize] works in a fixed order: it withholds confidential items when
// the destination is remote, counts tokens for items without a token count
// (with [Options.Counter], [tokenize.Estimate] by default), keeps every
// always-kept item (pinned, priority 0, dimension "invariant", and the whole
// group of any of them), and fills the room left by a [Policy]. When the
// always-kept items alone exceed the available room, the ceiling grows into
// the safety margin just far enough to hold them (dynamic expansion);
// beyond that the [Report] says over_budget and, with [Options.Strict],
// Synthesize returns an [*OverBudgetError].
//
// # Policies
//
// A [Policy] chooses among [Candidate] values: a single item, or all items
// of one group, which are kept or dropped together. The greedy policies
// ("lowest_priority", the default, "recency", "input_order" and
// "relevance") sort the candidates and take each one that still fits,
// scanning on after one that does not. The optimising policies
// ("knapsack" and "duo_attention") solve the 0/1 knapsack over token counts
// exactly, maximising the total utility kept ([KnapsackUtilities],
// [DuoAttentionUtilities]), while candidates × (capacity + 1) stays within
// [Options.DPCells]; above it they take candidates by utility per token and
// fill the slack. The report names the solver and the utility kept. Among
// optimal selections the one that includes the earliest differing candidate
// wins, so the answer is unique. Other policies plug in with [Register];
// [PolicyNames] lists every registered name. A [Tracker] does
// the capacity and per-dimension cap bookkeeping for any policy.
//
// # Bounds and cancellation
//
// Token totals are summed with checked arithmetic: a total that does not
// fit an int is a [*TokenOverflowError], never a wrapped number.
// [Options.DPCells] is at most [MaxDPCells], so the exact knapsack's table
// stays within 768 MiB ([CheckDPCells]). [ItemReader.Read] and
// [Synthesize] stop once their context is done; policies see it in
// [Problem.Context].
//
// # Determinism
//
// The same items, budget and options always give the same report: there is
// no randomness, no clock and no dependence on map order. "Newer" means a
// larger (timestamp, position) pair, an item without a timestamp counting as
// older than any item with one, so every ordering is total. The report's
// reference time is the newest item timestamp, never the wall clock.
package engine
