package suggest

import "testing"

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"budget", "budget", 0},
		{"budgte", "budget", 1}, // one swap
		{"bugdet", "budget", 1},
		{"budet", "budget", 1},
		{"budgett", "budget", 1},
		{"kitten", "sitting", 3},
		{"", "abc", 3},
	}
	for _, tt := range tests {
		if got := Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
