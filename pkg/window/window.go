// Package window decides what each model call of a conversation sees: the
// context strategies full, windowed, summarizing, turn, sliding and
// budget, edits that combine with any of them (clearing and masking old
// tool results, cutting long ones), and a replay of a saved transcript
// through them.
//
// # Strategies and their state
//
// A [Strategy] is a small value holding its own settings (windowed's
// chars, summarizing's water marks, …); [Strategy.Start] gives
// one conversation its own [State], so one strategy value can replay any
// number of conversations, concurrently. At every call the state reads
// the conversation's books, a [History] (system part, turns, the
// harness's resets, running sums of sizes, the rules that keep a tool
// call with its result), and returns a [Selection]. [Parse] builds a
// strategy from its name and settings ("windowed:chars=40000+clear"):
// each strategy is registered once by name with its settings typed in a
// struct ([Register]), which [Settings] lists with their kind, default
// and doc; a library adds its own strategy the same way. A built-in
// strategy of [Strategies] given to [Replay] is built with the options
// given there. Any other value that implements [Strategy] may be
// given to [Replay] too.
//
//   - full sends every retained message.
//   - windowed sends the newest whole turns whose characters fit; the
//     active turn is always whole, even alone over the budget.
//   - summarizing keeps a rolling summary in the system part and recent
//     turns verbatim. Compaction is reactive: after a call whose input
//     tokens exceed the high-water mark, the older turns are distilled
//     before the next call, keeping the newest whole turns that fit the
//     low-water mark.
//   - turn sends only the active turn.
//   - sliding sends the first turns (the goal) plus the newest that fit.
//   - budget runs the engine of harpe synthesize over the history at every
//     call: earlier turns whole, the active turn message by message (a tool
//     call with its results), the system part and the newest prompt always
//     kept; a call whose always-kept part alone passes the budget is marked
//     [Call.OverBudget].
//
// # Edits
//
// [Parse] adds edits to any strategy: clear (Anthropic's
// clear_tool_uses_20250919), mask (observation masking) and
// limit (--tool-result-limit). An edit changes how a message the
// strategy kept is sent, never whether: a window is a list of [Part]
// values, each a run of consecutive messages sent the same way (whole,
// truncated, cleared, masked, or the rolling summary) with its size. A placeholder is used
// only where it is smaller, so an edit never makes a call cost more than
// the same strategy without it.
//
// # Lifecycle
//
// A replay sees one conversation through one strategy as a harness
// produces it: the system part, a user prompt that opens a turn, the
// messages within the turn (assistant replies, tool calls, tool results),
// a window at each model-call boundary, the provider's input-token count
// after the reply ([State.Observe]), and the end of the turn, committed
// or aborted (an aborted turn is dropped from the context).
//
// # Harness compactions
//
// When the harness compacted its own context ([transcript.Transcript.Compactions]), every
// strategy follows it: the messages before the harness's summary leave the
// retained history, and the summary plus what follows is the history from
// there on, which is what the provider really saw. Each strategy then
// chooses within that history as it always does (windowed and sliding
// count turns from the one holding the summary, summarizing folds only
// retained messages, budget offers only retained entries), so every
// window is a subset of full's at the same call. Summarizing drops its own
// rolling summary there too, since the harness's summary covers the same
// turns. A tool result whose call came before the harness's summary is
// never sent: its call is gone with the rest.
//
// Every window is valid by construction: the system part is never dropped;
// earlier turns are kept or dropped whole, and turns joined by a tool call
// in one and its result in a later one are kept or dropped together, so a
// call and its result are never separated; a tool result with no call
// before it is never sent ([Replay] leaves it out), so no window starts
// with an orphaned result; an empty history gives an empty window, never
// an error. [Check] verifies these rules on any window.
//
// # Sizes
//
// A message's characters are the Unicode code points of its text plus
// those of each tool call's name and arguments; its tokens are the
// [tokenize.Counter]'s count of the same pieces. Roles and per-message
// framing are not counted. Strategies choose on these whole sizes; an
// edited part counts its replacement (placeholder or cut text, marker
// included). Sizes are computed once per message and kept as running sums
// (edits in a Fenwick tree), so a call costs time in proportion to what
// changed; budget keeps its candidates from call to call.
//
// [Replay] drives contexts through a [transcript.Transcript] and reports
// every call in the types [Result], [Call], [Event] and
// [Totals], whose JSON form is harpe replay's --format json.
//
// # Cost
//
// With [ReplayOptions.Cost] every call is also priced under the
// provider's prompt cache ([CostOptions], package cost): its window as
// blocks (the unseen overhead first, then each message as sent), handed
// to a [cost.Simulator] from the first block that changed since the
// previous call, so that an edit mid-window invalidates the cache from
// there on and pricing stays linear in the calls.
package window

