package window

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// How a part is sent ([Part.Sent]).
const (
	sentWhole     = "whole"
	sentTruncated = "truncated" // cut by a limit edit
	sentCleared   = "cleared"   // replaced by "[tool result cleared]" (or its call's arguments by "{}")
	sentMasked    = "masked"    // replaced by a mask placeholder
	sentSummary   = "summary"   // a strategy's rolling summary
)

// Part is one piece of a call's window: a run of consecutive messages
// (transcript indices From through To) sent the same way, with the
// characters and tokens sent for them (a placeholder's own size where it
// replaced a text). A run ends where the next message is not the next
// index or is sent another way, so a window of whole messages is a few
// parts whatever its length.
type Part struct {
	// From and To are the first and last transcript index; both -1 for a
	// rolling summary.
	From int `json:"from"`
	To   int `json:"to"`
	// Sent says how: "whole"; "truncated" (cut by a limit edit);
	// "cleared" (replaced by "[tool result cleared]", or its call's
	// arguments by "{}"); "masked" (replaced by a mask placeholder);
	// "summary" (a strategy's rolling summary).
	Sent   string `json:"sent"`
	Chars  int    `json:"chars"`
	Tokens int    `json:"tokens"`
}

// addPart appends one message's piece to parts, extending the last run
// when it continues it.
func addPart(parts []Part, index int, how string, chars, tokens int) []Part {
	if n := len(parts); n > 0 {
		last := &parts[n-1]
		if last.Sent == how && last.To >= 0 && last.To+1 == index {
			last.To = index
			last.Chars += chars
			last.Tokens += tokens
			return parts
		}
	}
	return append(parts, Part{From: index, To: index, Sent: how, Chars: chars, Tokens: tokens})
}

// conversation is one conversation under one strategy. The zero value is not
// usable; call openConversation.
//
// Its books have one owner each: the strategy's own State; the History
// (the messages held, turns, system part, harness compactions); the
// edits' books ([editBooks]: how each position is sent and what that
// changed in its size); the tool books ([toolBooks]: the tool results
// held and the calls they answer); the cost books ([costBooks]: what the
// previous call's window was, for the cache model). The context keeps
// them in step as messages arrive and turns are aborted.
type conversation struct {
	state   State
	h       History
	counter tokenize.Counter
	limit   int // truncateEdit bytes (0: none)
	edits   []editState

	editBooks
	toolBooks
	calls    int
	overhead int

	// cost remembers the previous call's window for the cost model.
	cost costBooks
	// info is what the harness knows of the call being made (clear:auto).
	info *callInfo
	// onClear, when set, is told each result an edit clears, before
	// it is cleared (the cheapest plan's record of a schedule).
	onClear func(p int)
}

// editBooks are the edits' books, parallel to the history's positions:
// sent[p] is how position p is sent when edited ("" otherwise), rawC and
// rawT what the edits changed in its size (negative), also as Fenwick
// trees for span sums; textC, textT the part of rawC, rawT that replaced
// the text; marks the positions edited, in order. Only the edits (through
// conversation.set and conversation.edit) write them.
type editBooks struct {
	sent         []string
	rawC, rawT   []int
	textC, textT []int
	fenC, fenT   fenwick
	marks        []int
}

// grow adds an unedited position.
func (b *editBooks) grow() {
	b.sent = append(b.sent, "")
	b.rawC = append(b.rawC, 0)
	b.rawT = append(b.rawT, 0)
	b.textC = append(b.textC, 0)
	b.textT = append(b.textT, 0)
}

// truncate drops the positions from start on (an aborted turn) and their
// edits.
func (b *editBooks) truncate(start int) {
	kept := b.marks[:0]
	for _, p := range b.marks {
		if p < start {
			kept = append(kept, p)
		}
	}
	b.marks = kept
	for p := start; p < len(b.sent); p++ {
		if b.rawC[p] != 0 {
			b.fenC.add(p, -b.rawC[p])
		}
		if b.rawT[p] != 0 {
			b.fenT.add(p, -b.rawT[p])
		}
	}
	b.sent, b.rawC, b.rawT = b.sent[:start], b.rawC[:start], b.rawT[:start]
	b.textC, b.textT = b.textC[:start], b.textT[:start]
}

