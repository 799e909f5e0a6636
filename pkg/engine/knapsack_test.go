package engine

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Every expected selection below was worked out by hand; the comment on
// each case shows the arithmetic.
func TestSolveKnapsackWorked(t *testing.T) {
	tests := []struct {
		name     string
		sizes    []int
		values   []float64
		capacity int
		want     []bool
	}{
		{
			// Greedy by importance takes A (6) and then nothing fits:
			// utility 6. B+C fill 10 tokens for utility 10.
			name:     "two small beat one large",
			sizes:    []int{6, 5, 5},
			values:   []float64{6, 5, 5},
			capacity: 10,
			want:     []bool{false, true, true},
		},
		{
			// Any two of three equal items are optimal; the first two win.
			name:     "equal items tie by input order",
			sizes:    []int{3, 3, 3},
			values:   []float64{1, 1, 1},
			capacity: 6,
			want:     []bool{true, true, false},
		},
		{
			// {0,1}: 0.1+0.2 = 0.3 in 4 tokens; {2}: 0.3 in 4 tokens. In
			// float64 0.1+0.2 > 0.3, on the decimal grid they tie, and the
			// selection with candidate 0 wins.
			name:     "decimal tie 0.1+0.2 = 0.3, pair first",
			sizes:    []int{2, 2, 4},
			values:   []float64{0.1, 0.2, 0.3},
			capacity: 4,
			want:     []bool{true, true, false},
		},
		{
			// The same tie with the single item first: it wins, although
			// 0.1+0.2 is the larger float64 sum.
			name:     "decimal tie 0.3 = 0.1+0.2, single first",
			sizes:    []int{4, 2, 2},
			values:   []float64{0.3, 0.1, 0.2},
			capacity: 4,
			want:     []bool{true, false, false},
		},
		{
			// Classic textbook case: capacity 50; (10,60) (20,100) (30,120).
			// Best is 20+30 = 50 tokens for 220 (10+20 gives 160, 10+30
			// gives 180).
			name:     "textbook 50",
			sizes:    []int{10, 20, 30},
			values:   []float64{60, 100, 120},
			capacity: 50,
			want:     []bool{false, true, true},
		},
		{
			// A zero-value candidate that fits costs nothing: the tie rule
			// takes it.
			name:     "zero value taken when it fits",
			sizes:    []int{2, 2},
			values:   []float64{1, 0},
			capacity: 4,
			want:     []bool{true, true},
		},
		{
			// Zero-size candidates are always taken; size 5 > capacity 3.
			name:     "zero size always, oversize never",
			sizes:    []int{0, 5, 0},
			values:   []float64{0, 9, 3},
			capacity: 3,
			want:     []bool{true, false, true},
		},
		{
			name:     "negative and non-finite values never taken",
			sizes:    []int{1, 1, 1, 1},
			values:   []float64{-0.5, math.NaN(), math.Inf(1), 2},
			capacity: 10,
			want:     []bool{false, false, false, true},
		},
		{
			name:     "capacity zero",
			sizes:    []int{1, 0},
			values:   []float64{5, 1},
			capacity: 0,
			want:     []bool{false, true},
		},
		{
			name:     "no candidates",
			sizes:    []int{},
			values:   []float64{},
			capacity: 10,
			want:     []bool{},
		},
		{
			// 1/3 ×3 and 1 are equal in reals; in float64 and on any
			// decimal grid the thirds come out one unit short. The tie
			// tolerance sees the tie, and input order picks the thirds.
			name:     "thirds tie one",
			sizes:    []int{1, 1, 1, 3},
			values:   []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 1},
			capacity: 3,
			want:     []bool{true, true, true, false},
		},
		{
			// The same with the one first.
			name:     "one ties thirds",
			sizes:    []int{3, 1, 1, 1},
			values:   []float64{1, 1.0 / 3, 1.0 / 3, 1.0 / 3},
			capacity: 3,
			want:     []bool{true, false, false, false},
		},
		{
			// 1/6+1/6 rounds up, 1/3 rounds down on the grid: still a tie.
			name:     "sixths tie a third",
			sizes:    []int{4, 2, 2},
			values:   []float64{1.0 / 3, 1.0 / 6, 1.0 / 6},
			capacity: 4,
			want:     []bool{true, false, false},
		},
		{
			// Largest 1e9 → grid unit 1e-3: 1e-3 and 2e-3 are one unit
			// apart, within the tolerance (2 units × 3 candidates), so
			// {0,1} and {0,2} tie and input order picks 1.
			name:     "utility below the grid",
			sizes:    []int{5, 1, 1},
			values:   []float64{1e9, 1e-3, 2e-3},
			capacity: 6,
			want:     []bool{true, true, false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, solver := solveKnapsack(tc.sizes, tc.values, tc.capacity, 0)
			if !slices.Equal(got, tc.want) {
				t.Errorf("take = %v, want %v", got, tc.want)
			}
			if solver != knapsackExactDP {
				t.Errorf("solver = %q, want %q", solver, knapsackExactDP)
			}
		})
	}
}

