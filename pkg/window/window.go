// Package window decides which messages of a conversation each model call
// sees: the context strategies full, windowed, summarizing, turn, sliding
// and budget, and a replay of a saved transcript through them.
//
// # Lifecycle
//
// A [Context] is one conversation seen through one [Strategy]. It receives
// the same events a harness produces: the system part ([Context.AddSystem]),
// a user prompt that opens a turn ([Context.Begin]), the messages within the
// turn ([Context.Add]: assistant replies, tool calls, tool results), a
// snapshot at each model-call boundary ([Context.Render], or the cheaper
// [Context.Snapshot]), the provider's input-token count after the reply
// ([Context.Observe]), and the end of the turn ([Context.Commit] or
// [Context.Abort]; an aborted turn is dropped from the context).
//
// # Strategies
//
//   - [Full] sends every retained message.
//   - [Windowed] sends the newest whole turns whose characters fit
//     [Options.WindowChars]; the active turn is always whole, even alone
//     over the budget.
//   - [Summarizing] keeps a rolling summary in the system part and recent
//     turns verbatim. Compaction is reactive: after a reply whose observed
//     input tokens exceed [Options.HighWaterTokens], the older turns are
//     distilled before the next call, keeping the newest whole turns that
//     fit [Options.LowWaterChars].
//   - [TurnOnly] sends only the active turn.
//   - [Sliding] sends the first [Options.Head] turns plus the newest turns
//     that fit [Options.WindowChars].
//   - [Budget] runs a selection function ([Options.Select]) over the
//     history at every call.
//
// # Harness compactions
//
// When the harness compacted its own context ([Context.Compacted]), every
// strategy follows it: the messages before the harness's summary leave the
// retained history, and the summary plus what follows is the history from
// there on, which is what the provider really saw. Each strategy then
// chooses within that history as it always does (windowed and sliding
// count turns from the one holding the summary, summarizing folds only
// retained messages, budget offers only retained entries), so every
// window is a subset of full's at the same call. Summarizing drops its own
// rolling summary there too, since the harness's summary covers the same
// turns. A tool result
// whose call came before the harness's summary is never sent: its call is
// gone with the rest.
//
// Every window is valid by construction: the system part is never dropped;
// turns are kept or dropped whole, and turns joined by a tool call in one
// and its result in a later one are kept or dropped together, so a call and
// its result are never separated; a tool result with no call before it is
// never sent ([Replay] leaves it out), so no window starts with an orphaned
// result; an empty history gives an empty window, never an error. [Check]
// verifies these rules on any window.
//
// # Sizes
//
// A message's characters are the Unicode code points of its text (a tool
// result cut by [Options.ToolResultLimit] counts as cut, marker included)
// plus those of each tool call's name and arguments; its tokens are the
// [tokenize.Counter]'s count of the same pieces. Roles and per-message
// framing are not counted. Sizes are computed once per message and kept as
// running sums, so a boundary costs time in proportion to what changed.
//
// [Replay] drives contexts through a [transcript.Transcript] and reports
// every call.
package window

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Strategy names a context strategy.
type Strategy string

// The strategies.
const (
	Full        Strategy = "full"
	Windowed    Strategy = "windowed"
	Summarizing Strategy = "summarizing"
	TurnOnly    Strategy = "turn"
	Sliding     Strategy = "sliding"
	Budget      Strategy = "budget"
)

// Strategies lists every strategy in the order help text shows them.
func Strategies() []Strategy {
	return []Strategy{Full, Windowed, Summarizing, TurnOnly, Sliding, Budget}
}

// ParseStrategy returns the strategy with the given name.
func ParseStrategy(name string) (Strategy, error) {
	for _, s := range Strategies() {
		if string(s) == name {
			return s, nil
		}
	}
	names := make([]string, 0, 6)
	for _, s := range Strategies() {
		names = append(names, string(s))
	}
	return "", fmt.Errorf("unknown strategy %q; valid: %s", name, strings.Join(names, ", "))
}

// Defaults of [Options], as [DefaultOptions] sets them.
const (
	DefaultWindowChars     = 160000
	DefaultHighWaterTokens = 120000
	DefaultLowWaterChars   = 160000
	DefaultSummaryMaxChars = 8000
	DefaultHead            = 1
)

