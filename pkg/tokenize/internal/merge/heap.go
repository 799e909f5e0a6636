package merge

// node is a symbol position in Heap: if a token starts there, the
// neighbouring token starts (prev -1 at the first, next n after the
// last) and the rank and id of the pair that starts there; rank None when
// there is none, or no token starts there any more.
type node struct {
	prev, next int32
	rank, id   uint32
}

// entry is a pair in the heap, as it was when pushed.
type entry struct {
	rank uint32
	pos  int32
	id   uint32
}

// Heap merges a piece of n symbols (n < 2³¹) with a min-heap of its pairs
// ordered by (rank, start), and appends the starts of the tokens it
// becomes to starts. A join changes the pairs on both sides of it: their
// new values are pushed, and the old entries are skipped when they come
// up. An entry counts while its position still starts a pair that gives
// the same id, as in tokenizers (where the same token can be made by
// different pairs, the id and not the rank decides).
func Heap[P Pairs](m *Merger, p P, n int, starts []int32) []int32 {
	if n == 0 {
		return starts
	}
	if cap(m.nodes) < n {
		m.nodes = make([]node, n)
		m.heap = make([]entry, 0, n)
	}
	nodes := m.nodes[:n]
	for i := range nodes {
		nodes[i] = node{prev: int32(i - 1), next: int32(i + 1), rank: None}
	}
	h := m.heap[:0]
	for i := 0; i+1 < n; i++ {
		if r, id := p.Pair(i, i+1, i+2); r != None {
			nodes[i].rank, nodes[i].id = r, id
			h = append(h, entry{r, int32(i), id})
		}
	}
	heapInit(h)
	for len(h) > 0 {
		top := h[0]
		h = heapPop(h)
		nd := &nodes[top.pos]
		if nd.rank == None || nd.id != top.id {
			continue // stale
		}
		// Join the token at top.pos with the next one, at j.
		j := nd.next
		p.Join(int(top.pos), int(j), nd.rank)
		after := nodes[j].next
		nodes[j].rank = None
		nd.next = after
		nd.rank = None
		if int(after) < n {
			nodes[after].prev = top.pos
			if r, id := p.Pair(int(top.pos), int(after), int(nodes[after].next)); r != None {
				nd.rank, nd.id = r, id
				h = heapPush(h, entry{r, top.pos, id})
			}
		}
		if pv := nd.prev; pv >= 0 {
			pn := &nodes[pv]
			pn.rank = None
			if r, id := p.Pair(int(pv), int(top.pos), int(after)); r != None {
				pn.rank, pn.id = r, id
				h = heapPush(h, entry{r, pv, id})
			}
		}
	}
	for i := int32(0); int(i) < n; i = nodes[i].next {
		starts = append(starts, i)
	}
	m.nodes, m.heap = nodes, h
	return starts
}

// The heap is written out for its one element type, without
// container/heap's boxing.

func entryLess(a, b entry) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.pos < b.pos
}

func heapInit(h []entry) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		heapDown(h, i)
	}
}

func heapDown(h []entry, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && entryLess(h[r], h[l]) {
			m = r
		}
		if !entryLess(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

func heapPush(h []entry, x entry) []entry {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !entryLess(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	return h
}

// heapPop removes the least entry, h[0].
func heapPop(h []entry) []entry {
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	heapDown(h, 0)
	return h
}
