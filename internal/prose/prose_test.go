package prose

import (
	"errors"
	"strings"
	"testing"
)

func TestCompact(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0"}, {9999, "9999"}, // below 10,000 as it is
		{10000, "10.0k"}, {12345, "12.3k"}, {68183, "68.2k"}, // three significant digits
		{737580, "738k"}, {999499, "999k"}, // 999.499k rounds to 999k
		{999500, "1.00M"}, {1148538, "1.15M"}, {17158013, "17.2M"}, {40399479, "40.4M"},
		{999500000, "1.00G"},
	} {
		if got := Compact(tc.n); got != tc.want {
			t.Errorf("Compact(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestRanges(t *testing.T) {
	tests := []struct {
		name string
		in   []int
		want string
	}{
		{"empty", nil, ""},
		{"one", []int{4}, "4"},
		{"run", []int{1, 2, 3}, "1-3"},
		{"mixed", []int{1, 2, 3, 5, 7, 8}, "1-3, 5, 7-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Ranges(tt.in); got != tt.want {
				t.Errorf("Ranges(%v) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 calls", 1: "1 call", 2: "2 calls"} {
		if got := Plural(n, "call"); got != want {
			t.Errorf("Plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestList: the items are wrapped before column 80, continuation lines
// indented under the first item.
func TestList(t *testing.T) {
	var b strings.Builder
	items := []string{strings.Repeat("a", 40), strings.Repeat("b", 30), "c"}
	List(&b, "skipped: ", items)
	// "skipped: " (9) + 40 + "," = 50; + " " + 30 + "," = 82 > 79: break.
	want := "skipped: " + strings.Repeat("a", 40) + ",\n" +
		"         " + strings.Repeat("b", 30) + ", c\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

type failAt struct{ n, calls int }

func (f *failAt) Write(p []byte) (int, error) {
	f.calls++
	if f.calls == f.n {
		return 0, errFail
	}
	return len(p), nil
}

var errFail = errors.New("fail")

// TestSticky: the first error is kept and every later write refused, so
// writes after a failed one do not reach the writer.
func TestSticky(t *testing.T) {
	f := &failAt{n: 2}
	s := &Sticky{W: f}
	for range 4 {
		s.Write([]byte("x"))
	}
	if s.Err != errFail || f.calls != 2 {
		t.Errorf("err %v after %d writes; want %v after 2", s.Err, f.calls, errFail)
	}
}
