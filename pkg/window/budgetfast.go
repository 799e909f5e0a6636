package window

import (
	"slices"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// greedyBudget makes the same choice as engineSelector under the
// lowest_priority and recency policies (every item has priority 10 and no
// timestamp, so both take the candidates newest first, each one that fits
// the room left), without rerunning the engine over the whole history at
// every call: the candidates (earlier turns whole, and in the active turn
// each tool call with its results, or a lone message) are kept from call
// to call, with a tree of their sizes that finds the newest candidate
// that still fits in O(log n). A call costs time in proportion to what it
// keeps, not to the history.
type greedyBudget struct {
	avail int

	cands []budgetCand
	tree  minTree
	// Books of what cands holds: the earlier turns [resetTurn, turnsTo)
	// as turn candidates (turnCands of them, pinned ones apart), then the
	// active turn's candidates from position activeFrom on, scanned up to
	// scan. pinned are the positions of turn-0 turns, always kept;
	// pinnedTo is the turn after the last pinned one.
	resetTurn, resets, aborts, turnsTo, turnCands int
	activeTurn, activeFrom, pinEnd, scan          int
	pinned                                        []Span
	pinnedToks, pinnedTo                          int
	callCand                                      map[string]int
	valid                                         bool
	irregular                                     bool

	// buffers reused from call to call
	spans    []Span
	kept     []int
	keptTurn map[int]bool
	out      []int
}

type budgetCand struct {
	lo, hi, tokens int
	turn           int // the turn index for a turn candidate, -1 otherwise
}

// fastBudget reports whether s can use the greedy path.
func fastBudget(s budgetStrategy) bool {
	p := s.Engine.Policy
	return s.Select == nil && (p == "" || p == engine.PolicyLowestPriority || p == engine.PolicyRecency) &&
		len(s.Engine.Caps) == 0 && !s.Engine.Strict && s.Budget.Validate() == nil
}

// turnsEnd returns where the turn candidates end in h's positions.
func (g *greedyBudget) turnsEnd(*History) int {
	if g.turnCands == 0 {
		return 0
	}
	return g.cands[g.turnCands-1].hi
}

// sync brings the candidates up to date with h.
func (g *greedyBudget) sync(h *History) {
	active := h.ActiveTurn()
	if h.aborts != g.aborts {
		// An abort drops the active turn only: its candidates go.
		g.aborts, g.activeTurn = h.aborts, -1
	}
	if !g.valid || h.resets != g.resets || h.resetTurn != g.resetTurn || h.Len() < g.turnsEnd(h) || active < g.turnsTo {
		g.cands, g.pinned, g.pinnedToks = g.cands[:0], g.pinned[:0], 0
		g.resetTurn, g.resets, g.turnsTo, g.turnCands = h.resetTurn, h.resets, h.resetTurn, 0
		g.activeTurn, g.valid, g.pinnedTo = -1, true, -1
		g.tree.reset()
	}
	if active != g.activeTurn {
		// The active turn changed: its candidates go, and the turns
		// before the new one become turn candidates.
		g.cands = g.cands[:g.turnCands]
		g.tree.truncate(g.turnCands)
		for j := g.turnsTo; j < active; j++ {
			lo, hi := h.RetainedStart(j), h.turnStart(j+1)
			_, tok := h.Size(lo, hi)
			if lo < hi && h.hist[lo].Turn == 0 {
				g.pinned = append(g.pinned, Span{lo, hi})
				g.pinnedToks += tok
				g.pinnedTo = j + 1
				continue
			}
			if g.gluedToPinned(h, j) {
				// A result of a call made before the first prompt: the
				// turns between are glued to what is always sent. Leave
				// it to the engine.
				g.irregular = true
				return
			}
			g.cands = append(g.cands, budgetCand{lo, hi, tok, j})
			g.tree.push(tok)
		}
		g.turnsTo = active
		g.turnCands = len(g.cands)
		g.activeTurn = active
		g.activeFrom, g.pinEnd, g.scan = -1, -1, -1
		clear(g.callCand)
	}
	if !h.open || active >= len(h.turns) {
		return
	}
	if g.activeFrom < 0 {
		g.activeFrom = h.RetainedStart(active)
		g.pinEnd = g.activeFrom + 1
	}
	if g.activeFrom >= h.Len() {
		return
	}
	if g.pinEnd == g.activeFrom+1 && g.pinEnd < h.Len() && h.hist[g.activeFrom].Message.Meta && g.scan <= g.pinEnd {
		g.pinEnd++ // the prompt after the harness's summary is pinned too
	}
	if g.scan < g.pinEnd {
		g.scan = g.pinEnd
	}
	if h.hist[g.activeFrom].Turn == 0 {
		g.pinEnd, g.scan = h.Len(), h.Len() // the turn before the first prompt: all pinned
		return
	}
	if g.callCand == nil {
		g.callCand = map[string]int{}
	}
	if g.pinEnd == g.activeFrom+2 && g.scan == g.pinEnd {
		for _, tc := range h.hist[g.activeFrom+1].Message.ToolCalls {
			g.callCand[tc.ID] = -1
		}
	}
	for ; g.scan < h.Len(); g.scan++ {
		p := g.scan
		e := &h.hist[p]
		if len(e.Message.ToolCalls) > 0 {
			for _, tc := range e.Message.ToolCalls {
				g.callCand[tc.ID] = len(g.cands)
			}
			g.cands = append(g.cands, budgetCand{p, p + 1, e.Tokens, -1})
			g.tree.push(e.Tokens)
			continue
		}
		if c, ok := g.callCand[e.Message.ToolCallID]; ok && e.Message.ToolCallID != "" {
			if c == -1 {
				// A result of the pinned call after the harness's
				// summary: pinned with it.
				if p != g.pinEnd {
					g.irregular = true
					return
				}
				g.pinEnd++
				continue
			}
			if c != len(g.cands)-1 || g.cands[c].hi != p {
				// A result away from its call's group: leave it to
				// the engine.
				g.irregular = true
				return
			}
			g.cands[c].hi++
			g.cands[c].tokens += e.Tokens
			g.tree.set(c, g.cands[c].tokens)
			continue
		}
		g.cands = append(g.cands, budgetCand{p, p + 1, e.Tokens, -1})
		g.tree.push(e.Tokens)
	}
}

// gluedToPinned reports whether turn j is glued, through a run of glued
// turns, to a pinned turn.
func (g *greedyBudget) gluedToPinned(h *History, j int) bool {
	k := j
	for k > h.resetTurn && !h.ValidStart(k) {
		k--
	}
	return k < j && k < g.pinnedTo
}

// choose returns the positions to send, as budgetState.Select would after
// the engine: the system part apart, increasing.
func (g *greedyBudget) choose(h *History) []int {
	alwaysKept := h.sysToks + g.pinnedToks
	fixed := append(g.spans[:0], g.pinned...) // always sent
	glued := false
	if h.open && g.activeFrom >= 0 && g.activeFrom < h.Len() {
		end := min(g.pinEnd, h.Len())
		_, t := h.Size(g.activeFrom, end)
		alwaysKept += t
		fixed = append(fixed, Span{g.activeFrom, end})
		glued = !h.ValidStart(len(h.turns) - 1)
	}
	kept := g.kept[:0] // candidate indices, newest first
	if left := g.avail - alwaysKept; left >= 0 {
		for i := len(g.cands) - 1; i >= 0; {
			c := g.tree.rightmostAtMost(i, left)
			if c < 0 {
				break
			}
			kept = append(kept, c)
			left -= g.cands[c].tokens
			i = c - 1
		}
	}
	g.kept = kept
	spans := fixed
	if g.keptTurn == nil {
		g.keptTurn = map[int]bool{}
	}
	keptTurn := g.keptTurn
	clear(keptTurn)
	for _, c := range kept {
		bc := g.cands[c]
		if bc.turn >= 0 {
			keptTurn[bc.turn] = true
			continue
		}
		spans = append(spans, Span{bc.lo, bc.hi})
	}
	// Whole runs of glued turns, as wholeTurns widens them.
	last := h.ActiveTurn()
	if glued {
		// The active turn's run is sent whole, the active turn too.
		j := last
		for j > h.resetTurn && !h.ValidStart(j) {
			j--
		}
		spans = append(spans, Span{h.RetainedStart(j), h.Len()})
	}
	for j := range keptTurn {
		lo, hi := j, j
		for lo > h.resetTurn && !h.ValidStart(lo) {
			lo--
		}
		for hi+1 < last && !h.ValidStart(hi+1) {
			hi++
		}
		spans = append(spans, Span{h.RetainedStart(lo), h.turnStart(hi + 1)})
	}
	slices.SortFunc(spans, func(a, b Span) int { return a.Lo - b.Lo })
	g.spans = spans
	// The caller uses the positions only within the call: the buffer is
	// reused.
	out := g.out[:0]
	next := 0
	for _, s := range spans {
		for p := max(s.Lo, next); p < s.Hi; p++ {
			out = append(out, p)
		}
		next = max(next, s.Hi)
	}
	g.out = out
	return out
}

// minTree is a segment tree of minimums over a growing list of sizes.
type minTree struct {
	n    int   // values held
	size int   // leaves (a power of two)
	t    []int // t[1] is the root; leaves at size+i
}

const noValue = int(^uint(0) >> 1)

func (m *minTree) reset() {
	for i := range m.t {
		m.t[i] = noValue
	}
	m.n = 0
}

func (m *minTree) push(v int) {
	if m.n == m.size {
		old := m.t
		oldSize := m.size
		m.size = max(16, 2*m.size)
		m.t = make([]int, 2*m.size)
		for i := range m.t {
			m.t[i] = noValue
		}
		for i := range m.n {
			m.t[m.size+i] = old[oldSize+i]
		}
		for i := m.size - 1; i >= 1; i-- {
			m.t[i] = min(m.t[2*i], m.t[2*i+1])
		}
	}
	m.n++
	m.set(m.n-1, v)
}

func (m *minTree) set(i, v int) {
	i += m.size
	m.t[i] = v
	for i /= 2; i >= 1; i /= 2 {
		m.t[i] = min(m.t[2*i], m.t[2*i+1])
	}
}

func (m *minTree) truncate(n int) {
	for i := n; i < m.n; i++ {
		m.set(i, noValue)
	}
	m.n = min(m.n, n)
}

// rightmostAtMost returns the largest index ≤ i whose value is ≤ v, or -1.
func (m *minTree) rightmostAtMost(i, v int) int {
	if m.n == 0 || i < 0 {
		return -1
	}
	return m.search(1, 0, m.size-1, min(i, m.n-1), v)
}

func (m *minTree) search(node, lo, hi, i, v int) int {
	if lo > i || m.t[node] > v {
		return -1
	}
	if lo == hi {
		return lo
	}
	mid := (lo + hi) / 2
	if r := m.search(2*node+1, mid+1, hi, i, v); r >= 0 {
		return r
	}
	return m.search(2*node, lo, mid, i, v)
}