// Options tune the strategies. Start from [DefaultOptions]: a zero field
// means zero (a zero window keeps only the active turn), not the default.
type Options struct {
	// WindowChars is the character budget of windowed and sliding.
	WindowChars int
	// Head is the number of first turns sliding always keeps.
	Head int
	// HighWaterTokens is the observed input-token count above which
	// summarizing compacts before the next call.
	HighWaterTokens int
	// LowWaterChars is how many characters of recent whole turns (the
	// active turn included) summarizing keeps verbatim when it compacts.
	LowWaterChars int
	// SummaryMaxChars bounds the rolling summary: a longer distillation is
	// cut to this many characters.
	SummaryMaxChars int
	// Distill writes the new rolling summary; nil uses [Extractive].
	Distill Distiller
	// ToolResultLimit cuts tool results longer than this many bytes in the
	// model's copy, with a marker (see [TruncateToolResult]); 0 keeps them
	// whole.
	ToolResultLimit int
	// Counter counts tokens; nil uses [tokenize.Estimate].
	Counter tokenize.Counter
	// Select is the budget strategy's selection: given the history at a
	// call, it returns which entries to send. Required for [Budget].
	Select Selector
}

// DefaultOptions returns the options with every default set.
func DefaultOptions() Options {
	return Options{
		WindowChars:     DefaultWindowChars,
		Head:            DefaultHead,
		HighWaterTokens: DefaultHighWaterTokens,
		LowWaterChars:   DefaultLowWaterChars,
		SummaryMaxChars: DefaultSummaryMaxChars,
	}
}

func (o *Options) check(s Strategy) error {
	switch {
	case o.WindowChars < 0:
		return errors.New("window chars must be ≥ 0")
	case o.Head < 0:
		return errors.New("head must be ≥ 0")
	case o.HighWaterTokens < 0:
		return errors.New("high-water tokens must be ≥ 0")
	case o.LowWaterChars < 0:
		return errors.New("low-water chars must be ≥ 0")
	case o.SummaryMaxChars < 0:
		return errors.New("summary max chars must be ≥ 0")
	case o.ToolResultLimit < 0:
		return errors.New("tool result limit must be ≥ 0")
	case s == Budget && o.Select == nil:
		return errors.New("the budget strategy needs a selector")
	}
	return nil
}

// Distiller folds older messages into a rolling summary. It returns the new
// summary, which replaces req.Summary; an error stops the replay.
type Distiller func(req DistillRequest) (string, error)

// DistillError is a [Distiller]'s failure, as [Context.Render],
// [Context.Snapshot] and [Replay] return it.
type DistillError struct{ Err error }

func (e *DistillError) Error() string { return "distill: " + e.Err.Error() }

// Unwrap returns the distiller's error.
func (e *DistillError) Unwrap() error { return e.Err }

// DistillRequest is what a [Distiller] is given.
type DistillRequest struct {
	// Summary is the rolling summary so far ("" at the first compaction).
	Summary string
	// Messages are the messages being folded, as the model saw them.
	Messages []transcript.Message
	// MaxChars bounds the result; a longer one is cut.
	MaxChars int
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
	// Message is the model's copy (tool results cut by
	// [Options.ToolResultLimit]).
	Message transcript.Message
	Chars   int
	Tokens  int
	// Turn is the message's turn; 0 for the system part.
	Turn int
}

// Rendered is what a model call is sent.
type Rendered struct {
	// System holds the system messages' text joined by a blank line, and
	// the rolling summary when there is one.
	System string
	// Messages is the conversation history the strategy kept, the active
	// turn last. Never nil.
	Messages []transcript.Message
}

// Snapshot describes one call's window without copying it.
type Snapshot struct {
	// Messages is the number of messages sent, the system part included.
	Messages int
	// Chars and Tokens are the size sent: system part, summary and
	// messages.
	Chars, Tokens int
	// SummaryChars is the size of the rolling summary sent (0 without one).
	SummaryChars int
	// Compaction is set when the context compacted just before this call.
	Compaction *Compaction
}

// Compaction records one fold of older turns into the summary.
type Compaction struct {
	// MessagesBefore and MessagesAfter count the messages the window held
	// before and after the fold, the system part included.
	MessagesBefore, MessagesAfter int
	// SummaryChars is the size of the new summary.
	SummaryChars int
	// Folded are the transcript indices of the messages folded, in order.
	Folded []int
}

type span struct{ lo, hi int }

