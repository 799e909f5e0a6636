package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func iptr(n int) *int             { return &n }
func fptr(f float64) *float64     { return &f }
func tptr(t time.Time) *time.Time { return &t }

// outcome is an item's fate as the tests spell it: "kept:reason" or
// "dropped:reason:needed:left".
func outcomes(r *Report) map[string]string {
	m := map[string]string{}
	for _, k := range r.Kept {
		m[k.ID] = "kept:" + string(k.Reason)
	}
	for _, d := range r.Dropped {
		m[d.ID] = "dropped:" + string(d.Reason) + ":" + strconv.Itoa(d.Needed) + ":" + strconv.Itoa(d.Left)
	}
	return m
}

// threeForEighty: a pinned 20-token prompt leaves 80 of 100 tokens.
// Utilities (1+relevance)/(1+priority): a = 1/2, b = 2/4 = 0.5, c = 1/4.
// lowest_priority takes a (priority 1; 30 left) and then neither 40-token
// item fits: utility 0.5. knapsack takes b+c: 80 tokens, utility 0.75.
func threeForEighty() []Item {
	return []Item{
		{ID: "sys", Content: "s", Pinned: true, TokenCount: iptr(20)},
		{ID: "a", Content: "a", Priority: 1, TokenCount: iptr(50)},
		{ID: "b", Content: "b", Priority: 3, Relevance: fptr(1), TokenCount: iptr(40)},
		{ID: "c", Content: "c", Priority: 3, TokenCount: iptr(40)},
	}
}

// fiveTurns: a pinned 10-token prompt and five 30-token turns without
// timestamps, so later lines are newer. A 100-token budget leaves room for
// three turns.
func fiveTurns() []Item {
	items := []Item{{ID: "sys", Content: "s", Pinned: true, TokenCount: iptr(10)}}
	for i, rel := range []float64{0, 0.2, 0, 0.9, 0} {
		items = append(items, Item{ID: "t" + strconv.Itoa(i+1), Content: "x", Priority: 10,
			Relevance: fptr(rel), TokenCount: iptr(30)})
	}
	return items
}