// toolBooks are the tool results held: results are their positions, in
// order; resCall[i] the ordinal of the tool-using call results[i]
// answers. toolCalls counts the model calls that called tools, callOrd
// maps a tool call id to its call's ordinal, lastToolCall is the number
// of the latest call that called tools; toolCallsAtBegin is toolCalls
// when the active turn opened.
type toolBooks struct {
	results                 []int
	resCall                 []int
	toolCalls, lastToolCall int
	toolCallsAtBegin        int
	callOrd                 map[string]int
}

// note records message m, held at position p of an open turn, made
// after call number calls.
func (b *toolBooks) note(p int, m *transcript.Message, calls int) {
	if len(m.ToolCalls) > 0 {
		if b.lastToolCall != calls || b.toolCalls == 0 {
			b.toolCalls++
			b.lastToolCall = calls
		}
		if b.callOrd == nil {
			b.callOrd = map[string]int{}
		}
		for _, tc := range m.ToolCalls {
			b.callOrd[tc.ID] = b.toolCalls - 1
		}
	}
	if m.ToolCallID != "" {
		ord, ok := b.callOrd[m.ToolCallID]
		if !ok {
			ord = -1
		}
		b.results = append(b.results, p)
		b.resCall = append(b.resCall, ord)
	}
}

// truncate drops the results from position start on (an aborted turn)
// and returns how many are left; the turn's tool calls are uncounted.
func (b *toolBooks) truncate(start int) int {
	n := len(b.results)
	for n > 0 && b.results[n-1] >= start {
		n--
	}
	b.results, b.resCall = b.results[:n], b.resCall[:n]
	b.toolCalls = b.toolCallsAtBegin
	return n
}

// openConversation returns an empty context for the strategy; a strategy
// of [Strategies] is built with opts.
func openConversation(s Strategy, opts Options) (*conversation, error) {
	s, err := resolve(s, opts)
	if err != nil {
		return nil, err
	}
	return newContext(s, opts.Counter, 0), nil
}

func newContext(s Strategy, counter tokenize.Counter, capacity int) *conversation {
	if counter == nil {
		counter = tokenize.Estimate
	}
	c := &conversation{counter: counter, h: newHistory(capacity), cost: costBooks{abortedAt: math.MaxInt}}
	c.h.counter = counter
	c.state = s.Start()
	if e, ok := s.(withEdits); ok {
		for _, x := range e.Edits {
			if t, ok := x.(truncateEdit); ok {
				c.limit = t.Bytes
				continue
			}
			c.edits = append(c.edits, x.start())
		}
	}
	return c
}

// SetOverhead sets the tokens each call pays beyond its window (tool
// schemas, framing the transcript does not show), which clearing's
// trigger counts.
func (c *conversation) SetOverhead(tokens int) { c.overhead = tokens }

// measureEntry returns the entry for m: the model's copy (a tool result cut by
// limit when limit > 0, where the cut text, marker included, has fewer
// tokens) with its characters and tokens.
func measureEntry(m *transcript.Message, limit int, counter tokenize.Counter) Entry {
	if counter == nil {
		counter = tokenize.Estimate
	}
	e := Entry{Turn: m.Turn}
	if limit > 0 && (m.Role == transcript.RoleTool || m.ToolCallID != "") {
		// The cut text, marker included, is used only where it is
		// smaller: a cut never makes a call cost more.
		if cut := truncateToolResult(m.Text, limit); len(cut) != len(m.Text) && countText(counter, cut) < countText(counter, m.Text) {
			// A copy: m is the transcript's.
			mc := *m
			mc.Text = cut
			m, e.Truncated = &mc, true
		}
	}
	e.Message = m
	e.Chars = utf8.RuneCountInString(m.Text)
	e.textTokens = countText(counter, m.Text)
	e.Tokens = e.textTokens
	for _, tc := range m.ToolCalls {
		e.Chars += utf8.RuneCountInString(tc.Name) + utf8.RuneCountInString(tc.Arguments)
		e.Tokens += countText(counter, tc.Name) + countText(counter, tc.Arguments)
	}
	return e
}

// truncateToolResult cuts s to at most limit bytes (back to a character
// boundary) and appends "…[truncated: showing K of N bytes]", where K is the
// bytes kept and N the original length. A text within the limit is returned
// as it is.
func truncateToolResult(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	k := limit
	for k > 0 && k < len(s) && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + "…[truncated: showing " + strconv.Itoa(k) + " of " + strconv.Itoa(len(s)) + " bytes]"
}