// Context is one conversation under one strategy. The zero value is not
// usable; call [New].
type Context struct {
	strategy Strategy
	opts     Options
	counter  tokenize.Counter

	sys               []Entry
	sysChars, sysToks int

	// hist holds the retained turns and the active turn; cumC and cumT are
	// prefix sums of chars and tokens (len(hist)+1 entries).
	hist       []Entry
	cumC, cumT []int
	// turns holds the position in hist where each retained turn starts; the
	// last one is the active turn while open.
	turns []int
	open  bool
	// joined[j] is set when turn j holds a tool result whose call is in
	// an earlier turn: no window may start at turn j, so the pair stays
	// together. callAt maps a tool call id to its position in hist;
	// turnCalls lists the ids the active turn added, to forget on abort.
	joined    []bool
	callAt    map[string]int
	turnCalls []string

	// reset is the position in hist of the harness's latest summary (0
	// without one): nothing before it is retained. resetTurn is the index
	// in turns of the turn holding it. Both are saved when a turn opens,
	// so that an abort restores them.
	reset, resetTurn               int
	resetAtBegin, resetTurnAtBegin int

	// budget: buffers reused from call to call
	budgetAll  []Entry
	budgetKeep []bool

	// summarizing
	fold                      int // turns[:fold] are in the summary
	summary                   string
	summaryChars, summaryToks int
	pending                   bool
}

// New returns an empty context for the strategy.
func New(s Strategy, opts Options) (*Context, error) {
	if _, err := ParseStrategy(string(s)); err != nil {
		return nil, err
	}
	if err := opts.check(s); err != nil {
		return nil, err
	}
	c := &Context{strategy: s, opts: opts, counter: opts.Counter}
	if c.counter == nil {
		c.counter = tokenize.Estimate
	}
	c.cumC = []int{0}
	c.cumT = []int{0}
	return c, nil
}

// Strategy reports the context's strategy.
func (c *Context) Strategy() Strategy { return c.strategy }

// Measure returns the entry for m: the model's copy (a tool result cut by
// limit when limit > 0) with its characters and tokens.
func Measure(m transcript.Message, limit int, counter tokenize.Counter) Entry {
	if counter == nil {
		counter = tokenize.Estimate
	}
	if limit > 0 && (m.Role == transcript.RoleTool || m.ToolCallID != "") {
		m.Text = TruncateToolResult(m.Text, limit)
	}
	e := Entry{Message: m, Turn: m.Turn}
	e.Chars = utf8.RuneCountInString(m.Text)
	e.Tokens = counter.Count(m.Text)
	for _, tc := range m.ToolCalls {
		e.Chars += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
		e.Tokens += counter.Count(tc.Name) + counter.Count(tc.Arguments)
	}
	return e
}

// TruncateToolResult cuts s to at most limit bytes (back to a character
// boundary) and appends "…[truncated: showing K of N bytes]", where K is the
// bytes kept and N the original length. A text within the limit is returned
// as it is.
func TruncateToolResult(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	k := limit
	for k > 0 && k < len(s) && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "…[truncated: showing " + strconv.Itoa(k) + " of " + strconv.Itoa(len(s)) + " bytes]"
}

func (c *Context) measure(m transcript.Message) Entry {
	return Measure(m, c.opts.ToolResultLimit, c.counter)
}

// AddSystem adds a message to the system part, which every window keeps.
func (c *Context) AddSystem(m transcript.Message) { c.addSystem(c.measure(m)) }

func (c *Context) addSystem(e Entry) {
	e.Turn = 0
	c.sys = append(c.sys, e)
	c.sysChars += e.Chars
	c.sysToks += e.Tokens
}

// Begin opens a turn with the user's message. A turn still open is
// committed first.
func (c *Context) Begin(user transcript.Message) { c.begin(c.measure(user)) }

func (c *Context) begin(e Entry) {
	c.openTurn()
	c.push(e)
}

// openTurn opens an empty turn, committing one still open.
func (c *Context) openTurn() {
	if c.open {
		c.Commit()
	}
	c.open = true
	c.resetAtBegin, c.resetTurnAtBegin = c.reset, c.resetTurn
	c.turns = append(c.turns, len(c.hist))
	c.joined = append(c.joined, false)
	c.turnCalls = c.turnCalls[:0]
}

// Add appends a message to the active turn: an assistant reply, a tool
// call, a tool result. Without an open turn it goes to the system part.
func (c *Context) Add(m transcript.Message) { c.add(c.measure(m)) }

func (c *Context) add(e Entry) {
	if !c.open {
		c.addSystem(e)
		return
	}
	c.push(e)
}

