package tokenize

import (
	"slices"
	"strings"
	"testing"
)

func TestNames(t *testing.T) {
	for _, n := range Names() {
		c, err := New(n)
		if err != nil || c.Name() != n {
			t.Errorf("New(%q) = %v, %v", n, c, err)
		}
	}
	if _, err := New("p50k_base"); err == nil || !strings.Contains(err.Error(), "valid: estimate, o200k_base, cl100k_base") {
		t.Errorf("New(p50k_base) err = %v", err)
	}
	if !slices.Contains(Names(), "o200k_base") {
		t.Error("o200k_base not in Names")
	}
}
