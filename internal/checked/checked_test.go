package checked

import (
	"math"
	"testing"
)

// Expected values are worked by hand from the definition of int64.
func TestAdd(t *testing.T) {
	tests := []struct {
		name string
		a, b int
		want int
		ok   bool
	}{
		{"small", 2, 3, 5, true},
		{"up to the largest int", math.MaxInt - 1, 1, math.MaxInt, true},
		{"one past the largest int", math.MaxInt, 1, 0, false},
		{"two halves of 2^63", 1 << 62, 1 << 62, 0, false},
		{"largest plus largest", math.MaxInt, math.MaxInt, 0, false},
		{"negative fits", -5, 3, -2, true},
		{"opposite signs never overflow", math.MaxInt, math.MinInt, -1, true},
		{"below the smallest int", math.MinInt, -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Add(tt.a, tt.b)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Add(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSub(t *testing.T) {
	tests := []struct {
		name string
		a, b int
		want int
		ok   bool
	}{
		{"small", 5, 3, 2, true},
		{"below zero", 3, 5, -2, true},
		{"zero minus the smallest int", 0, math.MinInt, 0, false},
		{"minus one minus the smallest int", -1, math.MinInt, math.MaxInt, true},
		{"smallest minus one", math.MinInt, 1, 0, false},
		{"largest minus minus one", math.MaxInt, -1, 0, false},
		{"same signs never overflow", math.MaxInt, math.MaxInt, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Sub(tt.a, tt.b)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Sub(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestSum(t *testing.T) {
	tests := []struct {
		name string
		xs   []int
		want int
		ok   bool
	}{
		{"none", nil, 0, true},
		{"three", []int{1, 2, 3}, 6, true},
		{"issue 16: 2^63-1 input plus 1 cache read", []int{math.MaxInt, 1, 0}, 0, false},
		// 1,024 items of 2^53 tokens make 2^63: one past the largest int.
		{"1024 times 2^53", repeat(1<<53, 1024), 0, false},
		{"1023 times 2^53", repeat(1<<53, 1023), 1023 << 53, true},
		// A partial sum that wraps fails even if a later term would bring
		// the total back in range.
		{"wraps on the way", []int{math.MaxInt, 1, -1}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Sum(tt.xs...)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Sum(%v) = %d, %v; want %d, %v", tt.xs, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func repeat(x, n int) []int {
	xs := make([]int, n)
	for i := range xs {
		xs[i] = x
	}
	return xs
}

func TestPercent(t *testing.T) {
	tests := []struct {
		name   string
		n, pct int
		want   int
		ok     bool
	}{
		{"half of 7", 7, 50, 3, true},
		// 184467440737095517 · 100 / 100: the product (≈1.8·10^19) is
		// above 2^63 but the result fits.
		{"product past 2^63, result fits", 184467440737095517, 100, 184467440737095517, true},
		// ⌊(2^63−1)/2⌋ = 2^62 − 1.
		{"half of the largest int", math.MaxInt, 50, 1<<62 - 1, true},
		{"twice the largest int", math.MaxInt, 200, 0, false},
		{"negative n", -1, 50, 0, false},
		{"negative percent", 10, -50, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := Percent(tt.n, tt.pct)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Percent(%d, %d) = %d, %v; want %d, %v", tt.n, tt.pct, got, ok, tt.want, tt.ok)
			}
		})
	}
}
