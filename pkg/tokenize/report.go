package tokenize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/termtext"
)

// FileCount is one input's token counts, one per counter of a [Report].
type FileCount struct {
	Name   string
	Bytes  int64
	Counts []int
}

// Report is what harpe count reports: each input counted by the same
// counters, in order. With several counters each count is also given as
// its ratio to the last counter's count, so an estimate's error against
// an exact count is visible.
//
// As JSON, a report with one counter is
// {"tokenizer":"o200k_base","files":[{"file":"a.txt","bytes":40,"tokens":12}],"total":12};
// with several, "tokenizers" lists them and every file (and the total)
// has "counts": [{"tokenizer","tokens","ratio"}], ratio null when the
// last count is 0.
type Report struct {
	Counters []string // the counters' names
	Files    []FileCount
}

// Ratio is counts[k]'s ratio to the last count, rounded to three
// decimals; nil when the last count is 0.
func Ratio(counts []int, k int) *float64 {
	last := counts[len(counts)-1]
	if last == 0 {
		return nil
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(float64(counts[k])/float64(last), 'f', 3, 64), 64)
	return &r
}

// Total is the sum of the files' bytes and counts, named "total".
func (r Report) Total() FileCount {
	t := FileCount{Name: "total", Counts: make([]int, len(r.Counters))}
	for _, f := range r.Files {
		t.Bytes += f.Bytes
		for k, c := range f.Counts {
			t.Counts[k] += c
		}
	}
	return t
}

type reportOne struct {
	Tokenizer string          `json:"tokenizer"`
	Files     []reportFileOne `json:"files"`
	Total     int             `json:"total"`
}

type reportFileOne struct {
	File   string `json:"file"`
	Bytes  int64  `json:"bytes"`
	Tokens int    `json:"tokens"`
}

type reportMany struct {
	Tokenizers []string         `json:"tokenizers"`
	Files      []reportFileMany `json:"files"`
	Total      reportFileMany   `json:"total"`
}

type reportFileMany struct {
	File   string        `json:"file,omitempty"`
	Bytes  int64         `json:"bytes"`
	Counts []reportEntry `json:"counts"`
}

type reportEntry struct {
	Tokenizer string   `json:"tokenizer"`
	Tokens    int      `json:"tokens"`
	Ratio     *float64 `json:"ratio"`
}

// MarshalJSON writes the report in the shape of its counters' number.
// It escapes no HTML characters itself (an Encoder with SetEscapeHTML
// false writes file names as they are).
func (r Report) MarshalJSON() ([]byte, error) {
	total := r.Total()
	if len(r.Counters) == 1 {
		rep := reportOne{Tokenizer: r.Counters[0], Files: []reportFileOne{}, Total: total.Counts[0]}
		for _, f := range r.Files {
			rep.Files = append(rep.Files, reportFileOne{f.Name, f.Bytes, f.Counts[0]})
		}
		return marshalPlain(rep)
	}
	entries := func(counts []int) []reportEntry {
		out := make([]reportEntry, len(counts))
		for k, c := range counts {
			out[k] = reportEntry{r.Counters[k], c, Ratio(counts, k)}
		}
		return out
	}
	rep := reportMany{Tokenizers: r.Counters, Files: []reportFileMany{}}
	for _, f := range r.Files {
		rep.Files = append(rep.Files, reportFileMany{f.Name, f.Bytes, entries(f.Counts)})
	}
	rep.Total = reportFileMany{Bytes: total.Bytes, Counts: entries(total.Counts)}
	return marshalPlain(rep)
}

// formatRatio is a ratio as the text and the table show it: "1.094x".
func formatRatio(r *float64) string {
	if r == nil {
		return "-"
	}
	return strconv.FormatFloat(*r, 'f', 3, 64) + "x"
}

// WriteText writes the report as wc writes counts, a line per file and a
// "total" line when there are several. One counter: "<tokens> <file>".
// Several: "<name>=<tokens> (<ratio>x) … <name>=<tokens> <file>". With
// bare, it writes the first file's counts alone (standard input, the
// only input). Control characters in names are shown escaped.
func (r Report) WriteText(w io.Writer, bare bool) error {
	line := func(counts []int, name string) string {
		var b strings.Builder
		for k, c := range counts {
			if len(r.Counters) == 1 {
				b.WriteString(strconv.Itoa(c))
			} else {
				fmt.Fprintf(&b, "%s=%d", r.Counters[k], c)
				if k < len(counts)-1 {
					b.WriteString(" (" + formatRatio(Ratio(counts, k)) + ")")
				}
			}
			b.WriteByte(' ')
		}
		if name == "" {
			return strings.TrimSuffix(b.String(), " ") + "\n"
		}
		return b.String() + termtext.Escape(name) + "\n"
	}
	if bare {
		_, err := io.WriteString(w, line(r.Files[0].Counts, ""))
		return err
	}
	for _, f := range r.Files {
		if _, err := io.WriteString(w, line(f.Counts, f.Name)); err != nil {
			return err
		}
	}
	if len(r.Files) > 1 {
		_, err := io.WriteString(w, line(r.Total().Counts, "total"))
		return err
	}
	return nil
}

// Table is the report as table cells: a row per file (file, bytes, a
// column per counter with the ratio to the last) and a totals footer.
func (r Report) Table() (header []string, rows [][]string, footer []string) {
	header = append([]string{"FILE", "BYTES"}, r.Counters...)
	cells := func(f FileCount) []string {
		row := []string{f.Name, strconv.FormatInt(f.Bytes, 10)}
		for k, c := range f.Counts {
			cell := strconv.Itoa(c)
			if k < len(f.Counts)-1 {
				cell += " (" + formatRatio(Ratio(f.Counts, k)) + ")"
			}
			row = append(row, cell)
		}
		return row
	}
	for _, f := range r.Files {
		rows = append(rows, cells(f))
	}
	return header, rows, cells(r.Total())
}

// marshalPlain is json.Marshal without HTML escaping.
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