func TestSolveKnapsackFallback(t *testing.T) {
	sizes := []int{4, 5, 2, 1}
	values := []float64{8, 6, 1, 0.1}
	tests := []struct {
		name     string
		capacity int
		maxCells int
		want     []bool
		solver   string
	}{
		// Capacity 8: 4 × 9 = 36 cells. Densities 2, 1.2, 0.5, 0.1: take
		// 0 (room 4); 1 (5 tokens) does not fit, stop. Largest remaining
		// first: 1 no, 2 yes (room 2), 3 yes (room 1).
		{"below the limit", 8, 35, []bool{true, false, true, true}, knapsackDensityGreedy},
		// Exact: {0,2,3} = 9.1 in 7 tokens; {1,2,3} = 7.1; {0,1} is 9 tokens.
		{"at the limit", 8, 36, []bool{true, false, true, true}, knapsackExactDP},
		// All fit (12 ≤ 20) but 4 × 21 = 84 cells > 83: the greedy runs,
		// and takes everything too.
		{"all fit above the limit", 20, 83, []bool{true, true, true, true}, knapsackDensityGreedy},
		{"all fit at the limit", 20, 84, []bool{true, true, true, true}, knapsackExactDP},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, solver := solveKnapsack(sizes, values, tc.capacity, tc.maxCells)
			if !slices.Equal(got, tc.want) || solver != tc.solver {
				t.Errorf("got %v %s, want %v %s", got, solver, tc.want, tc.solver)
			}
		})
	}
}

func TestDensityGreedyWorked(t *testing.T) {
	tests := []struct {
		name     string
		sizes    []int
		values   []float64
		capacity int
		want     []bool
	}{
		{
			// Densities 3, 1, 1, 0.9 (ties 1 and 2 by input order).
			// Phase 1: 0 (room 6), 1 (room 3), 2 needs 4 > 3: stop.
			// Phase 2 by size: 2 (4) no, 3 (3) yes: room 0.
			name:     "stop then fill by size",
			sizes:    []int{2, 3, 4, 3},
			values:   []float64{6, 3, 4, 2.7},
			capacity: 8,
			want:     []bool{true, true, false, true},
		},
		{
			// Greedy by density is not optimal: density 1.5 (size 2) first
			// leaves 8 tokens where 10 were wanted. 0 (room 8); 1 (size 10)
			// does not fit, stop; fill: 1 no. Exact takes {1} = 10 > 3.
			name:     "greedy below optimum",
			sizes:    []int{2, 10},
			values:   []float64{3, 10},
			capacity: 10,
			want:     []bool{true, false},
		},
		{
			// Zero size first, whatever its value.
			name:     "zero size",
			sizes:    []int{3, 0, 3},
			values:   []float64{3, 0, 3},
			capacity: 3,
			want:     []bool{true, true, false},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, solver := solveKnapsack(tc.sizes, tc.values, tc.capacity, 1)
			if !slices.Equal(got, tc.want) || solver != knapsackDensityGreedy {
				t.Errorf("got %v %s, want %v density_greedy", got, solver, tc.want)
			}
		})
	}
}

