package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestAddTokens(t *testing.T) {
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
		{"negative fits", -5, 3, -2, true},
		{"below the smallest int", math.MinInt, -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := AddTokens(tt.a, tt.b, "the things")
			var oe *TokenOverflowError
			if tt.ok != (err == nil) || (!tt.ok && !errors.As(err, &oe)) {
				t.Fatalf("AddTokens(%d, %d) error %v, want ok %v", tt.a, tt.b, err, tt.ok)
			}
			if got != tt.want {
				t.Errorf("AddTokens(%d, %d) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

func TestAmountOfLarge(t *testing.T) {
	tests := []struct {
		name string
		a    Amount
		base int
		want int // by hand
	}{
		// 184467440737095517 · 100 / 100: the product (≈1.8·10^19) is above
		// 2^63 but the result fits.
		{"issue 16 margin of 100", Amount{N: 184467440737095517, Percent: true}, 100, 184467440737095517},
		// 50% of the largest int: ⌊(2^63−1)/2⌋ = 2^62 − 1.
		{"half of the largest int", Amount{N: 50, Percent: true}, math.MaxInt, 1<<62 - 1},
		// 200% of the largest int does not fit: saturates.
		{"past the largest int", Amount{N: 200, Percent: true}, math.MaxInt, math.MaxInt},
		{"percent of a negative base", Amount{N: 5, Percent: true}, -100, 0},
		{"a plain count", Amount{N: 7}, math.MaxInt, 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Of(tt.base); got != tt.want {
				t.Errorf("%v.Of(%d) = %d, want %d", tt.a, tt.base, got, tt.want)
			}
		})
	}
}

func TestBudgetOverflow(t *testing.T) {
	tests := []struct {
		name    string
		b       Budget
		wantErr string
	}{
		{"reserves of 2^63-1 each", Budget{Total: 100, ReserveOutput: math.MaxInt, ReserveTools: math.MaxInt},
			"add up to more than 9223372036854775807"},
		{"all three at the largest int", Budget{Total: math.MaxInt, ReserveOutput: math.MaxInt, ReserveTools: math.MaxInt, SafetyMargin: math.MaxInt},
			"add up to more than 9223372036854775807"},
		{"margin above the total", Budget{Total: 100, SafetyMargin: 184467440737095517},
			"= 184467440737095517) exceed the budget of 100"},
		{"exactly the total", Budget{Total: math.MaxInt, ReserveOutput: math.MaxInt - 1, ReserveTools: 1}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.b.Validate()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := tt.b.Available(); got != 0 {
					t.Errorf("Available = %d, want 0", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Validate() = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

// TestSynthesizeTokenOverflow: 1,024 pinned items of 2^53 tokens add up to
// 2^63, one more than the largest int. Under --strict this used to report
// consumed_tokens −2^63 and exit 0.
func TestSynthesizeTokenOverflow(t *testing.T) {
	n := 1 << 53
	items := make([]Item, 1024)
	for i := range items {
		items[i] = Item{ID: "x", Content: "x", Pinned: true, TokenCount: &n, Line: i + 1}
	}
	for _, strict := range []bool{false, true} {
		rep, err := Synthesize(context.Background(), items, Budget{Total: 100}, Options{Strict: strict})
		var oe *TokenOverflowError
		if !errors.As(err, &oe) || rep != nil {
			t.Fatalf("strict %v: got %v, %v; want a *TokenOverflowError and no report", strict, rep, err)
		}
		if want := `line 1024 (id "x"): the items' token counts add up to more than 9223372036854775807 tokens`; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	}
	// 1,023 of them fit an int (2^63 − 2^53) and are merely over budget.
	rep, err := Synthesize(context.Background(), items[:1023], Budget{Total: 100}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1023 << 53; rep.ConsumedTokens != want || !rep.OverBudget {
		t.Errorf("consumed %d over %v, want %d over true", rep.ConsumedTokens, rep.OverBudget, want)
	}
}

func TestCheckDPCells(t *testing.T) {
	tests := []struct {
		name    string
		cells   int
		wantErr string
	}{
		{"default", 0, ""},
		{"the largest accepted", MaxDPCells, ""},
		// 12 · (2^26 + 1) bytes = 768 MiB and 12 bytes: three digits give 768.
		{"one above", MaxDPCells + 1, "67108865 cells would let the exact table take up to 768 MiB of memory; the most is 67108864 (768 MiB)"},
		// 12 · (2^63 − 1) bytes ≈ 96 · 2^60.
		{"the largest int", math.MaxInt, "9223372036854775807 cells would let the exact table take up to 96 EiB of memory; the most is 67108864 (768 MiB)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDPCells(tt.cells)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("CheckDPCells(%d) = %v, want %s", tt.cells, err, tt.wantErr)
			}
		})
	}
	// Synthesize refuses the same limit before it allocates anything.
	big := 1 << 40
	items := []Item{{ID: "a", Content: "a", TokenCount: &big}, {ID: "b", Content: "b", TokenCount: &big}}
	_, err := Synthesize(context.Background(), items, Budget{Total: 3 << 40}, Options{Policy: "knapsack", DPCells: math.MaxInt})
	if err == nil || !strings.HasPrefix(err.Error(), "dp cells: 9223372036854775807 cells") {
		t.Fatalf("Synthesize with DPCells MaxInt: %v", err)
	}
}

// TestDPTableBytes checks DPBytesPerCell against the table exact() builds,
// over shapes near the worst case (one candidate, narrow rows).
func TestDPTableBytes(t *testing.T) {
	for _, tc := range []struct{ n, width int }{{1, 1}, {1, 63}, {1, 64}, {2, 1}, {3, 65}, {100, 1000}} {
		cells := tc.n * (tc.width + 1)
		rowLen := tc.width + 1
		bytes := 8*rowLen + tc.n*((rowLen+63)/64)*8
		if bytes > DPBytesPerCell*cells {
			t.Errorf("n %d width %d: %d bytes > %d per cell × %d cells", tc.n, tc.width, bytes, DPBytesPerCell, cells)
		}
	}
}
