// Package live runs harpe's context strategies inside an agent loop: a
// [Context] is made once per session from a strategy (a built-in, a spec
// such as "windowed:chars=40000+clear", or one of your own), a system
// prompt and an initial history, and is handed every model call of the
// session:
//
//	during a turn    Begin(user prompt), Add(reply, tool call, tool result)
//	before a call    Render → what the provider is sent (system, messages)
//	                 and the window as transcript-style index runs
//	after the reply  Observe(the provider's usage)
//	end of the turn  Commit, or Abort (the turn leaves the context)
//
// The strategies are package window's, with the same books [window.Replay]
// keeps: a replay is a live context driven by a transcript ([Drive]), and
// the windows are the same call by call. Every window keeps a tool call
// with its results; a tool result whose call is not held is never sent.
//
// A Context is for one goroutine; one strategy value may serve any
// number of contexts at once.
package live

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// Message is one message of the conversation (package transcript's:
// role, text, tool calls, the id of the call a tool result answers).
type Message = transcript.Message

// Distill folds older messages into the rolling summary (summarizing):
// it returns the new summary; an error leaves the history and the
// summary as they were, and [Context.Render] returns it.
type Distill func(ctx context.Context, req summary.Request) (string, error)

// Config is what a [Context] starts with.
type Config struct {
	// System is the system prompt ("" for none).
	System string
	// Blocks are named context sources (a policy, a memory, …) sent in
	// the system part after the prompt, each as a delimited block
	// (<context name="…" description="…">…</context>) cut to its cap
	// under BlockOptions (default 4,000 characters) with a marker;
	// [Context.Cuts] says which were cut.
	Blocks       []engine.Item
	BlockOptions engine.BlockOptions
	// History is the initial history (empty, or reloaded from a
	// journal): system messages join the system part, a user message
	// that is not a tool result opens a turn, the rest follow it; the
	// last turn is committed.
	History []Message
	// Options set the strategies built from a spec or of [window.Strategies]
	// (window sizes, clearing's trigger, the token counter, …).
	Options window.Options
	// Distill, when set, writes summarizing's summaries (else
	// [summary.Extractive]).
	Distill Distill
	// Model names the model called, for clear:auto's prices, cache
	// rule and window limit (from Catalog, nil: the built-in prices);
	// Rule overrides its cache rule and TTL its cache TTL (0: 5 minutes).
	Model   string
	Catalog *prices.Catalog
	Rule    prices.CacheRule
	TTL     cost.TTL
	// Now, when set, gives each call's time (clear:auto reads whether
	// the cache is still warm from it); nil counts every cache as warm.
	Now func() time.Time
	// Overhead is the tokens every call pays beyond the messages (tool
	// definitions, framing), which clearing's trigger counts. 0: learnt
	// from each reported usage ([Context.Observe]); negative: none.
	Overhead int
}

// Context is one session's live context. Make it with [New] or
// [NewSpec].
type Context struct {
	conv  *window.Conversation
	cfg   Config
	calls int
	ctx   context.Context // during Render, for Distill
	facts window.CallFacts
	// priced is set when Model names a model (facts are then set at
	// every call).
	priced bool
	idx    window.Indices
	last   int // the latest render's counted tokens
	cuts   []engine.Cut
}

// NewSpec parses spec as harpe replay --strategy does
// ("windowed:chars=40000+clear") and returns a context under it.
func NewSpec(spec string, cfg Config) (*Context, error) {
	c := &Context{cfg: cfg}
	o := c.options()
	s, err := window.Parse(spec, o)
	if err != nil {
		return nil, err
	}
	return c.start(s, o)
}

// New returns a context under s: a built-in strategy value, one of
// [window.Strategies] (built with cfg.Options), or a strategy of your own (any
// [window.Strategy]: its State chooses each call's window from the
// [window.History]).
func New(s window.Strategy, cfg Config) (*Context, error) {
	c := &Context{cfg: cfg}
	if s == nil {
		return nil, errors.New("live: nil strategy")
	}
	return c.start(c.withDistill(s), c.options())
}

// options are cfg.Options with the distiller hooked to the render's
// context.
func (c *Context) options() window.Options {
	o := c.cfg.Options
	if c.cfg.Distill != nil {
		o.Summarizing.Distill = c.distill
	}
	return o
}

func (c *Context) distill(req summary.Request) (string, error) {
	ctx := c.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	return c.cfg.Distill(ctx, req)
}

// withDistill hooks Distill into a summarizing strategy given as a
// value.
func (c *Context) withDistill(s window.Strategy) window.Strategy {
	if c.cfg.Distill == nil {
		return s
	}
	return window.WithDistill(s, c.distill)
}

// ErrHindsight is the error for cheapest, which plans a whole session
// with hindsight (every later call's size and time): no live context can
// be it.
var ErrHindsight = errors.New("live: cheapest plans with hindsight (every later call), which a live context does not have; clear:auto is its live rule")

// hindsight reports whether s is cheapest (alone or with edits).
func hindsight(s window.Strategy) bool {
	return slices.Contains(window.Components([]window.Strategy{s}), "cheapest")
}

