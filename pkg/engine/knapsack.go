package engine

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// Names of the two solvers behind the optimising policies, as the report
// shows them in "solver".
const (
	knapsackExactDP       = "exact_dp"
	knapsackDensityGreedy = "density_greedy"
)

// knapsackDefaultCells is the default limit on candidates × (capacity + 1)
// for the exact solver (SPEC §4; --dp-cells changes it).
const knapsackDefaultCells = 5_000_000

// How utilities are compared. Float64 sums depend on the order of the
// additions (0.1+0.2 ≠ 0.3, 1/3+1/3+1/3 ≠ 1), so the solver never compares
// float sums. Each utility is rounded to a grid unit u = 10^(e−utilityDigits),
// where 10^e is the smallest power of ten not below the largest utility
// (fewer digits when there are more than about 4.6 million candidates, so
// that sums fit an int64); on that grid every sum is an exact integer.
// Rounding moves one utility by at most u/2, so two selections that are
// worth the same in real arithmetic differ on the grid by less than one
// unit per candidate. The tie tolerance is therefore δ = 2 units per
// candidate: walking candidates in input order, a candidate is taken when
// the best selection that takes it (given the decisions already made) is
// worth at least the best one that leaves it out, minus δ. Exact ties are
// honoured whatever the decimal expansions, and the selection is within
// n·δ = 2n²·u of the optimum (n candidates), far below any meaningful
// difference in utility.
const utilityDigits = 12

// knapsackProblem is one optimisation over candidates in input order.
// Candidate i takes sizes[i] tokens and is worth values[i]. When caps is
// not empty, candidate i also counts costs[i][j] tokens against caps[j]
// (costs[i][j] ≤ sizes[i]: the part of the candidate in that dimension).
//
// The answer maximises the total utility subject to Σ size ≤ capacity and
// Σ costs[·][j] ≤ caps[j], and among the optimal selections it is the one
// that, walking candidates in input order, includes the first candidate
// where two selections differ; "optimal" and "equal" are meant up to the
// tolerance described at utilityDigits.
//
// Candidates with a negative or non-finite value, a negative size, or a
// size (or cost) above the capacity (or cap) are never taken. Zero-size
// candidates with a value ≥ 0 are always taken.
type knapsackProblem struct {
	sizes    []int
	values   []float64
	capacity int
	costs    [][]int
	caps     []int
	maxCells int // limit on candidates × (capacity+1) for the exact solver; ≤ 0 means the default
	// done, when closed, stops the exact solver between two candidates;
	// its answer is then meaningless and the caller returns an error.
	done <-chan struct{}
}

// solveKnapsack solves the 0/1 knapsack without caps; see knapsackProblem.
func solveKnapsack(sizes []int, values []float64, capacity, maxCells int) (take []bool, solver string) {
	return knapsackProblem{sizes: sizes, values: values, capacity: capacity, maxCells: maxCells}.solve()
}

// solve returns which candidates to take and the name of the solver that
// decided. The exact solver runs while candidates × (capacity + 1) ≤
// maxCells, all candidates counted, as SPEC §4 states it; with caps that
// can bind, the product is also multiplied by (cap + 1) for each of them,
// since the table then has that many more states. Above the limit,
// density_greedy decides. Within it, the table actually built is often
// smaller: candidates that cannot be taken are left out, and the width is
// min(capacity, their total size).
func (p knapsackProblem) solve() ([]bool, string) {
	n := len(p.sizes)
	take := make([]bool, n)
	capacity := max(p.capacity, 0)
	q := quantizeUtilities(p.values, utilityDigits)
	capsLeft := make([]int, len(p.caps))
	for j, c := range p.caps {
		capsLeft[j] = max(c, 0)
	}

	// Eligible candidates; zero-size ones are taken at once.
	var rest []int
	total := 0
	capTotals := make([]int, len(p.caps))
	for i, s := range p.sizes {
		if q[i] < 0 || s < 0 || s > capacity || !p.fitsCaps(i, capsLeft) {
			continue
		}
		if s == 0 && p.costFree(i) {
			take[i] = true
			continue
		}
		rest = append(rest, i)
		total += s
		for j := range capTotals {
			capTotals[j] += p.costs[i][j]
		}
	}

	// The caps that can bind, each shrunk to what the candidates could fill.
	width := min(capacity, total)
	var dims []int // indices into p.caps
	var bounds []int
	for j, t := range capTotals {
		if t > capsLeft[j] && capsLeft[j] < width {
			dims = append(dims, j)
			bounds = append(bounds, capsLeft[j])
		}
	}

	maxCells := p.maxCells
	if maxCells <= 0 {
		maxCells = knapsackDefaultCells
	}
	exact := n == 0 || capacity < maxCells && n <= maxCells/(capacity+1)
	if exact {
		cells := n * (capacity + 1)
		for _, b := range bounds {
			if cells > maxCells/(b+1) {
				exact = false
				break
			}
			cells *= b + 1
		}
	}
	if !exact {
		p.densityGreedy(rest, q, capacity, capsLeft, take)
		return take, knapsackDensityGreedy
	}
	if total <= capacity && len(dims) == 0 {
		for _, i := range rest {
			take[i] = true
		}
		return take, knapsackExactDP
	}
	p.exact(rest, q, width, dims, bounds, take)
	p.fillLeftover(rest, capacity, capsLeft, take)
	return take, knapsackExactDP
}

