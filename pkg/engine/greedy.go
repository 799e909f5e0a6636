package engine

import "slices"

func init() {
	Register(PolicyLowestPriority, greedy(beforeLowestPriority))
	Register(PolicyRecency, greedy(beforeRecency))
	Register(PolicyInputOrder, greedy(beforeInputOrder))
	Register(PolicyRelevance, greedy(beforeRelevance))
}

// beforeLowestPriority: priority ascending; among equals newer first.
func beforeLowestPriority(items []Item, i, j int) bool {
	if pi, pj := items[i].Priority, items[j].Priority; pi != pj {
		return pi < pj
	}
	return newer(items, i, j)
}

// beforeRecency: newest first (timestamp, else the later input position).
func beforeRecency(items []Item, i, j int) bool {
	return newer(items, i, j)
}

// beforeInputOrder: first come, first served.
func beforeInputOrder(_ []Item, i, j int) bool {
	return i < j
}

// beforeRelevance: relevance descending (absent counts as 0); ties by
// priority ascending, then newer first.
func beforeRelevance(items []Item, i, j int) bool {
	if ri, rj := relevanceOf(&items[i]), relevanceOf(&items[j]); ri != rj {
		return ri > rj
	}
	return beforeLowestPriority(items, i, j)
}

func relevanceOf(it *Item) float64 {
	if it.Relevance == nil {
		return 0
	}
	return *it.Relevance
}

// greedy returns a policy that orders the candidates by before, applied to
// each candidate's most important member (the member that before puts
// first), and adds each candidate that still fits, scanning on after one
// that does not. before must be a strict total order on distinct items, so
// the order never depends on the sort algorithm.
func greedy(before func(items []Item, i, j int) bool) Policy {
	return PolicyFunc(func(p *Problem) (Selection, error) {
		n := len(p.Candidates)
		buf := make([]int, 2*n)
		order, leads := buf[:n], buf[n:]
		for c := range p.Candidates {
			ms := p.Candidates[c].Members
			lead := ms[0]
			for _, m := range ms[1:] {
				if before(p.Items, m, lead) {
					lead = m
				}
			}
			leads[c] = lead
			order[c] = c
		}
		slices.SortFunc(order, func(a, b int) int {
			switch {
			case before(p.Items, leads[a], leads[b]):
				return -1
			case before(p.Items, leads[b], leads[a]):
				return 1
			}
			return 0
		})
		out := make([]Outcome, n)
		t := p.NewTracker()
		for _, c := range order {
			out[c] = t.Try(c)
		}
		return Selection{Outcomes: out}, nil
	})
}