import (
	"errors"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// Options are the settings of the strategies built by name ([Parse],
// and a strategy of [Strategies] given to [Replay]): each built-in strategy and
// edit has its own settings type (its field here), which holds its
// defaults and resolves into the strategy or edit it builds. The zero
// Options are the defaults: a nil setting takes its Default constant,
// and a set one, 0 included, is taken as it is (a window of 0 characters
// keeps only the active turn). Set one with new: new(60). A value
// written in the spec wins over the setting.
type Options struct {
	// Windowed, Sliding and Summarizing are the settings of the
	// windowed, sliding and summarizing strategies.
	Windowed    WindowedSettings
	Sliding     SlidingSettings
	Summarizing SummarizingSettings
	// ToolResultLimit, when above 0, adds a limit edit of this many
	// bytes to every strategy built (0, the default: none).
	ToolResultLimit int
	// Counter counts tokens; nil uses [tokenize.Estimate].
	Counter tokenize.Counter
	// Select is the budget strategy's selection, when set; otherwise the
	// engine runs under Budget with Engine; their
	// zero values are the engine's defaults, and a zero Budget.Total is
	// no budget.
	Select Selector
	Budget engine.Budget
	Engine engine.Options
	// Clear and Mask are the settings of the clear and mask edits.
	Clear ClearSettings
	Mask  MaskSettings
	// Defaults are the defaults of registered strategies' settings by
	// "name:key" ("last:turns"), for settings with no field here (a
	// strategy registered outside this package): each an int, bool,
	// string or []string as the setting's kind is. A spec's value wins.
	// [Options.SetDefault] fills it.
	Defaults map[string]any
}

// DefaultOptions returns the options with every default written out: the
// same strategies as the zero [Options] build.
func DefaultOptions() Options {
	return Options{
		Windowed: WindowedSettings{Chars: new(defaultWindowChars)},
		Sliding:  SlidingSettings{Head: new(defaultHead), Chars: new(defaultWindowChars)},
		Summarizing: SummarizingSettings{HighWaterTokens: new(defaultHighWaterTokens),
			LowWaterChars: new(defaultLowWaterChars), SummaryMaxChars: new(defaultSummaryMaxChars)},
		Clear: ClearSettings{Trigger: new(defaultClearTrigger), Keep: new(defaultClearKeep), ClearAtLeast: new(0)},
		Mask:  MaskSettings{Keep: new(defaultMaskKeep)},
	}
}

func (o *Options) check() error { return checkSettings(o, nil) } // spec.go

// resolve builds a strategy of [Strategies] with o; any other strategy is returned as it
// is.
func resolve(s Strategy, o Options) (Strategy, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if n, ok := s.(named); ok {
		return build(string(n), o)
	}
	if s == nil {
		return nil, errors.New("nil strategy")
	}
	return s, nil
}

// WithDistill returns s with d writing the rolling summaries of
// summarizing, alone or with edits ("summarizing+mask"); any other
// strategy is returned as it is. A strategy built by [Parse] takes its
// Distiller from [Options] (Summarizing.Distill); this hooks one into a
// strategy value already built.
func WithDistill(s Strategy, d summary.Distiller) Strategy {
	switch v := s.(type) {
	case summarizingStrategy:
		v.Distill = d
		return v
	case withEdits:
		v.Base = WithDistill(v.Base, d)
		return v
	}
	return s
}

// Selector is the budget strategy's choice at one call: history holds the
// retained messages (system part first, then the turns from the harness's
// latest summary on, the active turn last) with their sizes; activeFrom is
// the position in history where the active turn starts. It returns the
// positions to send, increasing. The system part and the active turn are
// added when missing, so the window stays valid whatever it returns.
type Selector func(history []Entry, activeFrom int) ([]int, error)

// Entry is one retained message with its size.
type Entry struct {
	// Message is the message as the model sees it: the transcript's own
	// (shared, never written through), or a copy with the tool result cut
	// by a limit edit. Never nil.
	Message *transcript.Message
	Chars   int
	Tokens  int
	// Truncated is set when the text was cut.
	Truncated bool
	// Turn is the message's turn; 0 for the system part.
	Turn int
	// counted is the counter's tokens where Tokens were sized from the
	// records ([Calibration]); 0 when Tokens are the counter's.
	counted int
	// textTokens is the counter's tokens of Message.Text alone, kept so
	// that an edit of the text (a clear, a mask) need not count it again.
	textTokens int
}

// Rendered is what a model call is sent.
type Rendered struct {
	// System holds the system messages' text joined by a blank line, and
	// the rolling summary when there is one.
	System string
	// Summary is the rolling summary sent at the end of System ("" for
	// none).
	Summary string
	// Messages is the conversation history the strategy kept, the active
	// turn last. Never nil.
	Messages []transcript.Message
}

// snapshot describes one call's window without copying it.
type snapshot struct {
	// Messages is the number of messages sent, the system part included.
	Messages int
	// Chars and Tokens are the size sent: system part, summary and
	// messages.
	Chars, Tokens int
	// SummaryChars is the size of the rolling summary sent (0 without one).
	SummaryChars int
	// Compaction is set when the context compacted just before this call.
	Compaction *Compaction
	// OverBudget is set when the strategy chose under a budget and the
	// window's counted tokens pass it (its always-kept part alone does).
	OverBudget bool
}

// Compaction records one fold of older turns into the summary.
type Compaction struct {
	// MessagesBefore and MessagesAfter count the messages the window held
	// before and after the fold, the system part included.
	MessagesBefore int `json:"messages_before"`
	MessagesAfter  int `json:"messages_after"`
	// SummaryChars is the size of the new summary.
	SummaryChars int `json:"summary_chars"`
	// Folded are the transcript indices of the messages folded, in order.
	Folded []int `json:"folded"`
}
