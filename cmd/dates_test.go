package cmd

import (
	"strings"
	"testing"
)

// TestDatesHugeLine: an item line of 20 MB, with the phrase at its very
// end, is read whole and annotated.
func TestDatesHugeLine(t *testing.T) {
	filler := strings.Repeat("lorem ipsum ", 20<<20/12)
	line := `{"id":"big","content":"` + filler + `see you tomorrow","timestamp":"2023-05-20T10:00:00Z"}` + "\n"
	code, out, errs := runHarpe(t, line, "dates", "--jsonl")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := `{"id":"big","content":"` + filler + `see you tomorrow (2023-05-21)","timestamp":"2023-05-20T10:00:00Z"}` + "\n"
	if out != want {
		t.Errorf("output differs from the input plus one annotation (len %d, want %d)", len(out), len(want))
	}
}

// TestDatesHugeText: 20 MB of text on one line, phrase at both ends.
func TestDatesHugeText(t *testing.T) {
	in := "yesterday " + strings.Repeat("x", 20<<20) + " last year"
	code, out, errs := runHarpe(t, in, "dates", "--said-on", "2024-01-01")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	want := "yesterday (2023-12-31) " + strings.Repeat("x", 20<<20) + " last year (2023)"
	if out != want {
		t.Errorf("output differs (len %d, want %d)", len(out), len(want))
	}
}

// TestDatesOptions checks flags → options → errors without a process.
func TestDatesOptions(t *testing.T) {
	tests := []struct {
		name     string
		opts     datesOptions
		wantDate string
		wantHave bool
		wantErr  string
	}{
		{"said-on", datesOptions{saidOn: "2023-05-20"}, "2023-05-20", true, ""},
		{"said-on with spaces", datesOptions{saidOn: " 2024-02-29 "}, "2024-02-29", true, ""},
		{"anchor", datesOptions{anchor: "1:56 pm on 8 May, 2023"}, "2023-05-08", true, ""},
		{"neither", datesOptions{}, "", false, ""},
		{"both", datesOptions{saidOn: "2023-05-20", anchor: "2023-05-20"}, "", false, "--said-on and --anchor: give one, not both"},
		{"said-on timestamp", datesOptions{saidOn: "2023-05-20T10:00:00Z"}, "", false, `--said-on: "2023-05-20T10:00:00Z" is not a date; accepted: YYYY-MM-DD such as 2023-05-20 (a session timestamp goes in --anchor)`},
		{"said-on 31 June", datesOptions{saidOn: "2023-06-31"}, "", false, `--said-on: "2023-06-31": day 31 is out of range for June 2023 (1-30); accepted: YYYY-MM-DD such as 2023-05-20 (a session timestamp goes in --anchor)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := tt.opts.defaultDate()
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			have := d != nil
			if gotErr != tt.wantErr || have != tt.wantHave || (have && d.String() != tt.wantDate) {
				t.Errorf("defaultDate() = %v, %q; want %s, %v, %q", d, gotErr, tt.wantDate, tt.wantHave, tt.wantErr)
			}
		})
	}
}