// fillLeftover adds, in input order, any candidate of rest that still fits
// beside the selection. After the exact solver this can happen only when
// near-ties within the tolerance chained up; adding a candidate worth ≥ 0
// never lowers the total, and it guarantees what the report implies: every
// candidate left out no longer fits.
func (p knapsackProblem) fillLeftover(rest []int, capacity int, capsLeft []int, take []bool) {
	room := capacity
	for i, tk := range take {
		if tk {
			room -= p.sizes[i]
			for j := range capsLeft {
				capsLeft[j] -= p.costs[i][j]
			}
		}
	}
	for _, i := range rest {
		if !take[i] && p.sizes[i] <= room && p.fitsCaps(i, capsLeft) {
			take[i] = true
			room -= p.sizes[i]
			for j := range capsLeft {
				capsLeft[j] -= p.costs[i][j]
			}
		}
	}
}

// fitsCaps reports whether candidate i's cost in every dimension is within
// room.
func (p knapsackProblem) fitsCaps(i int, room []int) bool {
	for j, r := range room {
		if p.costs[i][j] > r {
			return false
		}
	}
	return true
}

// costFree reports whether candidate i counts nothing against any cap.
func (p knapsackProblem) costFree(i int) bool {
	for j := range p.caps {
		if p.costs[i][j] != 0 {
			return false
		}
	}
	return true
}

// exact runs the dynamic programme over the candidates rest (input order),
// with total width width and the caps dims bounded by bounds. States are
// (c, d₁…dₘ) flattened as c + (width+1)·(d₁ + (b₁+1)·(d₂ + …)); row[state]
// is the best quantised value of the candidates seen so far within that
// state. Candidates are added in reverse input order and each one's
// decisions are kept as one bit per state (set when taking it is at least
// as good, up to the tolerance), so the walk back, in input order from the
// full state, decides the earliest candidate first and takes it whenever an
// optimal selection can include it.
func (p knapsackProblem) exact(rest []int, q []int64, width int, dims, bounds []int, take []bool) {
	rowLen := width + 1
	words := (rowLen + 63) >> 6
	outer := 1
	strides := make([]int, len(dims))
	for j, b := range bounds {
		strides[j] = outer
		outer *= b + 1
	}
	row := make([]int64, outer*rowLen)
	perItem := outer * words
	decide := make([]uint64, len(rest)*perItem)
	tol := 2 * int64(len(rest))
	digits := make([]int, len(dims))
	cost := make([]int, len(dims))

	for k := len(rest) - 1; k >= 0; k-- {
		if p.done != nil {
			select {
			case <-p.done:
				return
			default:
			}
		}
		i := rest[k]
		s, v := p.sizes[i], q[i]
		shift := 0
		for j, d := range dims {
			cost[j] = p.costs[i][d]
			shift += cost[j] * strides[j]
		}
		// Walk the outer states from the top down so that every state
		// reads its predecessor before the predecessor is updated.
		copy(digits, bounds)
		for o := outer - 1; o >= 0; o-- {
			fits := true
			for j := range digits {
				if digits[j] < cost[j] {
					fits = false
					break
				}
			}
			if fits {
				cur := row[o*rowLen : (o+1)*rowLen]
				prev := row[(o-shift)*rowLen : (o-shift+1)*rowLen]
				relaxRow(cur, prev, s, v, tol, decide[k*perItem+o*words:k*perItem+(o+1)*words])
			}
			for j := range digits { // decrement the mixed-radix counter
				if digits[j] > 0 {
					digits[j]--
					break
				}
				digits[j] = bounds[j]
			}
		}
	}

	c := width
	copy(digits, bounds)
	for k, i := range rest {
		o := 0
		for j := range digits {
			o += digits[j] * strides[j]
		}
		if decide[k*perItem+o*words+c>>6]>>(c&63)&1 == 0 {
			continue
		}
		take[i] = true
		c -= p.sizes[i]
		for j, d := range dims {
			digits[j] -= p.costs[i][d]
		}
	}
}