func TestSolveKnapsackCapsWorked(t *testing.T) {
	tests := []struct {
		name     string
		sizes    []int
		values   []float64
		costs    [][]int
		caps     []int
		capacity int
		maxCells int
		want     []bool
		solver   string
	}{
		{
			// Without the cap all three fit (12). Candidates 0 and 1 are
			// all "tool" (cap 4): only one of them, the better one.
			name:     "one cap",
			sizes:    []int{4, 4, 4},
			values:   []float64{4, 5, 3},
			costs:    [][]int{{4}, {4}, {0}},
			caps:     []int{4},
			capacity: 12,
			want:     []bool{false, true, true},
			solver:   knapsackExactDP,
		},
		{
			// A group with 3 tokens in each of two dimensions: the cap of 2
			// on the first rules it out although capacity is ample.
			name:     "group spanning two dimensions",
			sizes:    []int{6, 2},
			values:   []float64{10, 1},
			costs:    [][]int{{3, 3}, {2, 0}},
			caps:     []int{2, 100},
			capacity: 100,
			want:     []bool{false, true},
			solver:   knapsackExactDP,
		},
		{
			// Capacity 10, cap X = 5. X costs: 5, 3, 2, 0. Values 9, 5, 5, 4,
			// sizes 5, 3, 2, 5. Best: {1,2,3} = 14 (X 5, 10 tokens) versus
			// {0,3} = 13 and {0,1}/{0,2} blocked by X.
			name:     "cap changes the optimum",
			sizes:    []int{5, 3, 2, 5},
			values:   []float64{9, 5, 5, 4},
			costs:    [][]int{{5}, {3}, {2}, {0}},
			caps:     []int{5},
			capacity: 10,
			want:     []bool{false, true, true, true},
			solver:   knapsackExactDP,
		},
		{
			// Same instance through the fallback: densities 1.8, 1.67,
			// 2.5, 0.8 → order 2, 0, 1, 3. Take 2 (room 8, X 3); 0 fits the
			// room but not X (5 > 3): passed over; 1 (room 5, X 0); 3
			// (room 0). Same answer here.
			name:     "cap in the fallback",
			sizes:    []int{5, 3, 2, 5},
			values:   []float64{9, 5, 5, 4},
			costs:    [][]int{{5}, {3}, {2}, {0}},
			caps:     []int{5},
			capacity: 10,
			maxCells: 1,
			want:     []bool{false, true, true, true},
			solver:   knapsackDensityGreedy,
		},
		{
			// A cap at or above the capacity cannot bind: 2 × 7 = 14 cells,
			// no factor for the cap.
			name:     "slack cap",
			sizes:    []int{3, 3},
			values:   []float64{1, 1},
			costs:    [][]int{{3}, {3}},
			caps:     []int{6},
			capacity: 6,
			maxCells: 14,
			want:     []bool{true, true},
			solver:   knapsackExactDP,
		},
		{
			// One cap that binds: 2 × 7 × (3+1) = 56 cells. 55 is too few.
			name:     "binding cap counts in the cells",
			sizes:    []int{3, 3},
			values:   []float64{1, 2},
			costs:    [][]int{{3}, {3}},
			caps:     []int{3},
			capacity: 6,
			maxCells: 55,
			want:     []bool{false, true},
			solver:   knapsackDensityGreedy,
		},
		{
			name:     "binding cap at the limit",
			sizes:    []int{3, 3},
			values:   []float64{1, 2},
			costs:    [][]int{{3}, {3}},
			caps:     []int{3},
			capacity: 6,
			maxCells: 56,
			want:     []bool{false, true},
			solver:   knapsackExactDP,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := knapsackProblem{sizes: tc.sizes, values: tc.values, capacity: tc.capacity,
				costs: tc.costs, caps: tc.caps, maxCells: tc.maxCells}
			got, solver := p.solve()
			if !slices.Equal(got, tc.want) || solver != tc.solver {
				t.Errorf("got %v %s, want %v %s", got, solver, tc.want, tc.solver)
			}
		})
	}
}

// instance is a small random problem for the property tests. Each value is
// a fraction num/den; units holds it as a whole number of 1/27720 (27720 is
// the least common multiple of 1…12), so the brute force adds integers and
// knows exact ties without the solver's grid or float64.
type instance struct {
	sizes    []int
	vals     []float64
	units    []int // negative means never worth taking
	costs    [][]int
	caps     []int
	capacity int
}

func (in instance) values() []float64 { return in.vals }

