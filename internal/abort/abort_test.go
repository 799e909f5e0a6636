package abort

import (
	"slices"
	"testing"
)

func TestHooks(t *testing.T) {
	var h Hooks
	var got []string
	add := func(name string) func() { return h.Add(func() { got = append(got, name) }) }
	add("a")
	removeB := add("b")
	add("c")
	removeB()
	removeB() // a second removal removes nothing else
	add("d")
	h.Run()
	if want := []string{"a", "c", "d"}; !slices.Equal(got, want) {
		t.Errorf("ran %q, want %q", got, want)
	}
}

func TestHooksZeroRunsNothing(t *testing.T) {
	var h Hooks
	h.Run()
}

// A hook may remove itself while Run calls it.
func TestHooksRemoveDuringRun(t *testing.T) {
	var h Hooks
	n := 0
	var remove func()
	remove = h.Add(func() { n++; remove() })
	h.Run()
	h.Run()
	if n != 1 {
		t.Errorf("ran %d times, want 1", n)
	}
}
