package window

import (
	"sort"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Span is a stretch [Lo, Hi) of [History] positions.
type Span struct{ Lo, Hi int }

// History keeps the books of one conversation for its strategy: the system
// part, the retained turns and the active turn with their sizes as running
// sums, the harness's resets, and the rules that keep a tool call with its
// result. Strategies read it to choose a window; a replay writes it.
//
// Positions are indices into the conversation history (the system part
// apart): position p is the p-th message pushed and still held.
type History struct {
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
	// so that an abort restores them. resets counts the harness's
	// compactions.
	reset, resetTurn               int
	resetAtBegin, resetTurnAtBegin int
	resets                         int
	aborts                         int

	// foldTurn: turns[:foldTurn] are folded into a strategy's rolling
	// summary (summarizing); a tool result whose call is folded is not
	// pushed.
	foldTurn int
	// foldPos: positions before it are folded into a harness preset's
	// summary (the claude-code and codex presets); a tool result whose call is folded is
	// not pushed. An abort brings it back to the turn's start.
	foldPos int
	// seenLen is Len() at a harness preset's previous call; an abort
	// brings it back to the turn's start too.
	seenLen int

	counter tokenize.Counter
}

func newHistory(capacity int) History {
	h := History{}
	h.hist = make([]Entry, 0, capacity)
	h.cumC = append(make([]int, 0, capacity+1), 0)
	h.cumT = append(make([]int, 0, capacity+1), 0)
	return h
}

// Len returns the number of positions held.
func (h *History) Len() int { return len(h.hist) }

// At returns the entry at position p. Its Message is the transcript's
// (shared by every strategy's history): read it, never write through it.
func (h *History) At(p int) *Entry { return &h.hist[p] }

// systemSize returns the system part's characters and tokens.
func (h *History) systemSize() (chars, tokens int) { return h.sysChars, h.sysToks }

// Size returns the characters and tokens of positions [lo, hi), as
// measured (before any edit).
func (h *History) Size(lo, hi int) (chars, tokens int) {
	return h.cumC[hi] - h.cumC[lo], h.cumT[hi] - h.cumT[lo]
}

// isOpen reports whether a turn is open (the active turn).
func (h *History) isOpen() bool { return h.open }

// Reset returns the position of the harness's latest summary (0 without
// one) and the index of the turn holding it.
func (h *History) Reset() (pos, turn int) { return h.reset, h.resetTurn }

// ActiveTurn returns the index of the active turn, or the number of
// turns when no turn is open.
func (h *History) ActiveTurn() int {
	if h.open {
		return len(h.turns) - 1
	}
	return len(h.turns)
}

// turnStart returns the position where turn j starts (Len() past the
// last).
func (h *History) turnStart(j int) int {
	if j >= len(h.turns) {
		return len(h.hist)
	}
	return h.turns[j]
}

// RetainedStart returns where the retained part of turn j starts: its
// start, or the harness's summary when that comes later.
func (h *History) RetainedStart(j int) int { return max(h.turnStart(j), h.reset) }

// ValidStart reports whether a window may start at turn j (at or after the
// turn holding the reset). A window may always start at the harness's
// summary: a result after it whose call came before it is never pushed.
func (h *History) ValidStart(j int) bool {
	return j >= len(h.joined) || j <= h.resetTurn || !h.joined[j]
}

// newestFit returns the smallest j in [from, ActiveTurn()] such that the
// retained part of turns j through the active turn fits within limit
// characters; the active turn when none do. A start inside a run of turns
// glued by a tool call and its result moves to the next valid start (less
// is sent), or, when the active turn itself is glued to older turns, back
// to the start of the run.
func (h *History) newestFit(from, limit int) int {
	from = max(from, h.resetTurn)
	lo := h.ActiveTurn()
	if from > lo {
		return lo
	}
	end := h.cumC[len(h.hist)]
	j := from + sort.Search(lo-from, func(x int) bool {
		return end-h.cumC[h.RetainedStart(from+x)] <= limit
	})
	for k := j; k <= lo; k++ {
		if h.ValidStart(k) {
			return k
		}
	}
	for j > from && !h.ValidStart(j) {
		j--
	}
	return j
}

// toolName returns the name of the tool a result at position p answers,
// "" when unknown.
func (h *History) toolName(p int) string {
	id := h.hist[p].Message.ToolCallID
	if id == "" {
		return h.hist[p].Message.Name
	}
	c, ok := h.callAt[id]
	if !ok || c >= len(h.hist) {
		return h.hist[p].Message.Name
	}
	for _, tc := range h.hist[c].Message.ToolCalls {
		if tc.ID == id {
			return tc.Name
		}
	}
	return ""
}

// callOf returns the position of the tool call a result at position p
// answers, and whether it is held.
func (h *History) callOf(p int) (int, bool) {
	id := h.hist[p].Message.ToolCallID
	if id == "" {
		return 0, false
	}
	c, ok := h.callAt[id]
	return c, ok && c < p
}

func (h *History) addSystem(e Entry) {
	e.Turn = 0
	h.sys = append(h.sys, e)
	h.sysChars += e.Chars
	h.sysToks += e.Tokens
}

// openTurn opens an empty turn; the caller commits one still open.
func (h *History) openTurn() {
	h.open = true
	h.resetAtBegin, h.resetTurnAtBegin = h.reset, h.resetTurn
	h.turns = append(h.turns, len(h.hist))
	h.joined = append(h.joined, false)
	h.turnCalls = h.turnCalls[:0]
}

// push appends e; it reports false when e is a tool result whose call is
// gone (before the harness's summary, or folded into a rolling summary in
// an earlier turn), which is then not held.
func (h *History) push(e Entry) bool {
	if h.open {
		if id := e.Message.ToolCallID; id != "" {
			p, ok := h.callAt[id]
			if ok && (p < h.reset || p < h.foldPos || h.foldTurn > 0 && p < h.turnStart(h.foldTurn)) {
				return false
			}
		}
		h.link(e.Message)
	}
	h.hist = append(h.hist, e)
	h.cumC = append(h.cumC, h.cumC[len(h.cumC)-1]+e.Chars)
	h.cumT = append(h.cumT, h.cumT[len(h.cumT)-1]+e.Tokens)
	return true
}

// abort drops the active turn and returns the position it started at.
func (h *History) abort() int {
	h.open = false
	h.aborts++
	start := h.turns[len(h.turns)-1]
	h.turns = h.turns[:len(h.turns)-1]
	h.joined = h.joined[:len(h.joined)-1]
	for _, id := range h.turnCalls {
		if p, ok := h.callAt[id]; ok && p >= start {
			delete(h.callAt, id)
		}
	}
	h.turnCalls = h.turnCalls[:0]
	h.hist = h.hist[:start]
	h.cumC = h.cumC[:start+1]
	h.cumT = h.cumT[:start+1]
	h.reset, h.resetTurn = h.resetAtBegin, h.resetTurnAtBegin
	h.foldPos = min(h.foldPos, start)
	h.seenLen = min(h.seenLen, start)
	return start
}

// link records the tool calls of m, the next entry of the active turn,
// and glues the turns between a tool result and its call in an earlier
// turn, so that no window separates them.
func (h *History) link(m *transcript.Message) {
	for _, tc := range m.ToolCalls {
		if h.callAt == nil {
			h.callAt = map[string]int{}
		}
		h.callAt[tc.ID] = len(h.hist)
		h.turnCalls = append(h.turnCalls, tc.ID)
	}
	if m.ToolCallID == "" {
		return
	}
	p, ok := h.callAt[m.ToolCallID]
	a := len(h.turns) - 1
	if !ok || p >= h.turns[a] {
		return
	}
	// The turn holding position p: the last turn starting at or before it.
	b := sort.Search(len(h.turns), func(j int) bool { return h.turns[j] > p }) - 1
	for k := a; k > b; k-- {
		h.joined[k] = true
	}
}