// randomInstance draws a problem with few distinct values (many ties):
// denominators 40 (decimals such as 0.025, 0.1, 0.3) or, with thirds, any of
// 1…12 (1/3, 1/6, 1/7…, whose decimal expansions never end).
func randomInstance(r *rand.Rand, withCaps, thirds bool) instance {
	n := r.IntN(11)
	in := instance{capacity: r.IntN(25)}
	dims := 0
	if withCaps {
		dims = 1 + r.IntN(2)
		for range dims {
			in.caps = append(in.caps, r.IntN(15))
		}
	}
	for range n {
		s := r.IntN(9)
		if r.IntN(10) == 0 {
			s = 0
		}
		in.sizes = append(in.sizes, s)
		num, den := r.IntN(9), 40
		if thirds {
			den = 1 + r.IntN(12)
			num = r.IntN(2 * den)
		}
		if r.IntN(15) == 0 {
			num = -1
		}
		in.vals = append(in.vals, float64(num)/float64(den))
		in.units = append(in.units, num*(27720/den))
		if withCaps { // split the size among the dimensions and "other"
			c := make([]int, dims)
			left := s
			for j := range c {
				c[j] = r.IntN(left + 1)
				left -= c[j]
			}
			in.costs = append(in.costs, c)
		}
	}
	return in
}

// bruteForce tries every subset and applies the rules literally: feasible,
// largest total (exact integer units), and among equals the one that
// includes the first candidate where two selections differ.
func bruteForce(in instance) (best []bool, bestUnits int) {
	n := len(in.sizes)
	bestUnits = -1
	for mask := 0; mask < 1<<n; mask++ {
		sel := make([]bool, n)
		size, units, ok := 0, 0, true
		used := make([]int, len(in.caps))
		for i := range n {
			if mask>>i&1 == 0 {
				continue
			}
			sel[i] = true
			size += in.sizes[i]
			units += in.units[i]
			for j := range in.caps {
				used[j] += in.costs[i][j]
			}
		}
		if size > in.capacity {
			ok = false
		}
		for j := range in.caps {
			if used[j] > in.caps[j] {
				ok = false
			}
		}
		if !ok {
			continue
		}
		if units > bestUnits || units == bestUnits && includesFirstDifference(sel, best) {
			best, bestUnits = sel, units
		}
	}
	return best, bestUnits
}

// includesFirstDifference reports whether a includes the first candidate at
// which a and b differ.
func includesFirstDifference(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i]
		}
	}
	return false
}

func TestSolveKnapsackBruteForce(t *testing.T) {
	for _, mode := range []struct{ caps, thirds bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		t.Run(fmt.Sprintf("caps=%v,thirds=%v", mode.caps, mode.thirds), func(t *testing.T) {
			r := rand.New(rand.NewPCG(2026, 11))
			for trial := range 4000 {
				in := randomInstance(r, mode.caps, mode.thirds)
				want, _ := bruteForce(in)
				p := knapsackProblem{sizes: in.sizes, values: in.values(), capacity: in.capacity,
					costs: in.costs, caps: in.caps, maxCells: 1 << 30}
				got, solver := p.solve()
				if solver != knapsackExactDP || !slices.Equal(got, want) {
					t.Fatalf("trial %d: %+v\ngot  %v %s\nwant %v", trial, in, got, solver, want)
				}
			}
		})
	}
}

// With arbitrary float utilities ties are practically absent: the solver
// must reach the brute-force optimum within the grid's rounding and pick the
// same selection whenever the optimum is clear by more than that.
func TestSolveKnapsackBruteForceFloat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 3000 {
		n := 1 + r.IntN(12)
		sizes := make([]int, n)
		values := make([]float64, n)
		for i := range n {
			sizes[i] = r.IntN(20)
			values[i] = r.Float64() * math.Pow(10, float64(r.IntN(7)-3))
		}
		capacity := r.IntN(60)
		got, _ := solveKnapsack(sizes, values, capacity, 0)
		best, second := -1.0, -1.0
		var bestSel []bool
		for mask := 0; mask < 1<<n; mask++ {
			size, val := 0, 0.0
			sel := make([]bool, n)
			for i := range n {
				if mask>>i&1 == 1 {
					sel[i] = true
					size += sizes[i]
					val += values[i]
				}
			}
			if size > capacity {
				continue
			}
			if val > best {
				best, second, bestSel = val, best, sel
			} else if val > second {
				second = val
			}
		}
		size, val := 0, 0.0
		for i, tk := range got {
			if tk {
				size += sizes[i]
				val += values[i]
			}
		}
		top := slices.Max(values)
		if size > capacity {
			t.Fatalf("trial %d: %d tokens over capacity %d", trial, size, capacity)
		}
		if tol := float64(n) * top * 1e-8; val < best-tol {
			t.Fatalf("trial %d: utility %v, brute force %v", trial, val, best)
		}
		if best-second > top*1e-6 && !slices.Equal(got, bestSel) {
			// Candidates worth 0 after rounding may be added for free.
			for i := range got {
				if got[i] != bestSel[i] && values[i] > top*1e-9 {
					t.Fatalf("trial %d: got %v, want %v", trial, got, bestSel)
				}
			}
		}
	}
}

