package engine

import (
	"math"
	"slices"
)

func init() {
	Register(PolicyLowestPriority, greedy(keyLowestPriority, packedLowestPriority))
	Register(PolicyRecency, greedy(keyRecency, packedRecency))
	Register(PolicyInputOrder, greedy(keyInputOrder, packedInputOrder))
	Register(PolicyRelevance, greedy(keyRelevance, nil))
}

// sortKey orders items for a greedy policy: a smaller key comes first,
// compared field by field. Every key ends with the item's position (in
// the newer-first fields), so two items never tie.
type sortKey struct{ a, b, c, d uint64 }

func (k sortKey) less(o sortKey) bool {
	switch {
	case k.a != o.a:
		return k.a < o.a
	case k.b != o.b:
		return k.b < o.b
	case k.c != o.c:
		return k.c < o.c
	}
	return k.d < o.d
}

// age gives two numbers that grow as the item gets newer: (timestamp, then
// position), an item without a timestamp being older than any item with
// one. Inverting both puts newer first.
func age(items []Item, i int) (uint64, uint64) {
	var hi, lo uint64
	if t := items[i].Timestamp; t != nil {
		hi = uint64(t.Unix()) ^ 1<<63 // ≥ 1 for any time after year −292e9
		lo = uint64(t.Nanosecond()) << 32
	}
	return hi, lo | uint64(uint32(i))
}

// keyLowestPriority: priority ascending; among equals newer first.
func keyLowestPriority(items []Item, i int) sortKey {
	hi, lo := age(items, i)
	return sortKey{a: uint64(items[i].Priority), b: ^hi, c: ^lo}
}

// keyRecency: newest first (timestamp, else the later input position).
func keyRecency(items []Item, i int) sortKey {
	hi, lo := age(items, i)
	return sortKey{a: ^hi, b: ^lo}
}

// keyInputOrder: first come, first served.
func keyInputOrder(_ []Item, i int) sortKey {
	return sortKey{a: uint64(i)}
}

// keyRelevance: relevance descending (absent counts as 0); ties by
// priority ascending, then newer first.
func keyRelevance(items []Item, i int) sortKey {
	hi, lo := age(items, i)
	r := 0.0
	if items[i].Relevance != nil {
		r = *items[i].Relevance
	}
	return sortKey{a: ^orderedFloat(r), b: uint64(items[i].Priority), c: ^hi, d: ^lo}
}

// orderedFloat maps a finite float64 to a uint64 of the same order; -0
// and 0 map alike.
func orderedFloat(f float64) uint64 {
	if f == 0 {
		f = 0
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b
	}
	return b | 1<<63
}

// greedy returns a policy that orders the candidates by key, taking for
// each candidate its most important member's key (the smallest), and adds
// each candidate that still fits, scanning on after one that does not.
// Keys never tie, so the order never depends on the sort algorithm.
//
// packed, when not nil, is a faster form of the same order: one uint64
// per item that fits in 43 bits (given the item's newness rank, 0 for
// the oldest), or false when the item's fields do not fit.
func greedy(key func(items []Item, i int) sortKey, packed func(items []Item, i, rank int) (uint64, bool)) Policy {
	return PolicyFunc(func(p *Problem) (Selection, error) {
		n := len(p.Candidates)
		out := make([]Outcome, n)
		t := p.NewTracker()
		if packed != nil && len(p.Items) < 1<<21 {
			if order, ok := packedOrder(p, packed); ok {
				for _, k := range order {
					c := int(k & (1<<21 - 1))
					out[c] = t.Try(c)
				}
				return Selection{Outcomes: out}, nil
			}
		}
		type keyed struct {
			k sortKey
			c int
		}
		order := make([]keyed, n)
		for c := range p.Candidates {
			ms := p.Candidates[c].Members
			k := key(p.Items, ms[0])
			for _, m := range ms[1:] {
				if km := key(p.Items, m); km.less(k) {
					k = km
				}
			}
			order[c] = keyed{k, c}
		}
		slices.SortFunc(order, func(x, y keyed) int {
			switch {
			case x.k.less(y.k):
				return -1
			case y.k.less(x.k):
				return 1
			}
			return 0
		})
		for _, o := range order {
			out[o.c] = t.Try(o.c)
		}
		return Selection{Outcomes: out}, nil
	})
}

// packedOrder sorts the candidates by packed keys: the member's 43-bit key
// above the candidate's 21-bit index. It reports false when a key does not
// fit.
func packedOrder(p *Problem, packed func(items []Item, i, rank int) (uint64, bool)) ([]uint64, bool) {
	buf := make([]uint64, len(p.Items)+len(p.Candidates))
	ranks, keys := buf[:len(p.Items)], buf[len(p.Items):]
	newnessRanks(p.Items, ranks)
	for c := range p.Candidates {
		best := uint64(math.MaxUint64)
		for _, m := range p.Candidates[c].Members {
			k, ok := packed(p.Items, m, int(ranks[m]))
			if !ok {
				return nil, false
			}
			best = min(best, k)
		}
		keys[c] = best<<21 | uint64(c)
	}
	slices.Sort(keys)
	return keys, true
}

// newnessRanks numbers the items from the oldest (0) to the newest by
// (timestamp, position), into ranks. When the input is already in that
// order, as a chronological log is, the rank is the position and nothing
// is sorted.
func newnessRanks(items []Item, ranks []uint64) {
	inOrder := true
	for i := 1; i < len(items) && inOrder; i++ {
		a, b := items[i-1].Timestamp, items[i].Timestamp
		inOrder = a == nil || (b != nil && !b.Before(*a))
	}
	if inOrder {
		for i := range ranks {
			ranks[i] = uint64(i)
		}
		return
	}
	idx := make([]int32, len(items))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(x, y int32) int {
		switch {
		case newer(items, int(y), int(x)):
			return -1
		case newer(items, int(x), int(y)):
			return 1
		}
		return 0
	})
	for r, i := range idx {
		ranks[i] = uint64(r)
	}
}

// packedLowestPriority: priority (22 bits) then newer first (21 bits).
func packedLowestPriority(items []Item, i, rank int) (uint64, bool) {
	pr := items[i].Priority
	if pr >= 1<<22 {
		return 0, false
	}
	return uint64(pr)<<21 | uint64(len(items)-1-rank), true
}

// packedRecency: newer first.
func packedRecency(items []Item, _, rank int) (uint64, bool) {
	return uint64(len(items) - 1 - rank), true
}

// packedInputOrder: the position.
func packedInputOrder(_ []Item, i, _ int) (uint64, bool) {
	return uint64(i), true
}
