package tokenize

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

func TestReportRatio(t *testing.T) {
	tests := []struct {
		name   string
		counts []int
		k      int
		want   *float64
	}{
		{"two thirds, rounded to three decimals", []int{2, 3}, 0, ptr(0.667)},
		{"the last to itself", []int{2, 3}, 1, ptr(1)},
		{"last count zero", []int{5, 0}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Ratio(tt.counts, tt.k)
			if (got == nil) != (tt.want == nil) || got != nil && *got != *tt.want {
				t.Errorf("Ratio(%v, %d) = %v, want %v", tt.counts, tt.k, got, tt.want)
			}
		})
	}
}

func ptr(f float64) *float64 { return &f }

// With several counters, a total of zero tokens has a null ratio, and
// the total carries no file name.
func TestReportJSONMany(t *testing.T) {
	rep := Report{Counters: []string{"estimate", "o200k_base"}, Files: []FileCount{{Name: "e", Bytes: 0, Counts: []int{0, 0}}}}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tokenizers":["estimate","o200k_base"],"files":[{"file":"e","bytes":0,"counts":[{"tokenizer":"estimate","tokens":0,"ratio":null},{"tokenizer":"o200k_base","tokens":0,"ratio":null}]}],` +
		`"total":{"bytes":0,"counts":[{"tokenizer":"estimate","tokens":0,"ratio":null},{"tokenizer":"o200k_base","tokens":0,"ratio":null}]}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestReportTable(t *testing.T) {
	rep := Report{Counters: []string{"estimate", "o200k_base"}, Files: []FileCount{{Name: "a", Bytes: 8, Counts: []int{3, 2}}}}
	header, rows, footer := rep.Table()
	if want := []string{"FILE", "BYTES", "estimate", "o200k_base"}; !slices.Equal(header, want) {
		t.Errorf("header %q, want %q", header, want)
	}
	// 3/2 = 1.5.
	if want := []string{"a", "8", "3 (1.500x)", "2"}; len(rows) != 1 || !slices.Equal(rows[0], want) {
		t.Errorf("rows %q, want [%q]", rows, want)
	}
	if want := []string{"total", "8", "3 (1.500x)", "2"}; !slices.Equal(footer, want) {
		t.Errorf("footer %q, want %q", footer, want)
	}
}

// A file name with HTML characters is written as it is by an encoder
// that does not escape HTML (as harpe's reports do).
func TestReportJSONPlain(t *testing.T) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(Report{Counters: []string{"estimate"}, Files: []FileCount{{Name: "<a>&b", Bytes: 1, Counts: []int{1}}}}); err != nil {
		t.Fatal(err)
	}
	want := `{"tokenizer":"estimate","files":[{"file":"<a>&b","bytes":1,"tokens":1}],"total":1}` + "\n"
	if b.String() != want {
		t.Errorf("got  %s\nwant %s", b.String(), want)
	}
}