// relaxRow adds one candidate of size s and value v to one row of states:
// for every c ≥ s, cur[c] = max(cur[c], prev[c−s]+v), going down from the
// top so that when prev and cur are the same row each state still reads
// the value without this candidate. Bit c of out is set when taking the
// candidate is worth at least the best without it minus tol. Values and
// tol stay below 2⁶², so the subtraction that makes the bit cannot
// overflow.
func relaxRow(cur, prev []int64, s int, v, tol int64, out []uint64) {
	top := len(cur) - 1
	for w := top >> 6; w >= 0 && w<<6+63 >= s; w-- {
		lo := max(w<<6, s)
		hi := min(w<<6+63, top)
		cw := cur[lo : hi+1]
		pw := prev[lo-s : hi+1-s]
		pw = pw[:len(cw)]
		var m uint64
		for j := len(cw) - 1; j >= 0; j-- {
			old := cw[j]
			t := pw[j] + v
			m |= uint64(old-t-tol-1) >> 63 << uint((lo+j)&63)
			cw[j] = max(old, t)
		}
		out[w] = m
	}
}

// densityGreedy is the fallback above the cell limit. It takes candidates
// by quantised utility per token (ties by input order) until the first one
// that does not fit in the capacity (a candidate stopped only by a cap is
// passed over, since its cap only fills further); then it fills the slack
// with the largest remaining candidates (ties by input order) that still
// fit. So no candidate left out would still fit, and the room left is
// smaller than the largest candidate.
func (p knapsackProblem) densityGreedy(rest []int, q []int64, capacity int, capsLeft []int, take []bool) {
	// Sort on the float64 ratio, and settle equal ratios exactly with
	// 128-bit cross products, then by input order.
	type keyed struct {
		density float64
		i       int
	}
	ks := make([]keyed, len(rest))
	for k, i := range rest {
		d := math.Inf(1) // a zero size (possible only with inconsistent costs) goes first
		if p.sizes[i] > 0 {
			d = float64(q[i]) / float64(p.sizes[i])
		}
		ks[k] = keyed{d, i}
	}
	slices.SortFunc(ks, func(x, y keyed) int {
		switch { // densities are never NaN
		case x.density > y.density:
			return -1
		case x.density < y.density:
			return 1
		}
		a, b := x.i, y.i
		ah, al := bits.Mul64(uint64(q[a]), uint64(p.sizes[b]))
		bh, bl := bits.Mul64(uint64(q[b]), uint64(p.sizes[a]))
		if c := cmp.Compare(bh, ah); c != 0 {
			return c
		}
		if c := cmp.Compare(bl, al); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	order := make([]int, len(ks))
	for k, x := range ks {
		order[k] = x.i
	}
	room := capacity
	add := func(i int) {
		take[i] = true
		room -= p.sizes[i]
		for j := range capsLeft {
			capsLeft[j] -= p.costs[i][j]
		}
	}
	stop := len(order)
	for k, i := range order {
		if p.sizes[i] > room {
			stop = k
			break
		}
		if p.fitsCaps(i, capsLeft) {
			add(i)
		}
	}
	left := order[stop:]
	slices.SortFunc(left, func(a, b int) int {
		if c := cmp.Compare(p.sizes[b], p.sizes[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, i := range left {
		if !take[i] && p.sizes[i] <= room && p.fitsCaps(i, capsLeft) {
			add(i)
		}
	}
}

// quantizeUtilities maps each utility onto the decimal grid described at
// utilityDigits: q = round(v · 10^(digits−e)), so 0 ≤ q ≤ 10^digits, with
// digits lowered until len(values) · 10^digits < 2⁶¹ (sums and the tie
// tolerance then stay below 2⁶²). Negative and non-finite utilities get −1
// (never taken).
func quantizeUtilities(values []float64, digits int) []int64 {
	q := make([]int64, len(values))
	for digits > 0 && float64(len(values))*math.Pow10(digits) >= 1<<61 {
		digits--
	}
	top := 0.0
	for _, v := range values {
		if v > top && !math.IsInf(v, 1) {
			top = v
		}
	}
	e := 0
	if top > 0 {
		e = int(math.Ceil(math.Log10(top)))
		for math.Pow10(e) < top {
			e++
		}
		for math.Pow10(e-1) >= top {
			e--
		}
	}
	k := digits - e
	for i, v := range values {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
			q[i] = -1
		case v == 0:
			q[i] = 0
		case k >= 0 && k <= 300:
			q[i] = int64(math.Round(v * math.Pow10(k)))
		case k > 300: // tiny utilities: two steps so the scale stays finite
			q[i] = int64(math.Round(v * 1e300 * math.Pow10(k-300)))
		default:
			q[i] = int64(math.Round(v / math.Pow10(-k)))
		}
	}
	return q
}