// The fallback is checked for what it promises: within capacity and caps;
// no eligible candidate left out would still fit (so the room left is less
// than the largest candidate); and the first phase is a density-ordered
// prefix.
func TestDensityGreedyProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 4000 {
		in := randomInstance(r, trial%2 == 1, trial%4 > 1)
		vals := in.values()
		p := knapsackProblem{sizes: in.sizes, values: vals, capacity: in.capacity,
			costs: in.costs, caps: in.caps, maxCells: 1}
		got, solver := p.solve()
		size := 0
		used := make([]int, len(in.caps))
		largest := 0
		for i, tk := range got {
			if in.units[i] >= 0 && in.sizes[i] <= in.capacity {
				largest = max(largest, in.sizes[i])
			}
			if !tk {
				continue
			}
			if in.units[i] < 0 {
				t.Fatalf("trial %d: took negative candidate %d", trial, i)
			}
			size += in.sizes[i]
			for j := range in.caps {
				used[j] += in.costs[i][j]
			}
		}
		if size > in.capacity {
			t.Fatalf("trial %d: %d > capacity %d (%s)", trial, size, in.capacity, solver)
		}
		for j := range in.caps {
			if used[j] > in.caps[j] {
				t.Fatalf("trial %d: cap %d: %d > %d", trial, j, used[j], in.caps[j])
			}
		}
		capsOK := func(i int) bool {
			for j := range in.caps {
				if used[j]+in.costs[i][j] > in.caps[j] {
					return false
				}
			}
			return true
		}
		for i, tk := range got {
			if !tk && in.units[i] >= 0 && size+in.sizes[i] <= in.capacity && capsOK(i) {
				t.Fatalf("trial %d: %+v: candidate %d would still fit: %v", trial, in, i, got)
			}
		}
		if len(in.caps) == 0 && in.capacity-size >= largest && largest > 0 {
			// Only possible when everything eligible was taken.
			for i, tk := range got {
				if !tk && in.units[i] >= 0 && in.sizes[i] <= in.capacity {
					t.Fatalf("trial %d: room %d ≥ largest %d with %d left out", trial, in.capacity-size, largest, i)
				}
			}
		}
	}
}

