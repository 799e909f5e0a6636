package window

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Indices are transcript indices in ascending order, as a call sends
// them ([Call.Messages]). Their JSON is the runs of consecutive indices,
// each as [first, last]: [0 1 2 3 7] is [[0,3],[7,7]], [] is [], nil is
// null. A report then grows with the runs of each window, not with its
// length: listed one by one, the indices of every call made a long
// session's report grow with the square of its length (a 5 MB request
// of 10,000 messages wrote 4 GB).
type Indices []int

// MarshalJSON writes x as its runs.
func (x Indices) MarshalJSON() ([]byte, error) {
	if x == nil {
		return []byte("null"), nil
	}
	b := []byte{'['}
	for i := 0; i < len(x); {
		j := i
		for j+1 < len(x) && x[j+1] == x[j]+1 {
			j++
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(x[i]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(x[j]), 10)
		b = append(b, ']')
		i = j + 1
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads the runs a report writes back into indices.
// A run whose last index is before its first, or that does not come
// after the one before it, is an error.
func (x *Indices) UnmarshalJSON(b []byte) error {
	var runs [][2]int
	if err := json.Unmarshal(b, &runs); err != nil {
		return err
	}
	if runs == nil {
		*x = nil
		return nil
	}
	out := Indices{}
	for k, r := range runs {
		if r[1] < r[0] || (len(out) > 0 && r[0] <= out[len(out)-1]) {
			return fmt.Errorf("messages: run %d, [%d,%d], is not an ascending run after the one before it", k, r[0], r[1])
		}
		for i := r[0]; i <= r[1]; i++ {
			out = append(out, i)
		}
	}
	*x = out
	return nil
}