func (c *Context) start(s window.Strategy, o window.Options) (*Context, error) {
	if hindsight(s) {
		return nil, ErrHindsight
	}
	conv, err := window.NewConversation(s, o)
	if err != nil {
		return nil, err
	}
	c.conv = conv
	conv.SetOverhead(max(0, c.cfg.Overhead))
	if c.cfg.Model != "" {
		c.priced = true
		c.facts = window.FactsFor(c.cfg.Catalog, c.cfg.Model, time.Time{}, c.cfg.Rule, c.cfg.TTL)
	}
	if c.cfg.System != "" {
		conv.AddSystem(Message{Role: transcript.RoleSystem, Text: c.cfg.System})
	}
	if len(c.cfg.Blocks) > 0 {
		var text string
		text, c.cuts = engine.RenderBlocks(c.cfg.Blocks, c.cfg.BlockOptions)
		conv.AddSystem(Message{Role: transcript.RoleSystem, Text: strings.TrimSuffix(text, "\n")})
	}
	for _, m := range c.cfg.History {
		switch {
		case m.Role == transcript.RoleSystem:
			conv.AddSystem(m)
		case m.Role == transcript.RoleUser && m.ToolCallID == "":
			c.Begin(m)
		default:
			if !conv.Open() {
				conv.Begin()
			}
			conv.Add(m)
		}
	}
	conv.Commit()
	return c, nil
}

// Begin opens a turn with the user's message (a turn still open is
// committed) and returns the message's index.
func (c *Context) Begin(user Message) int {
	c.conv.Begin()
	i, _ := c.conv.Add(user)
	return i
}

// Add appends a message to the active turn (a reply, a tool call, a tool
// result) and returns its index and whether it is held: a tool result
// whose call is not held (none, or in an aborted turn) is never sent.
// Without an open turn, a reply opens one.
func (c *Context) Add(m Message) (int, bool) {
	if !c.conv.Open() {
		c.conv.Begin()
	}
	return c.conv.Add(m)
}

// Commit ends the active turn, keeping it.
func (c *Context) Commit() { c.conv.Commit() }

// Abort ends the active turn and drops it: its messages are never sent
// again (their indices are not reused).
func (c *Context) Abort() { c.conv.Abort() }

// Usage is what the provider reported for a reply.
type Usage struct {
	// Input is the prompt tokens neither read from nor written to the
	// cache; CacheRead and CacheWrite the cached parts (OpenAI reports
	// its prompt total with the cached part inside: give Input as
	// total − cached); Output the reply's tokens.
	Input, CacheRead, CacheWrite, Output int
}

// Prompt is the prompt's tokens in all.
func (u Usage) Prompt() int { return u.Input + u.CacheRead + u.CacheWrite }

// Snapshot is what one call sends.
type Snapshot struct {
	// Call numbers the context's calls from 1.
	Call int
	// System is the system prompt as sent (system messages joined by a
	// blank line, the rolling summary last); Summary the summary alone.
	System, Summary string
	// Messages are the conversation as sent, placeholders in place.
	// They are reused by the next Render: copy what you keep.
	Messages []Message
	// Window lists the indices sent (system part included), ascending;
	// its JSON is the runs [[first,last],…] of harpe replay -f json.
	Window window.Indices
	// Parts are the window's runs with how each was sent.
	Parts []window.Part
	// Tokens is the counted size sent, without the overhead.
	Tokens int
	// Compaction is set when summarizing folded turns before this call.
	Compaction *window.Compaction
	// Clears are clear:auto's decisions at this call, each with what it
	// expects to save (none when it had nothing to clear).
	Clears []window.ClearDecision
}

// Render chooses and returns what the next model call sends. Its time
// grows with what changed since the call before, not with the session
// (the indices and parts are listed by runs; the messages are copied
// from the first one sent otherwise). ctx is handed to Distill.
func (c *Context) Render(ctx context.Context) (*Snapshot, error) {
	if c.priced {
		f := c.facts
		if c.cfg.Now != nil {
			f.At = c.cfg.Now()
		}
		c.conv.SetCall(f)
	}
	c.ctx = ctx
	w, err := c.conv.Render()
	c.ctx = nil
	if err != nil {
		return nil, err
	}
	c.calls++
	c.last = w.Tokens
	r := c.conv.Rendered()
	c.idx = c.idx[:0]
	if c.idx == nil {
		c.idx = window.Indices{}
	}
	for _, p := range w.Parts {
		for i := p.From; i <= p.To && p.Sent != "summary"; i++ {
			c.idx = append(c.idx, i)
		}
	}
	if !slices.IsSorted(c.idx) {
		slices.Sort(c.idx)
	}
	return &Snapshot{
		Call: c.calls, System: r.System, Summary: r.Summary, Messages: r.Messages,
		Window: c.idx, Parts: w.Parts, Tokens: w.Tokens, Compaction: w.Compaction,
		Clears: w.Clears,
	}, nil
}

// Observe records the provider's usage for the reply to the latest call:
// summarizing compacts before the next call when its prompt passed the
// high-water mark. Where Config.Overhead is 0, the prompt less the
// tokens counted in the window becomes the overhead of the calls that
// follow (what the tools' definitions and the framing cost). Under the
// Anthropic cache rule (Config.Model's), the cached part (read +
// written) tells clear:auto what the cache holds for the next call.
// A zero Usage (nothing reported) changes nothing but summarizing's
// view.
func (c *Context) Observe(u Usage) {
	c.conv.Observe(u.Prompt())
	if u.Prompt() == 0 {
		return
	}
	if c.cfg.Overhead == 0 {
		c.conv.SetOverhead(max(0, u.Prompt()-c.last))
	}
	if c.priced && cost.RuleOf(c.facts.Rule).Writes() {
		c.conv.ObserveCache(u.CacheRead + u.CacheWrite)
	}
}

// Cuts lists the blocks of Config.Blocks cut to their cap (Index: the
// position in Config.Blocks), with how much of each was kept.
func (c *Context) Cuts() []engine.Cut { return c.cuts }

// Summary is the rolling summary ("" for none).
func (c *Context) Summary() string { return c.conv.Summary() }
