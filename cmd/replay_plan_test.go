package cmd

import (
	"slices"
	"testing"
)

// --context-window takes one limit or several; each is a whole number,
// and the flag's text reads back as the same list.
func TestWindowList(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int
		bad      bool
	}{
		{"one", "200000", []int{200000}, false},
		{"several", "100000,150000, 200000", []int{100000, 150000, 200000}, false},
		{"not a number", "100000,x", nil, true},
		{"empty part", "100000,", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var first int
			var all []int
			err := windowList{&first, &all}.Set(tt.in)
			if (err != nil) != tt.bad {
				t.Fatalf("Set(%q): %v", tt.in, err)
			}
			if !tt.bad && (!slices.Equal(all, tt.want) || first != tt.want[0]) {
				t.Errorf("Set(%q) = %v (first %d), want %v", tt.in, all, first, tt.want)
			}
		})
	}
}

func FuzzWindowList(f *testing.F) {
	for _, s := range []string{"0", "100000,150000,200000", "-5", " 7 ,8", ",", "1e5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var first int
		var all []int
		w := windowList{&first, &all}
		if err := w.Set(s); err != nil {
			return
		}
		if len(all) == 0 || first != all[0] {
			t.Fatalf("Set(%q) = %v, first %d", s, all, first)
		}
		var again []int
		if err := (windowList{&first, &again}).Set(w.String()); err != nil || !slices.Equal(again, all) {
			t.Fatalf("%q reads back as %v (%v), want %v", w.String(), again, err, all)
		}
	})
}