// measure sizes m whole: a cut is an edit on top (see push), so the
// strategy chooses on the uncut history.
func (c *conversation) measure(m transcript.Message) Entry { return measureEntry(&m, 0, c.counter) }

// AddSystem adds a message to the system part, which every window keeps.
func (c *conversation) AddSystem(m transcript.Message) { c.h.addSystem(c.measure(m)) }

// Begin opens a turn with the user's message. A turn still open is
// committed first.
func (c *conversation) Begin(user transcript.Message) {
	c.openTurn()
	c.push(c.measure(user))
}

// openTurn opens an empty turn, committing one still open.
func (c *conversation) openTurn() {
	if c.h.open {
		c.Commit()
	}
	c.h.openTurn()
	c.toolCallsAtBegin = c.toolCalls
}

// Add appends a message to the active turn: an assistant reply, a tool
// call, a tool result. Without an open turn it goes to the system part.
func (c *conversation) Add(m transcript.Message) { c.add(c.measure(m)) }

func (c *conversation) add(e Entry) {
	if !c.h.open {
		c.h.addSystem(e)
		return
	}
	c.push(e)
}

func (c *conversation) push(e Entry) {
	p := c.h.Len()
	if !c.h.push(e) {
		return
	}
	c.editBooks.grow()
	m := e.Message
	if c.limit > 0 && (m.Role == transcript.RoleTool || m.ToolCallID != "") {
		// The cut text, marker included, is sent only where it is
		// smaller.
		if cut := truncateToolResult(m.Text, c.limit); len(cut) != len(m.Text) {
			if ct := c.scaled(p, countText(c.counter, cut)); ct < e.Tokens {
				c.set(p, sentTruncated, utf8.RuneCountInString(cut), ct)
			}
		}
	}
	if c.h.open {
		c.toolBooks.note(p, m, c.calls)
	}
}

// Compacted records that the harness replaced its own context with summary
// here, in the active turn. Every strategy follows it: the messages before
// the summary leave the retained history, and the summary plus what
// follows is the history from here on (see the package doc). Without an
// open turn the summary joins the system part, and nothing is dropped.
// If the active turn is aborted, the compaction is undone with it.
func (c *conversation) Compacted(summary transcript.Message) { c.compacted(c.measure(summary)) }

func (c *conversation) compacted(e Entry) {
	if !c.h.open {
		c.h.addSystem(e)
		return
	}
	c.h.reset, c.h.resetTurn = c.h.Len(), len(c.h.turns)-1
	c.h.resets++
	c.push(e)
}

// Commit ends the active turn, keeping it in the history.
func (c *conversation) Commit() { c.h.open = false }

// Abort ends the active turn and drops it from the context.
func (c *conversation) Abort() {
	if !c.h.open {
		return
	}
	start := c.h.abort()
	c.cost.noteAbort(start)
	// Undo the edits of the dropped positions.
	c.editBooks.truncate(start)
	n := c.toolBooks.truncate(start)
	for _, e := range c.edits {
		e.abort(n, start)
	}
}

// Observe records the provider's input-token count for the reply to the
// latest call. Summarizing compacts before the next call when it is over
// the high-water mark.
func (c *conversation) Observe(inputTokens int) { c.state.Observe(inputTokens) }

// Summary returns the rolling summary ("" when there is none).
func (c *conversation) Summary() string {
	switch s := c.state.(type) {
	case *summarizing:
		return s.summary
	case *harnessState:
		return s.summary
	}
	return ""
}

// sentSize returns the characters and tokens position p is sent with now.
func (c *conversation) sentSize(p int) (chars, tokens int) {
	e := c.h.At(p)
	return e.Chars + c.rawC[p], e.Tokens + c.rawT[p]
}

// set records that position p is sent as how, with the given size in
// place of its text (tool calls apart).
func (c *conversation) set(p int, how string, chars, tokens int) {
	if how == sentCleared && c.onClear != nil {
		c.onClear(p)
	}
	e := c.h.At(p)
	text := utf8.RuneCountInString(e.Message.Text)
	textTok := c.scaled(p, e.textTokens)
	// What the text's replacement changes, on top of the edits to the
	// message's tool calls so far.
	oc, ot := c.textDelta(p)
	c.edit(p, how, chars-text-oc, tokens-textTok-ot)
	c.textC[p], c.textT[p] = chars-text, tokens-textTok
}

