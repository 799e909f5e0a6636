package window

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestIndicesJSON: the indices a call sends are written as runs of
// consecutive indices, [first, last] each, and read back the same.
func TestIndicesJSON(t *testing.T) {
	long := make(Indices, 1000)
	for i := range long {
		long[i] = i
	}
	tests := []struct {
		name string
		in   Indices
		want string
	}{
		{"nil", nil, `null`},
		{"empty", Indices{}, `[]`},
		{"one", Indices{3}, `[[3,3]]`},
		{"runs", Indices{0, 1, 2, 3, 7, 9, 10}, `[[0,3],[7,7],[9,10]]`},
		// Before, the 1,000 indices were written one by one (3,890
		// bytes); every call of a long session wrote its whole window.
		{"a thousand in a row", long, `[[0,999]]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(struct {
				M Indices `json:"messages"`
			}{tt.in})
			if err != nil {
				t.Fatal(err)
			}
			if want := `{"messages":` + tt.want + `}`; string(b) != want {
				t.Errorf("got %s, want %s", b, want)
			}
			var back struct {
				M Indices `json:"messages"`
			}
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(back.M, tt.in) || (back.M == nil) != (tt.in == nil) {
				t.Errorf("read back %v, want %v", back.M, tt.in)
			}
		})
	}
	for _, bad := range []string{`[[3,2]]`, `[[0,3],[3,4]]`, `[[5,6],[1,2]]`} {
		var x Indices
		if err := json.Unmarshal([]byte(bad), &x); err == nil {
			t.Errorf("%s read as %v, want an error", bad, x)
		}
	}
}
