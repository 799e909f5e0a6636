package tokenize

import (
	"testing"
	"unicode"
)

// TestIsSpaceNonASCII checks the estimate's White_Space test against the
// standard library's for every code point past ASCII.
func TestIsSpaceNonASCII(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if got, want := isSpaceNonASCII(r), unicode.IsSpace(r); got != want {
			t.Fatalf("isSpaceNonASCII(%U) = %v, want %v", r, got, want)
		}
	}
}
