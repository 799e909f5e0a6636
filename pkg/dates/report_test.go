package dates

import (
	"context"
	"testing"
	"time"
)

func TestParseDay(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"2023-05-20", "2023-05-20", ""},
		{" 2024-02-29\n", "2024-02-29", ""},
		{"2023-02-29", "", `"2023-02-29": day 29 is out of range for February 2023 (1-28)`},
		{"2023-5-20", "", `"2023-5-20" is not a date`},
		{"+023-05-20", "", `"+023-05-20" is not a date`},
		{"2023-05-20T10:00:00Z", "", `"2023-05-20T10:00:00Z" is not a date`},
		{"", "", `"" is not a date`},
	}
	for _, tt := range tests {
		d, err := ParseDay(tt.in)
		got, gotErr := "", ""
		if err != nil {
			gotErr = err.Error()
		} else {
			got = d.String()
		}
		if got != tt.want || gotErr != tt.err {
			t.Errorf("ParseDay(%q) = %q, %q; want %q, %q", tt.in, got, gotErr, tt.want, tt.err)
		}
	}
}

func TestAnnotateItem(t *testing.T) {
	// 23:30 at -07:00 on May 20 is May 21 in UTC: the item's own offset
	// decides, so "yesterday" is May 19.
	at := time.Date(2023, 5, 20, 23, 30, 0, 0, time.FixedZone("", -7*3600))
	def := Date{2020, time.January, 2}
	tests := []struct {
		name     string
		at       *time.Time
		def      *Date
		want     string
		wantSaid string // "" for null
	}{
		{"by its timestamp, over the default", &at, &def, "ran yesterday (2023-05-19)", "2023-05-20"},
		{"by the default", nil, &def, "ran yesterday (2020-01-01)", "2020-01-02"},
		{"no day: unchanged", nil, nil, "ran yesterday", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, rep, err := AnnotateItem(context.Background(), "ran yesterday", tt.at, tt.def)
			if err != nil {
				t.Fatal(err)
			}
			said := ""
			if rep.SaidOn != nil {
				said = *rep.SaidOn
			}
			if got != tt.want || said != tt.wantSaid || rep.Spans == nil {
				t.Errorf("got %q, said on %q, spans %v; want %q, %q", got, said, rep.Spans, tt.want, tt.wantSaid)
			}
		})
	}
}

func TestAnchorTime(t *testing.T) {
	got, err := AnchorTime("1:56 pm on 8 May, 2023")
	if want := time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC); err != nil || !got.Equal(want) {
		t.Errorf("AnchorTime = %v, %v; want %v", got, err, want)
	}
}