func (c *Context) push(e Entry) {
	if c.open {
		if id := e.Message.ToolCallID; id != "" {
			p, ok := c.callAt[id]
			// The call this result answers came before the harness's
			// summary, or (summarizing) was folded into the rolling
			// summary in an earlier turn: the result goes with it.
			if ok && (p < c.reset || c.strategy == Summarizing && c.fold > 0 && p < c.turnStart(c.fold)) {
				return
			}
		}
		c.link(e.Message)
	}
	c.hist = append(c.hist, e)
	c.cumC = append(c.cumC, c.cumC[len(c.cumC)-1]+e.Chars)
	c.cumT = append(c.cumT, c.cumT[len(c.cumT)-1]+e.Tokens)
}

// Compacted records that the harness replaced its own context with summary
// here, in the active turn. Every strategy follows it: the messages before
// the summary leave the retained history, and the summary plus what
// follows is the history from here on (see the package doc). Without an
// open turn the summary joins the system part, and nothing is dropped.
// If the active turn is aborted, the compaction is undone with it.
func (c *Context) Compacted(summary transcript.Message) { c.compacted(c.measure(summary)) }

func (c *Context) compacted(e Entry) {
	if !c.open {
		c.addSystem(e)
		return
	}
	c.reset, c.resetTurn = len(c.hist), len(c.turns)-1
	if c.strategy == Summarizing {
		// The harness's summary covers what the rolling summary held:
		// keeping both would send the same history twice, and more than
		// the provider saw.
		c.summary, c.summaryChars, c.summaryToks = "", 0, 0
	}
	c.push(e)
}

// Commit ends the active turn, keeping it in the history.
func (c *Context) Commit() { c.open = false }

// Abort ends the active turn and drops it from the context.
func (c *Context) Abort() {
	if !c.open {
		return
	}
	c.open = false
	start := c.turns[len(c.turns)-1]
	c.turns = c.turns[:len(c.turns)-1]
	c.joined = c.joined[:len(c.joined)-1]
	for _, id := range c.turnCalls {
		if p, ok := c.callAt[id]; ok && p >= start {
			delete(c.callAt, id)
		}
	}
	c.turnCalls = c.turnCalls[:0]
	c.hist = c.hist[:start]
	c.cumC = c.cumC[:start+1]
	c.cumT = c.cumT[:start+1]
	c.reset, c.resetTurn = c.resetAtBegin, c.resetTurnAtBegin
}

// Observe records the provider's input-token count for the reply to the
// latest call. Summarizing compacts before the next call when it is over
// the high-water mark.
func (c *Context) Observe(inputTokens int) {
	if c.strategy == Summarizing && inputTokens > c.opts.HighWaterTokens {
		c.pending = true
	}
}

// Summary returns the rolling summary ("" when there is none).
func (c *Context) Summary() string { return c.summary }

// link records the tool calls of m, the next entry of the active turn,
// and glues the turns between a tool result and its call in an earlier
// turn, so that no window separates them.
func (c *Context) link(m transcript.Message) {
	for _, tc := range m.ToolCalls {
		if c.callAt == nil {
			c.callAt = map[string]int{}
		}
		c.callAt[tc.ID] = len(c.hist)
		c.turnCalls = append(c.turnCalls, tc.ID)
	}
	if m.ToolCallID == "" {
		return
	}
	p, ok := c.callAt[m.ToolCallID]
	a := len(c.turns) - 1
	if !ok || p >= c.turns[a] {
		return
	}
	// The turn holding position p: the last turn starting at or before it.
	b := sort.Search(len(c.turns), func(j int) bool { return c.turns[j] > p }) - 1
	for k := a; k > b; k-- {
		c.joined[k] = true
	}
}

// validStart reports whether a window may start at turn j (at or after the
// turn holding the reset). A window may always start at the harness's
// summary: a result after it whose call came before it is never pushed.
func (c *Context) validStart(j int) bool {
	return j >= len(c.joined) || j <= c.resetTurn || !c.joined[j]
}

// activeTurn returns the index in turns of the active turn, or len(turns)
// when no turn is open.
func (c *Context) activeTurn() int {
	if c.open {
		return len(c.turns) - 1
	}
	return len(c.turns)
}

func (c *Context) turnStart(j int) int {
	if j >= len(c.turns) {
		return len(c.hist)
	}
	return c.turns[j]
}

// retainedStart returns where the retained part of turn j starts: its
// start, or the harness's summary when that comes later.
func (c *Context) retainedStart(j int) int { return max(c.turnStart(j), c.reset) }