// scaled converts tokens the counter gave for a part of position p's
// message into the message's sizing: where it was sized from the records
// ([Calibration]), in proportion (rounded to the nearest); else as they
// are. A placeholder is counted, not scaled: it was never sent.
func (c *conversation) scaled(p, tokens int) int {
	e := c.h.At(p)
	if e.counted <= 0 {
		return tokens
	}
	return int(math.Round(float64(tokens) * float64(e.Tokens) / float64(e.counted)))
}

// textDelta returns what edits to position p's text changed so far.
func (c *conversation) textDelta(p int) (int, int) { return c.textC[p], c.textT[p] }

// edit records that position p is sent as how, changing its size by dc
// characters and dt tokens.
func (c *conversation) edit(p int, how string, dc, dt int) {
	if c.sent[p] == "" {
		c.marks = append(c.marks, p)
	}
	c.sent[p] = how
	c.cost.noteEdit(p)
	c.fenC.grow(c.h.Len(), c.rawC)
	c.fenT.grow(c.h.Len(), c.rawT)
	c.rawC[p] += dc
	c.rawT[p] += dt
	c.fenC.add(p, dc)
	c.fenT.add(p, dt)
}

// original returns the uncut text of position p.
func (c *conversation) original(p int) string {
	return c.h.At(p).Message.Text
}

// inputSaving is the tokens (≤ 0 when it saves) that clearing the
// arguments of tool call id at position cp changes.
func (c *conversation) inputSaving(cp int, id string) int {
	for _, tc := range c.h.At(cp).Message.ToolCalls {
		if tc.ID == id {
			return countText(c.counter, clearedInput) - c.scaled(cp, countText(c.counter, tc.Arguments))
		}
	}
	return 0
}

func (c *conversation) inputCharSaving(cp int, id string) int {
	for _, tc := range c.h.At(cp).Message.ToolCalls {
		if tc.ID == id {
			return utf8.RuneCountInString(clearedInput) - utf8.RuneCountInString(tc.Arguments)
		}
	}
	return 0
}

// window is one call's choice with its size.
type window struct {
	sel                     Selection
	messages, chars, tokens int
}

func (c *conversation) size(w *window) {
	w.messages = len(c.h.sys)
	w.chars, w.tokens = c.h.sysChars+w.sel.SummaryChars, c.h.sysToks+w.sel.SummaryToks
	if w.sel.Keep != nil {
		for _, p := range w.sel.Keep {
			e := c.h.At(p)
			w.messages++
			w.chars += e.Chars + c.rawC[p]
			w.tokens += e.Tokens + c.rawT[p]
		}
		return
	}
	for _, s := range w.sel.Spans {
		w.messages += s.Hi - s.Lo
		ch, tk := c.h.Size(s.Lo, s.Hi)
		w.chars += ch + c.fenC.sum(s.Hi) - c.fenC.sum(s.Lo)
		w.tokens += tk + c.fenT.sum(s.Hi) - c.fenT.sum(s.Lo)
	}
}

func (c *conversation) snapshotOf(w *window) snapshot {
	return snapshot{
		Messages:     w.messages,
		Chars:        w.chars,
		Tokens:       w.tokens,
		SummaryChars: w.sel.SummaryChars,
		Compaction:   w.sel.Compaction,
		OverBudget:   w.sel.Budget > 0 && w.tokens > w.sel.Budget,
	}
}

// call chooses and edits the window of the next call.
func (c *conversation) call() (*window, error) {
	c.calls++
	sel, err := c.state.Select(&c.h)
	if err != nil {
		return nil, err
	}
	w := &window{sel: sel}
	c.size(w)
	for _, e := range c.edits {
		e.apply(c, &w.sel, w.tokens+c.overhead)
		c.size(w)
	}
	return w, nil
}

// positions lists the history positions w sends.
func (w *window) positions() []int {
	if w.sel.Keep != nil {
		return w.sel.Keep
	}
	n := 0
	for _, s := range w.sel.Spans {
		n += s.Hi - s.Lo
	}
	out := make([]int, 0, n)
	for _, s := range w.sel.Spans {
		for p := s.Lo; p < s.Hi; p++ {
			out = append(out, p)
		}
	}
	return out
}