func TestOptimisingPolicies(t *testing.T) {
	tests := []struct {
		name    string
		items   []Item
		budget  Budget
		opts    Options
		want    map[string]string
		solver  string
		utility float64 // checked when solver is set
	}{
		{
			name:   "lowest_priority keeps less utility",
			items:  threeForEighty(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyLowestPriority},
			want: map[string]string{"sys": "kept:pinned", "a": "kept:selected",
				"b": "dropped:did_not_fit:40:30", "c": "dropped:did_not_fit:40:30"},
		},
		{
			name:   "knapsack keeps two smaller items",
			items:  threeForEighty(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyKnapsack},
			want: map[string]string{"sys": "kept:pinned", "a": "dropped:did_not_fit:50:0",
				"b": "kept:selected", "c": "kept:selected"},
			solver:  SolverExactDP,
			utility: 0.75,
		},
		{
			// Densities: a 0.5/50, b 0.5/40, c 0.25/40. b (40 left), a does
			// not fit: stop; largest remaining first: a no, c yes.
			name:   "knapsack fallback",
			items:  threeForEighty(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyKnapsack, DPCells: 1},
			want: map[string]string{"sys": "kept:pinned", "a": "dropped:did_not_fit:50:0",
				"b": "kept:selected", "c": "kept:selected"},
			solver:  SolverDensityGreedy,
			utility: 0.75,
		},
		{
			// Ranks over all six items, newest first: t5 0, t4 1, t3 2,
			// t2 3, t1 4, sys 5; the two oldest (sys, t1) are sinks.
			// Half-life 1: stream t5 1, t4 0.5, t3 0.25, t2 0.125, t1 1.
			// Utility 0.5·relevance + 0.5·stream: t1 0.5, t2 0.1625,
			// t3 0.125, t4 0.7, t5 0.5. Three fit: t4, t1, t5 = 1.7.
			name:   "duo_attention keeps the sink",
			items:  fiveTurns(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyDuoAttention, HalfLife: 1},
			want: map[string]string{"sys": "kept:pinned", "t1": "kept:selected",
				"t2": "dropped:did_not_fit:30:0", "t3": "dropped:did_not_fit:30:0",
				"t4": "kept:selected", "t5": "kept:selected"},
			solver:  SolverExactDP,
			utility: 1.7,
		},
		{
			// lowest_priority on the same items: all priority 10, newer
			// first: t5, t4, t3.
			name:   "lowest_priority keeps the newest",
			items:  fiveTurns(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyLowestPriority},
			want: map[string]string{"sys": "kept:pinned", "t1": "dropped:did_not_fit:30:0",
				"t2": "dropped:did_not_fit:30:0", "t3": "kept:selected",
				"t4": "kept:selected", "t5": "kept:selected"},
		},
		{
			// No sinks, alpha 0: pure recency, stream t5 1, t4 0.5, t3
			// 0.25 (half-life 1): 1.75.
			name:   "duo_attention without sinks is recency",
			items:  fiveTurns(),
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyDuoAttention, HalfLife: 1, Sinks: iptr(0), Alpha: fptr(0)},
			want: map[string]string{"sys": "kept:pinned", "t1": "dropped:did_not_fit:30:0",
				"t2": "dropped:did_not_fit:30:0", "t3": "kept:selected",
				"t4": "kept:selected", "t5": "kept:selected"},
			solver:  SolverExactDP,
			utility: 1.75,
		},
		{
			// Group g: two 20-token members, each 1/(1+5): 1/3 together,
			// less than x's 1/2 for the same 40 tokens.
			name: "group is one candidate worth the sum",
			items: []Item{
				{ID: "g1", Content: "g", Priority: 5, Group: "g", TokenCount: iptr(20)},
				{ID: "x", Content: "x", Priority: 1, TokenCount: iptr(40)},
				{ID: "g2", Content: "g", Priority: 5, Group: "g", TokenCount: iptr(20)},
			},
			budget: Budget{Total: 40},
			opts:   Options{Policy: PolicyKnapsack},
			want: map[string]string{"g1": "dropped:did_not_fit:40:0", "x": "kept:selected",
				"g2": "dropped:did_not_fit:40:0"},
			solver:  SolverExactDP,
			utility: 0.5,
		},
		{
			// Now x is worth 1/4 < 1/3: the group wins.
			name: "group wins on its sum",
			items: []Item{
				{ID: "g1", Content: "g", Priority: 5, Group: "g", TokenCount: iptr(20)},
				{ID: "x", Content: "x", Priority: 3, TokenCount: iptr(40)},
				{ID: "g2", Content: "g", Priority: 5, Group: "g", TokenCount: iptr(20)},
			},
			budget: Budget{Total: 40},
			opts:   Options{Policy: PolicyKnapsack},
			want: map[string]string{"g1": "kept:selected", "x": "dropped:did_not_fit:40:0",
				"g2": "kept:selected"},
			solver:  SolverExactDP,
			utility: 1.0/6 + 1.0/6,
		},
		{
			// Tool cap 30: only one of t1 (1/2) and t2 (1/3); h (1/4) fits
			// beside it. 60 of 90 tokens, utility 0.75.
			name: "cap",
			items: []Item{
				{ID: "t1", Content: "t", Priority: 1, Dimension: "tool", TokenCount: iptr(30)},
				{ID: "t2", Content: "t", Priority: 2, Dimension: "tool", TokenCount: iptr(30)},
				{ID: "h", Content: "h", Priority: 3, Dimension: "history", TokenCount: iptr(30)},
			},
			budget: Budget{Total: 90},
			opts:   Options{Policy: PolicyKnapsack, Caps: []Cap{{Dimension: "tool", Limit: Amount{N: 30}}}},
			want: map[string]string{"t1": "kept:selected", "t2": "dropped:dimension_cap:30:0",
				"h": "kept:selected"},
			solver:  SolverExactDP,
			utility: 0.75,
		},
		{
			// A group with 20 tool and 20 history tokens under tool=10 can
			// never go in; the lone history item can.
			name: "group across dimensions under a cap",
			items: []Item{
				{ID: "call", Content: "c", Priority: 1, Dimension: "tool", Group: "g", TokenCount: iptr(20)},
				{ID: "said", Content: "s", Priority: 1, Dimension: "history", Group: "g", TokenCount: iptr(20)},
				{ID: "h", Content: "h", Priority: 9, Dimension: "history", TokenCount: iptr(20)},
			},
			budget: Budget{Total: 100},
			opts:   Options{Policy: PolicyKnapsack, Caps: []Cap{{Dimension: "tool", Limit: Amount{N: 10}}}},
			want: map[string]string{"call": "dropped:dimension_cap:20:10",
				"said": "dropped:dimension_cap:20:10", "h": "kept:selected"},
			solver:  SolverExactDP,
			utility: 0.1,
		},
		{
			// Relevance −3 gives (1−3)/(1+1) = −1, counted as 0: taken
			// because room is left, adding nothing.
			name: "negative utility counts as zero",
			items: []Item{
				{ID: "neg", Content: "n", Priority: 1, Relevance: fptr(-3), TokenCount: iptr(10)},
				{ID: "pos", Content: "p", Priority: 1, TokenCount: iptr(10)},
			},
			budget:  Budget{Total: 30},
			opts:    Options{Policy: PolicyKnapsack},
			want:    map[string]string{"neg": "kept:selected", "pos": "kept:selected"},
			solver:  SolverExactDP,
			utility: 0.5,
		},
		{
			// Group g sums to 2e308, beyond float64: it still beats x
			// (1e308, same 20 tokens), and the reported total is capped at
			// the largest float64 so the JSON report stays valid.
			name: "huge utilities",
			items: []Item{
				{ID: "g1", Content: "g", Priority: 1, Group: "g", Utility: fptr(1e308), TokenCount: iptr(10)},
				{ID: "x", Content: "x", Priority: 1, Utility: fptr(1e308), TokenCount: iptr(20)},
				{ID: "g2", Content: "g", Priority: 1, Group: "g", Utility: fptr(1e308), TokenCount: iptr(10)},
			},
			budget:  Budget{Total: 20},
			opts:    Options{Policy: PolicyKnapsack},
			want:    map[string]string{"g1": "kept:selected", "x": "dropped:did_not_fit:20:0", "g2": "kept:selected"},
			solver:  SolverExactDP,
			utility: math.MaxFloat64,
		},
		{
			// An explicit utility beats the formula: a's 3 beats b+c.
			name: "explicit utility",
			items: []Item{
				{ID: "a", Content: "a", Priority: 9, Utility: fptr(3), TokenCount: iptr(50)},
				{ID: "b", Content: "b", Priority: 1, TokenCount: iptr(25)},
				{ID: "c", Content: "c", Priority: 1, TokenCount: iptr(25)},
			},
			budget:  Budget{Total: 50},
			opts:    Options{Policy: PolicyKnapsack},
			want:    map[string]string{"a": "kept:selected", "b": "dropped:did_not_fit:25:0", "c": "dropped:did_not_fit:25:0"},
			solver:  SolverExactDP,
			utility: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := Synthesize(context.Background(), tc.items, tc.budget, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := outcomes(rep)
			for id, w := range tc.want {
				if got[id] != w {
					t.Errorf("%s: %s, want %s", id, got[id], w)
				}
			}
			if rep.Solver != tc.solver {
				t.Errorf("solver %q, want %q", rep.Solver, tc.solver)
			}
			if _, err := json.Marshal(rep); err != nil {
				t.Errorf("report does not encode: %v", err)
			}
			switch {
			case tc.solver == "" && rep.Utility != nil:
				t.Errorf("utility %v for a greedy policy", *rep.Utility)
			case tc.solver != "" && (rep.Utility == nil || *rep.Utility != tc.utility):
				t.Errorf("utility %v, want %v", rep.Utility, tc.utility)
			}
		})
	}
}