// newestFit returns the smallest j in [from, activeTurn] such that the
// retained part of turns j through the active turn fits within limit
// characters; the active turn when none do. from is at least the turn
// holding the reset.
func (c *Context) newestFit(from, limit int) int {
	from = max(from, c.resetTurn)
	lo := c.activeTurn()
	if from > lo {
		return lo
	}
	end := c.cumC[len(c.hist)]
	j := from + sort.Search(lo-from, func(x int) bool {
		return end-c.cumC[c.retainedStart(from+x)] <= limit
	})
	// A start inside a glued run of turns moves to the next valid start
	// (less is sent), or, when the active turn itself is glued to older
	// turns, back to the start of the run.
	for k := j; k <= lo; k++ {
		if c.validStart(k) {
			return k
		}
	}
	for j > from && !c.validStart(j) {
		j--
	}
	return j
}

// spans returns the stretches of hist the strategy sends now.
func (c *Context) spans() []span {
	end := len(c.hist)
	switch c.strategy {
	case Full:
		return []span{{c.reset, end}}
	case Windowed:
		return []span{{c.retainedStart(c.newestFit(0, c.opts.WindowChars)), end}}
	case Summarizing:
		return []span{{c.retainedStart(c.fold), end}}
	case TurnOnly:
		j := c.activeTurn()
		for j > c.resetTurn && !c.validStart(j) {
			j--
		}
		return []span{{c.retainedStart(j), end}}
	case Sliding:
		// The head turns count from the first retained turn.
		first := min(c.resetTurn, c.activeTurn())
		h := min(first+c.opts.Head, c.activeTurn())
		for h < c.activeTurn() && !c.validStart(h) {
			h++ // turns glued to the head belong to it
		}
		j := c.newestFit(h, c.opts.WindowChars)
		head, tail := span{c.reset, c.retainedStart(h)}, span{c.retainedStart(j), end}
		if head.hi == tail.lo {
			return []span{{c.reset, end}}
		}
		return []span{head, tail}
	}
	return nil
}

// prepare runs a pending compaction before a call.
func (c *Context) prepare() (*Compaction, error) {
	if c.strategy != Summarizing || !c.pending {
		return nil, nil
	}
	c.pending = false
	// Only retained turns are folded: what came before the harness's
	// summary is gone already.
	from := max(c.fold, c.resetTurn)
	k := c.newestFit(from, c.opts.LowWaterChars)
	if k <= from {
		return nil, nil
	}
	lo, hi := c.retainedStart(from), c.turnStart(k)
	folded := make([]transcript.Message, 0, hi-lo)
	idx := make([]int, 0, hi-lo)
	for _, e := range c.hist[lo:hi] {
		folded = append(folded, e.Message)
		idx = append(idx, e.Message.Index)
	}
	before := len(c.sys) + len(c.hist) - lo
	distill := c.opts.Distill
	if distill == nil {
		distill = Extractive
	}
	s, err := distill(DistillRequest{Summary: c.summary, Messages: folded, MaxChars: c.opts.SummaryMaxChars})
	if err != nil {
		return nil, &DistillError{Err: err}
	}
	s = cutChars(s, c.opts.SummaryMaxChars)
	c.summary = s
	c.summaryChars = utf8.RuneCountInString(s)
	c.summaryToks = c.counter.Count(s)
	c.fold = k
	return &Compaction{
		MessagesBefore: before,
		MessagesAfter:  len(c.sys) + len(c.hist) - hi,
		SummaryChars:   c.summaryChars,
		Folded:         idx,
	}, nil
}

// cutChars keeps the first max code points of s.
func cutChars(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}

// Snapshot prepares a model call (running a pending compaction) and
// describes its window.
func (c *Context) Snapshot() (Snapshot, error) {
	snap, _, err := c.snapshot(false)
	return snap, err
}

// snapshot returns the call's description and, when positions is set, the
// positions sent: system part entries as -1-i, hist entries as their index.
func (c *Context) snapshot(positions bool) (Snapshot, []int, error) {
	comp, err := c.prepare()
	if err != nil {
		return Snapshot{}, nil, err
	}
	snap := Snapshot{
		Messages:     len(c.sys),
		Chars:        c.sysChars,
		Tokens:       c.sysToks,
		Compaction:   comp,
		SummaryChars: c.summaryChars,
	}
	if c.summary != "" {
		snap.Chars += c.summaryChars
		snap.Tokens += c.summaryToks
	}
	if c.strategy == Budget {
		return c.budgetSnapshot(snap)
	}
	sp := c.spans()
	for _, s := range sp {
		snap.Messages += s.hi - s.lo
		snap.Chars += c.cumC[s.hi] - c.cumC[s.lo]
		snap.Tokens += c.cumT[s.hi] - c.cumT[s.lo]
	}
	if !positions {
		return snap, nil, nil
	}
	pos := make([]int, 0, snap.Messages)
	for i := range c.sys {
		pos = append(pos, -1-i)
	}
	for _, s := range sp {
		for i := s.lo; i < s.hi; i++ {
			pos = append(pos, i)
		}
	}
	return snap, pos, nil
}