// parts lists w's parts in the order they are sent: the system part (by
// transcript index), the rolling summary, then the conversation,
// appended to out (its length 0).
func (c *conversation) parts(out []Part, w *window) []Part {
	sys := c.h.sys
	if !slices.IsSortedFunc(sys, func(a, b Entry) int { return a.Message.Index - b.Message.Index }) {
		// A system message can follow replies made before the first
		// prompt.
		sys = slices.Clone(sys)
		slices.SortStableFunc(sys, func(a, b Entry) int { return a.Message.Index - b.Message.Index })
	}
	for _, e := range sys {
		out = addPart(out, e.Message.Index, sentWhole, e.Chars, e.Tokens)
	}
	if w.sel.Summary != "" {
		out = append(out, Part{From: -1, To: -1, Sent: sentSummary, Chars: w.sel.SummaryChars, Tokens: w.sel.SummaryToks})
	}
	each := func(p int) {
		e := c.h.At(p)
		how := c.sent[p]
		if how == "" {
			how = sentWhole
		}
		out = addPart(out, e.Message.Index, how, e.Chars+c.rawC[p], e.Tokens+c.rawT[p])
	}
	if w.sel.Keep != nil {
		for _, p := range w.sel.Keep {
			each(p)
		}
	} else {
		for _, sp := range w.sel.Spans {
			for p := sp.Lo; p < sp.Hi; p++ {
				each(p)
			}
		}
	}
	if out == nil {
		out = []Part{}
	}
	return out
}

// Render prepares a model call (running a pending compaction and the
// edits) and returns what the provider is sent, placeholders in place.
func (c *conversation) Render() (Rendered, error) {
	w, err := c.call()
	if err != nil {
		return Rendered{}, err
	}
	return c.render(w), nil
}

// render returns what window w sends.
func (c *conversation) render(w *window) Rendered {
	type item struct {
		idx int
		m   transcript.Message
		sys bool
	}
	var items []item
	for _, e := range c.h.sys {
		items = append(items, item{e.Message.Index, *e.Message, e.Message.Role == transcript.RoleSystem})
	}
	for _, p := range w.positions() {
		items = append(items, item{c.h.At(p).Message.Index, c.sentMessage(p), false})
	}
	r := Rendered{Messages: make([]transcript.Message, 0, len(items))}
	var sys []string
	for _, it := range items {
		if it.sys {
			sys = append(sys, it.m.Text)
			continue
		}
		r.Messages = append(r.Messages, it.m)
	}
	if w.sel.Summary != "" {
		sys = append(sys, w.sel.Summary)
		r.Summary = w.sel.Summary
	}
	r.System = strings.Join(sys, "\n\n")
	return r
}

// sentMessage is position p as sent: the model's copy with an edit's
// placeholder in place.
func (c *conversation) sentMessage(p int) transcript.Message {
	m := *c.h.At(p).Message // a copy: the entry's is shared
	switch c.sent[p] {
	case sentCleared:
		if m.ToolCallID != "" {
			m.Text = clearedPlaceholder
		}
		if len(m.ToolCalls) > 0 {
			calls := slices.Clone(m.ToolCalls)
			for i := range calls {
				if c.clearedCall(calls[i].ID) {
					calls[i].Arguments = clearedInput
				}
			}
			m.ToolCalls = calls
		}
	case sentMasked:
		m.Text = maskPlaceholder(c.h.toolName(p), m.Text)
	case sentTruncated:
		m.Text = truncateToolResult(m.Text, c.limit)
	}
	return m
}

// clearedCall reports whether the arguments of tool call id were cleared:
// its result was cleared by an edit that clears inputs.
func (c *conversation) clearedCall(id string) bool {
	for i := len(c.results) - 1; i >= 0; i-- {
		p := c.results[i]
		if c.h.At(p).Message.ToolCallID == id {
			return c.sent[p] == sentCleared && c.clearsInputs()
		}
	}
	return false
}

func (c *conversation) clearsInputs() bool {
	for _, e := range c.edits {
		if s, ok := e.(*clearState); ok && s.cfg.ClearInputs {
			return true
		}
	}
	return false
}