func TestDuoAttentionUtilities(t *testing.T) {
	at := func(h int) *time.Time { return tptr(time.Date(2026, 5, 20, h, 0, 0, 0, time.UTC)) }
	tests := []struct {
		name     string
		items    []Item
		alpha    float64
		sinks    int
		halfLife float64
		skip     func(*Item) bool
		want     []float64
	}{
		{
			// Defaults on fiveTurns; expected values from Python:
			// 0.5*rel + 0.5*0.5**(rank/8) for ranks 3, 2, 1.
			name:  "defaults",
			items: fiveTurns(), alpha: 0.5, sinks: 2, halfLife: 8,
			want: []float64{0.5, 0.5, 0.4855527063519852, 0.42044820762685725, 0.9085020216023356, 0.5},
		},
		{
			// Newest first: D (10:00, position 3), A (10:00, position 0),
			// C (09:00), B (no timestamp: oldest, the one sink).
			name: "timestamps before positions",
			items: []Item{
				{ID: "A", Timestamp: at(10)}, {ID: "B"}, {ID: "C", Timestamp: at(9)}, {ID: "D", Timestamp: at(10)},
			},
			alpha: 0, sinks: 1, halfLife: 1,
			want: []float64{0.5, 1, 0.25, 1},
		},
		{
			// X is withheld: not ranked, utility 0. Z rank 0, Y rank 1.
			name:  "withheld items are not ranked",
			items: []Item{{ID: "Y"}, {ID: "X", Confidential: true}, {ID: "Z"}},
			alpha: 0, sinks: 0, halfLife: 1,
			skip: func(it *Item) bool { return it.Confidential },
			want: []float64{0.5, 0, 1},
		},
		{
			name:  "more sinks than items",
			items: []Item{{ID: "Y"}, {ID: "Z", Relevance: fptr(1)}},
			alpha: 0.25, sinks: 5, halfLife: 1,
			want: []float64{0.75, 1},
		},
		{
			name:  "explicit utility wins",
			items: []Item{{ID: "Y", Utility: fptr(7)}, {ID: "Z"}},
			alpha: 0.5, sinks: 0, halfLife: 1,
			want: []float64{7, 0.5},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DuoAttentionUtilities(tc.items, tc.alpha, tc.sinks, tc.halfLife, tc.skip)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.want {
				if math.Abs(got[i]-tc.want[i]) > 1e-15 {
					t.Errorf("item %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestDuoAttentionBadSettings(t *testing.T) {
	tests := []struct {
		name     string
		alpha    float64
		sinks    int
		halfLife float64
		want     string
	}{
		{"alpha above 1", 1.5, 2, 8, "alpha must be between 0 and 1, got 1.5"},
		{"alpha NaN", math.NaN(), 2, 8, "alpha must be between 0 and 1, got NaN"},
		{"negative sinks", 0.5, -1, 8, "sinks must be ≥ 0, got -1"},
		{"zero half-life", 0.5, 2, 0, "half-life must be a finite number > 0, got 0"},
		{"infinite half-life", 0.5, 2, math.Inf(1), "half-life must be a finite number > 0, got +Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DuoAttentionUtilities(nil, tc.alpha, tc.sinks, tc.halfLife, nil)
			if err == nil || err.Error() != tc.want {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	// Through Synthesize the error comes back, with no report.
	rep, err := Synthesize(context.Background(), fiveTurns(), Budget{Total: 100}, Options{Policy: PolicyDuoAttention, Alpha: fptr(2)})
	if err == nil || rep != nil || !strings.Contains(err.Error(), "alpha") {
		t.Errorf("Synthesize: %v, %v", rep, err)
	}
}

func TestKnapsackUtilities(t *testing.T) {
	items := []Item{
		{ID: "explicit", Priority: 1, Utility: fptr(2.5), Relevance: fptr(9)},
		{ID: "plain", Priority: 3},                         // 1/4
		{ID: "relevant", Priority: 1, Relevance: fptr(1)},  // 2/2
		{ID: "negative", Priority: 0, Relevance: fptr(-3)}, // −2/1
	}
	want := []float64{2.5, 0.25, 1, -2}
	if got := KnapsackUtilities(items); !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// The policies are registered under their names and listed after the
// greedy ones.
func TestOptimisingPoliciesRegistered(t *testing.T) {
	names := PolicyNames()
	want := []string{PolicyLowestPriority, PolicyRecency, PolicyInputOrder, PolicyRelevance, PolicyKnapsack, PolicyDuoAttention}
	if !slices.Equal(names[:min(len(names), 6)], want) {
		t.Errorf("PolicyNames() = %v", names)
	}
}

func BenchmarkSynthesizeKnapsack1000(b *testing.B) {
	sizes, values := benchInstance(1000, 100)
	items := make([]Item, len(sizes))
	for i := range items {
		items[i] = Item{ID: strconv.Itoa(i), Content: "x", Priority: 1 + i%20, Relevance: fptr(values[i]), TokenCount: iptr(sizes[i])}
	}
	opts := Options{Policy: PolicyKnapsack, DPCells: 1000 * 5001}
	for b.Loop() {
		if r, err := Synthesize(context.Background(), items, Budget{Total: 5000}, opts); err != nil || r.Solver != SolverExactDP {
			b.Fatal(err, r.Solver)
		}
	}
}

// generatedItems is n items of 5–200 tokens with priorities 1–20,
// relevance in [0, 1) and a pinned prompt first (fixed seed).
func generatedItems(n int) []Item {
	r := rand.New(rand.NewPCG(1200, uint64(n)))
	items := make([]Item, n)
	items[0] = Item{ID: "sys", Content: "s", Pinned: true, TokenCount: iptr(50)}
	for i := 1; i < n; i++ {
		items[i] = Item{ID: strconv.Itoa(i), Content: "x", Priority: 1 + r.IntN(20),
			Relevance: fptr(r.Float64()), TokenCount: iptr(5 + r.IntN(196))}
	}
	return items
}

// BenchmarkPolicyUtility compares the utility ((1+relevance)/(1+priority),
// the knapsack policy's) that lowest_priority and knapsack keep on the same
// generated items, and what each costs: the "utility" metric is the total
// over the selected items. knapsack_greedy forces the density_greedy
// fallback (DPCells 1) to show what the exact solver adds.
func BenchmarkPolicyUtility(b *testing.B) {
	for _, size := range []struct{ n, budget int }{{200, 1200}, {1000, 4000}, {100000, 1000000}} {
		items := generatedItems(size.n)
		u := KnapsackUtilities(items)
		for _, run := range []struct {
			name string
			opts Options
		}{
			{PolicyLowestPriority, Options{Policy: PolicyLowestPriority}},
			{PolicyKnapsack, Options{Policy: PolicyKnapsack}},
			{"knapsack_greedy", Options{Policy: PolicyKnapsack, DPCells: 1}},
		} {
			b.Run(fmt.Sprintf("n=%d/budget=%d/%s", size.n, size.budget, run.name), func(b *testing.B) {
				var rep *Report
				for b.Loop() {
					var err error
					if rep, err = Synthesize(context.Background(), items, Budget{Total: size.budget}, run.opts); err != nil {
						b.Fatal(err)
					}
				}
				total := 0.0
				for _, k := range rep.Kept {
					if k.Reason == ReasonSelected {
						total += u[k.Index]
					}
				}
				b.ReportMetric(total, "utility")
				b.ReportMetric(float64(rep.ConsumedTokens), "tokens")
			})
		}
	}
}

// TestKnapsackPolicyBruteForce runs the knapsack policy through Synthesize
// on random small inputs (always-kept items, groups, mixed dimensions, a
// cap) and checks the kept items against a brute force written from the
// specification: always-kept items and their groups first, each group one
// candidate worth the sum of its members' (1+relevance)/(1+priority)
// (negative counted as 0), every subset of candidates tried, the tie
// broken by input order. Utilities are whole multiples of 1/120 here, so
// the brute force adds integers.
func TestKnapsackPolicyBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(99, 1))
	rels := []float64{0, 0.5, 1, -2}
	for trial := range 1500 {
		n := 1 + r.IntN(9)
		items := make([]Item, n)
		for i := range items {
			items[i] = Item{ID: "i" + strconv.Itoa(i), Content: "x", Priority: r.IntN(6),
				Pinned: r.IntN(12) == 0, TokenCount: iptr(r.IntN(31)),
				Relevance: fptr(rels[r.IntN(len(rels))]),
				Group:     []string{"", "", "", "g1", "g2"}[r.IntN(5)],
				Dimension: []string{"a", "b"}[r.IntN(2)]}
		}
		budget := Budget{Total: r.IntN(121)}
		opts := Options{Policy: PolicyKnapsack}
		capA := -1
		if r.IntN(2) == 0 {
			capA = r.IntN(40)
			opts.Caps = []Cap{{Dimension: "a", Limit: Amount{N: capA}}}
		}

		// Always kept, with whole groups.
		kept := make([]bool, n)
		keptGroup := map[string]bool{}
		for _, it := range items {
			if (it.Pinned || it.Priority == 0) && it.Group != "" {
				keptGroup[it.Group] = true
			}
		}
		used := 0
		for i, it := range items {
			if it.Pinned || it.Priority == 0 || keptGroup[it.Group] {
				kept[i] = true
				used += *it.TokenCount
			}
		}
		if used > budget.Total {
			continue // over budget or expansion: no policy runs
		}
		// Candidates in order of their first member.
		var cands [][]int
		index := map[string]int{}
		for i, it := range items {
			if kept[i] {
				continue
			}
			if c, ok := index[it.Group]; ok && it.Group != "" {
				cands[c] = append(cands[c], i)
				continue
			}
			index[it.Group] = len(cands)
			cands = append(cands, []int{i})
		}
		best, bestUnits := -1, -1
		for mask := 0; mask < 1<<len(cands); mask++ {
			size, a, units := 0, 0, 0
			for c, ms := range cands {
				if mask>>c&1 == 0 {
					continue
				}
				for _, m := range ms {
					it := items[m]
					size += *it.TokenCount
					if it.Dimension == "a" {
						a += *it.TokenCount
					}
					units += max(0, int(math.Round(120*(1+*it.Relevance)))/(1+it.Priority))
				}
			}
			if used+size > budget.Total || capA >= 0 && a > capA {
				continue
			}
			// Bit c of the mask is candidate c: the tie rule prefers the
			// mask whose lowest differing bit is set.
			if units > bestUnits || units == bestUnits && (mask^best)&mask&-(mask^best) != 0 {
				best, bestUnits = mask, units
			}
		}
		for c, ms := range cands {
			for _, m := range ms {
				kept[m] = best>>c&1 == 1
			}
		}

		rep, err := Synthesize(context.Background(), items, budget, opts)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]bool, n)
		for _, k := range rep.Kept {
			got[k.Index] = true
		}
		if !slices.Equal(got, kept) {
			t.Fatalf("trial %d: budget %d cap a %d\nitems %+v\ngot  %v\nwant %v", trial, budget.Total, capA, items, got, kept)
		}
	}
}
