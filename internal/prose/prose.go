// Package prose holds the words harpe's plain-text reports are made of:
// a count with its noun ([Plural]), a list wrapped before 80 columns
// ([List]), increasing indices as ranges ([Ranges]), a count people read
// at a glance ([Compact]) and dollar amounts ([USD]). It knows no report:
// the packages that render their own reports share it.
package prose

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Plural is n and word, with an s when n is not 1: "1 call", "3 calls".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// List writes prefix and the items joined by ", ", breaking lines before
// 80 columns; continuation lines are indented by the prefix's width.
func List(w io.Writer, prefix string, items []string) {
	line := prefix
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		if len(line)+1+len(it) > 79 && len(line) > len(prefix) {
			fmt.Fprintln(w, line)
			line = strings.Repeat(" ", len(prefix)) + it
			continue
		}
		if len(line) > len(prefix) {
			line += " "
		}
		line += it
	}
	fmt.Fprintln(w, line)
}

// Ranges writes increasing indices as "1-6, 9, 12-13".
func Ranges(idx []int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(idx[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(idx[j]))
		}
		i = j + 1
	}
	return b.String()
}

// Compact writes n with three significant digits and a k, M or G suffix
// from 10,000 up (12345 → "12.3k", 17158013 → "17.2M"), for tables people
// read; the JSON keeps the exact figures.
func Compact(n int) string {
	f := float64(n)
	switch {
	case n < 10000:
		return strconv.Itoa(n)
	case n < 999500:
		return strconv.FormatFloat(f/1e3, 'f', max(0, 2-digitsBefore(f/1e3)), 64) + "k"
	case n < 999500000:
		return strconv.FormatFloat(f/1e6, 'f', max(0, 2-digitsBefore(f/1e6)), 64) + "M"
	default:
		return strconv.FormatFloat(f/1e9, 'f', max(0, 2-digitsBefore(f/1e9)), 64) + "G"
	}
}

// digitsBefore is how many digits x (≥ 1) has before the point, minus one.
func digitsBefore(x float64) int {
	d := 0
	for x >= 9.995 { // 9.996 rounds up to 10.0 at two decimals
		x /= 10
		d++
	}
	return d
}

// USD writes a dollar amount with six decimals, the precision of the
// notes under a table; USD4 with four, a table cell's.
func USD(x float64) string  { return strconv.FormatFloat(x, 'f', 6, 64) }
func USD4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

// Sticky passes writes on to W and keeps the first error among them in
// Err, failing every write after it, so a report writer checks once, at
// its end, what each fmt.Fprintf would drop.
type Sticky struct {
	W   io.Writer
	Err error
}

func (s *Sticky) Write(p []byte) (int, error) {
	if s.Err != nil {
		return 0, s.Err
	}
	n, err := s.W.Write(p)
	s.Err = err
	return n, err
}