// budgetSnapshot runs the selector over the retained history: the system
// part, then hist from the reset on.
func (c *Context) budgetSnapshot(snap Snapshot) (Snapshot, []int, error) {
	ns, off := len(c.sys), len(c.sys)-c.reset // all[i] is hist[i-off] past the system part
	// The buffer is reused from call to call: the history only grows, so
	// copying it into a fresh slice at every call would cost an
	// allocation the size of the whole history each time.
	all := append(c.budgetAll[:0], c.sys...)
	all = append(all, c.hist[c.reset:]...)
	c.budgetAll = all
	active := len(all)
	if c.open {
		active = off + c.retainedStart(len(c.turns)-1)
	}
	sel, err := c.opts.Select(all, active)
	if err != nil {
		return Snapshot{}, nil, err
	}
	keep := slices.Grow(c.budgetKeep[:0], len(all))[:len(all)]
	clear(keep)
	c.budgetKeep = keep
	for _, p := range sel {
		if p >= 0 && p < len(all) {
			keep[p] = true
		}
	}
	for i := range c.sys {
		keep[i] = true
	}
	for i := active; i < len(all); i++ {
		keep[i] = true
	}
	// Keep whole turns, and whole runs of glued turns: a turn is sent
	// whole when any of its messages is selected, so no tool call loses
	// its result.
	c.wholeTurns(keep)
	snap.Messages, snap.Chars, snap.Tokens = 0, 0, 0
	if c.summary != "" {
		snap.Chars, snap.Tokens = c.summaryChars, c.summaryToks
	}
	pos := make([]int, 0, len(all))
	for i, k := range keep {
		if !k {
			continue
		}
		snap.Messages++
		snap.Chars += all[i].Chars
		snap.Tokens += all[i].Tokens
		if i < ns {
			pos = append(pos, -1-i)
		} else {
			pos = append(pos, i-off)
		}
	}
	return snap, pos, nil
}

// wholeTurns widens a selection over the system part and the retained
// history (hist from the reset on, as budgetSnapshot lays it out) to whole
// retained turns.
func (c *Context) wholeTurns(keep []bool) {
	off := len(c.sys) - c.reset
	for j := c.resetTurn; j < len(c.turns); {
		k := j + 1
		for k < len(c.turns) && !c.validStart(k) {
			k++
		}
		lo, hi := off+c.retainedStart(j), off+c.turnStart(k)
		j = k
		any := false
		for i := lo; i < hi; i++ {
			if keep[i] {
				any = true
				break
			}
		}
		if any {
			for i := lo; i < hi; i++ {
				keep[i] = true
			}
		}
	}
}

// Render prepares a model call (running a pending compaction) and returns
// what the provider is sent.
func (c *Context) Render() (Rendered, error) {
	_, pos, err := c.snapshot(true)
	if err != nil {
		return Rendered{}, err
	}
	r := Rendered{Messages: make([]transcript.Message, 0, len(pos))}
	var sys []string
	for _, p := range pos {
		var e Entry
		if p < 0 {
			e = c.sys[-1-p]
		} else {
			e = c.hist[p]
		}
		if p < 0 && e.Message.Role == transcript.RoleSystem {
			sys = append(sys, e.Message.Text)
			continue
		}
		r.Messages = append(r.Messages, e.Message)
	}
	if c.summary != "" {
		sys = append(sys, c.summary)
	}
	r.System = strings.Join(sys, "\n\n")
	return r, nil
}

// indices turns snapshot positions into transcript indices.
func (c *Context) indices(pos []int) []int {
	out := make([]int, len(pos))
	for i, p := range pos {
		if p < 0 {
			out[i] = c.sys[-1-p].Message.Index
		} else {
			out[i] = c.hist[p].Message.Index
		}
	}
	// A system message can follow replies made before the first prompt.
	slices.Sort(out)
	return out
}