func TestQuantizeUtilities(t *testing.T) {
	tests := []struct {
		name   string
		digits int
		values []float64
		want   []int64
	}{
		// Largest 0.3 → e = 0 (10⁰ ≥ 0.3 > 10⁻¹): scale 10¹².
		{"tenths", 12, []float64{0.1, 0.2, 0.3}, []int64{1e11, 2e11, 3e11}},
		// Largest exactly 1 → e = 0.
		{"one", 12, []float64{1, 0.5}, []int64{1e12, 5e11}},
		// Largest 250 → e = 3: scale 10⁹.
		{"hundreds", 12, []float64{250, 4e-10, 6e-10}, []int64{250e9, 0, 1}},
		{"all zero", 12, []float64{0, 0}, []int64{0, 0}},
		// Largest finite 2 → e = 1 (10¹ ≥ 2 > 10⁰): scale 10¹¹.
		{"bad", 12, []float64{-1, math.NaN(), math.Inf(-1), math.Inf(1), 2}, []int64{-1, -1, -1, -1, 2e11}},
		// Largest 1e-300 → e = −300: scale 10³¹², beyond float64.
		{"tiny", 12, []float64{1e-300, 5e-301}, []int64{1e12, 5e11}},
		// Largest 1e300 → e = 300: scale 10⁻²⁸⁸.
		{"huge", 12, []float64{1e300, 1e299}, []int64{1e12, 1e11}},
		// 3 × 10¹⁸ ≥ 2⁶¹ ≈ 2.3 × 10¹⁸, 3 × 10¹⁷ is not: 17 digits.
		{"fewer digits for sums", 18, []float64{1, 0.5, 0}, []int64{1e17, 5e16, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := quantizeUtilities(tc.values, tc.digits); !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// benchInstance is n candidates of 1–100 tokens with float utilities.
func benchInstance(n int, maxSize int) ([]int, []float64) {
	r := rand.New(rand.NewPCG(42, uint64(n)))
	sizes := make([]int, n)
	values := make([]float64, n)
	for i := range n {
		sizes[i] = 1 + r.IntN(maxSize)
		values[i] = r.Float64() * 3
	}
	return sizes, values
}

func BenchmarkKnapsackExact1000x5000(b *testing.B) {
	sizes, values := benchInstance(1000, 100)
	// 1,000 × 5,001 cells is just above the default 5,000,000.
	for b.Loop() {
		if _, s := solveKnapsack(sizes, values, 5000, 1000*5001); s != knapsackExactDP {
			b.Fatal(s)
		}
	}
}

func BenchmarkKnapsackExact25x200000(b *testing.B) {
	sizes, values := benchInstance(25, 20000)
	for b.Loop() {
		if _, s := solveKnapsack(sizes, values, 200000, 25*200001); s != knapsackExactDP {
			b.Fatal(s)
		}
	}
}

func BenchmarkKnapsackFallback100000(b *testing.B) {
	sizes, values := benchInstance(100000, 100)
	for b.Loop() {
		if _, s := solveKnapsack(sizes, values, 1000000, 0); s != knapsackDensityGreedy {
			b.Fatal(s)
		}
	}
}

func BenchmarkKnapsackExactCaps(b *testing.B) {
	// 60 × 501 × 101 = 3,035,060 cells: exact.
	sizes, values := benchInstance(60, 50)
	costs := make([][]int, len(sizes))
	for i, s := range sizes {
		costs[i] = []int{0}
		if i%3 == 0 {
			costs[i][0] = s
		}
	}
	p := knapsackProblem{sizes: sizes, values: values, capacity: 500, costs: costs, caps: []int{100}}
	for b.Loop() {
		if _, s := p.solve(); s != knapsackExactDP {
			b.Fatal(s)
		}
	}
}

// FuzzSolveKnapsack checks the exact solver against the brute force on
// small instances decoded from the input: byte 0 is the capacity, then each
// pair of bytes a candidate's size and value (in 40ths), optionally with
// one cap (byte 1 when odd length).
func FuzzSolveKnapsack(f *testing.F) {
	f.Add([]byte{10, 6, 6, 5, 5, 5, 5})
	f.Add([]byte{4, 2, 4, 2, 8, 4, 12})
	f.Add([]byte{30, 7, 3, 9, 1, 0, 4, 9, 9, 2, 3, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		in := instance{capacity: int(data[0]) % 40}
		rest := data[1:]
		withCap := len(rest)%2 == 1
		if withCap {
			in.caps = []int{int(rest[0]) % 30}
			rest = rest[1:]
		}
		for k := 0; k+1 < len(rest) && len(in.sizes) < 12; k += 2 {
			s, u := int(rest[k])%16, int(rest[k+1])%12-1
			in.sizes = append(in.sizes, s)
			in.units = append(in.units, u*(27720/40))
			in.vals = append(in.vals, float64(u)/40)
			if withCap {
				in.costs = append(in.costs, []int{s * int(rest[k+1]>>4&1)})
			}
		}
		want, _ := bruteForce(in)
		p := knapsackProblem{sizes: in.sizes, values: in.vals, capacity: in.capacity,
			costs: in.costs, caps: in.caps, maxCells: 1 << 30}
		if got, _ := p.solve(); !slices.Equal(got, want) {
			t.Fatalf("%+v: got %v, want %v", in, got, want)
		}
	})
}
