package cmd

import (
	"bytes"
	"errors"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestWriteWarnings: warnings that say the same thing of other files or
// figures are written three times, then counted in one line; others, and
// all of them with --verbose, are written each.
func TestWriteWarnings(t *testing.T) {
	short := func(name string, line, n int) *transcript.Error {
		return &transcript.Error{Name: name, Line: line, Err: errors.New(string(rune('0'+n)) + " of 9 responses record under a quarter of the output tokens")}
	}
	ws := []*transcript.Error{
		short("a.jsonl", 7, 1),
		{Name: "a.jsonl", Line: 9, Err: errors.New("1 line(s) held several records")},
		short("b.jsonl", 3, 2),
		short("c.jsonl", 12, 3),
		short("d.jsonl", 5, 4),
		short("e.jsonl", 5, 5),
		short("e.jsonl", 8, 6), // a second in e: one file more, not two
	}
	want := `harpe: warning: a.jsonl:7: 1 of 9 responses record under a quarter of the output tokens
harpe: warning: a.jsonl:9: 1 line(s) held several records
harpe: warning: b.jsonl:3: 2 of 9 responses record under a quarter of the output tokens
harpe: warning: c.jsonl:12: 3 of 9 responses record under a quarter of the output tokens
harpe: warning: 3 more like the first of a.jsonl, in 2 files (harpe transcript --verbose writes each)
`
	var errb bytes.Buffer
	a := &app{io: IO{Err: &errb}}
	a.writeWarnings(ws, false)
	if errb.String() != want {
		t.Errorf("got\n%s\nwant\n%s", errb.String(), want)
	}
	errb.Reset()
	a.writeWarnings(ws, true)
	if n := bytes.Count(errb.Bytes(), []byte("\n")); n != len(ws) || bytes.Contains(errb.Bytes(), []byte("more like")) {
		t.Errorf("--verbose: %d lines, want each of %d:\n%s", n, len(ws), errb.String())
	}
}
