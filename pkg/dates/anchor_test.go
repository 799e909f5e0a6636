package dates

import (
	"errors"
	"strings"
	"testing"
)

// TestParseAnchor: the date each timestamp names is the calendar day as
// written (its own offset), so the expected values are read off the input
// by hand; Unix times were converted with Python's
// datetime.fromtimestamp(s, timezone.utc), and weekdays checked with
// date.strftime('%a').
func TestParseAnchor(t *testing.T) {
	tests := []struct{ name, in, want string }{
		// RFC 3339 / ISO 8601.
		{"date", "2023-05-20", "2023-05-20"},
		{"utc", "2023-05-20T02:21:00Z", "2023-05-20"},
		{"lower t and z", "2023-05-20t02:21:00z", "2023-05-20"},
		{"offset keeps own day", "2023-05-20T23:30:00-07:00", "2023-05-20"},
		{"positive offset keeps own day", "2023-05-21T00:30:00+09:00", "2023-05-21"},
		{"fraction", "2023-05-20T02:21:00.123456789+02:00", "2023-05-20"},
		{"no seconds", "2023-05-20T02:21Z", "2023-05-20"},
		{"offset without colon", "2023-05-20T02:21:00+0200", "2023-05-20"},
		{"offset hours only", "2023-05-20T02:21:00+02", "2023-05-20"},
		{"space separator", "2023-05-08 13:56:00", "2023-05-08"},
		{"space separator with UTC", "2023-05-08 13:56:00 UTC", "2023-05-08"},
		{"leap second", "2016-12-31T23:59:60Z", "2016-12-31"},
		{"basic", "20230520", "2023-05-20"},
		{"surrounding space", "  2023-05-20  ", "2023-05-20"},
		// Long-memory chat datasets.
		{"slash with weekday", "2023/05/20 (Sat) 02:21", "2023-05-20"},
		{"slash full weekday", "2023/05/20 (Saturday) 02:21", "2023-05-20"},
		{"slash no weekday", "2023/05/20 02:21", "2023-05-20"},
		{"slash date only", "2023/5/8", "2023-05-08"},
		{"time on day month", "1:56 pm on 8 May, 2023", "2023-05-08"},
		{"time on, no comma", "1:56 pm on 8 May 2023", "2023-05-08"},
		{"time on, upper PM", "10:37 PM on 27 June, 2023", "2023-06-27"},
		{"time on, am glued", "9:05am on 1 January, 2024", "2024-01-01"},
		{"time on, dotted a.m.", "9:05 a.m. on 1 Jan, 2024", "2024-01-01"},
		{"twelve am", "12:00 am on 29 February, 2024", "2024-02-29"},
		{"time on month day", "1:56 pm on May 8, 2023", "2023-05-08"},
		// Written dates.
		{"month day year", "May 8, 2023", "2023-05-08"},
		{"month day year no comma", "May 8 2023", "2023-05-08"},
		{"short month with dot", "Sept. 3, 2023", "2023-09-03"},
		{"ordinal", "May 8th, 2023", "2023-05-08"},
		{"weekday month day", "Monday, May 8, 2023", "2023-05-08"},
		{"month day with time", "May 8, 2023 at 1:56 PM", "2023-05-08"},
		{"day month year", "8 May 2023", "2023-05-08"},
		{"day month comma year", "8 May, 2023", "2023-05-08"},
		{"day of month", "8th of May 2023", "2023-05-08"},
		{"upper case", "8 MAY 2023", "2023-05-08"},
		{"weekday day month", "Mon 8 May 2023", "2023-05-08"},
		// RFC 1123 / 2822, ctime.
		{"rfc 2822", "Mon, 08 May 2023 13:56:00 +0000", "2023-05-08"},
		{"rfc 1123 zone name", "Mon, 02 Jan 2006 15:04:05 MST", "2006-01-02"},
		{"rfc 2822 no weekday", "08 May 2023 13:56 -0700", "2023-05-08"},
		{"rfc 2822 GMT", "Sat, 20 May 2023 02:21:00 GMT", "2023-05-20"},
		{"ctime", "Mon May  8 13:56:00 2023", "2023-05-08"},
		{"date(1)", "Mon May 8 13:56:00 UTC 2023", "2023-05-08"},
		{"javascript Date", "Sat May 20 2023 02:21:00 GMT+0200 (Central European Summer Time)", "2023-05-20"},
		{"utc offset", "2023-05-20 02:21 UTC+02:00", "2023-05-20"},
		// Unix time, in UTC.
		{"unix seconds", "1683554160", "2023-05-08"},
		{"unix seconds last second of a day", "1684627199", "2023-05-20"},
		{"unix seconds first second of a day", "1684627200", "2023-05-21"},
		{"unix nine digits", "999999999", "2001-09-09"},
		{"unix fraction", "1684549260.75", "2023-05-20"},
		{"unix milliseconds", "1683554160000", "2023-05-08"},
		{"unix milliseconds odd", "1684549260123", "2023-05-20"},
		{"unix smallest milliseconds", "100000000000", "1973-03-03"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseAnchor(tt.in)
			if err != nil {
				t.Fatalf("ParseAnchor(%q): %v", tt.in, err)
			}
			if got.String() != tt.want {
				t.Errorf("ParseAnchor(%q) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseAnchorErrors(t *testing.T) {
	tests := []struct{ name, in, reason string }{
		{"empty", "", "empty timestamp"},
		{"blank", "   ", "empty timestamp"},
		{"words", "yesterday", "not a timestamp in any accepted format"},
		{"day 30 of February", "2023-02-30", "day 30 is out of range for February 2023 (1-28)"},
		{"leap day of a common year", "2023/02/29 (Wed) 10:00", "day 29 is out of range for February 2023 (1-28)"},
		{"month 13", "2023-13-01", "month 13 is out of range 1-12"},
		{"year 0", "0000-01-01", "year 0 is out of range 1-9999"},
		{"wrong weekday", "2023/05/20 (Fri) 02:21", "2023-05-20 is a Saturday, not a Friday"},
		{"wrong weekday rfc 2822", "Tue, 08 May 2023 13:56:00 +0000", "2023-05-08 is a Monday, not a Tuesday"},
		{"hour 25", "2023-05-20T25:00:00Z", "hour 25 is out of range 0-23"},
		{"minute 60", "2023-05-20 10:60", "minute 60 is out of range 0-59"},
		{"second 61", "2023-05-20T10:00:61Z", "second 61 is out of range 0-60"},
		{"13 pm", "13:56 pm on 8 May, 2023", "hour 13 is out of range 1-12 for am/pm"},
		{"zone gmt+25", "Sat May 20 2023 02:21:00 GMT+2500", "zone offset +2500 is out of range"},
		{"zone 25", "2023-05-20T10:00:00+25:00", "zone offset +25:00 is out of range"},
		{"unknown month", "8 Mai 2023", "not a timestamp in any accepted format"},
		{"two-digit year", "8 May 23", "not a timestamp in any accepted format"},
		{"american slashes", "05/20/2023", "not a timestamp in any accepted format"},
		{"bare year", "2023", "too short for Unix time (9 digits or more: 1973 and later)"},
		{"huge unix", "99999999999999999", "not a timestamp in any accepted format"},
		{"unix past 9999", "9999999999999999", "Unix time 9999999999999999 is outside the years 1-9999"},
		{"trailing text", "2023-05-20 tomorrow", "not a timestamp in any accepted format"},
		{"invalid UTF-8", "2023-05-20\xff", "not a timestamp in any accepted format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseAnchor(tt.in)
			var ae *AnchorError
			if !errors.As(err, &ae) {
				t.Fatalf("ParseAnchor(%q) = %s, %v; want an *AnchorError", tt.in, d, err)
			}
			if ae.Reason != tt.reason || ae.Input != tt.in {
				t.Errorf("ParseAnchor(%q) error = %q (input %q), want %q", tt.in, ae.Reason, ae.Input, tt.reason)
			}
			// The message quotes the input and lists the formats.
			msg := err.Error()
			if !strings.HasPrefix(msg, `"`) || !strings.Contains(msg, `"1:56 pm on 8 May, 2023"`) {
				t.Errorf("message %q does not quote the input and the formats", msg)
			}
		})
	}
}

// TestAnchorFormatsParse checks that every example the help and errors show
// is read.
func TestAnchorFormatsParse(t *testing.T) {
	for _, f := range AnchorFormats {
		ex, _, _ := strings.Cut(f, " (Unix")
		if _, err := ParseAnchor(ex); err != nil {
			t.Errorf("the listed format %q does not parse: %v", f, err)
		}
	}
}

func TestParseUnix(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"epoch", "0", "1970-01-01"},
		{"one second", "1", "1970-01-01"},
		{"before the epoch", "-1", "1969-12-31"},
		{"first day", "-62135596800", "0001-01-01"},
		{"seconds", "1700000000", "2023-11-14"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseUnix(tt.in)
			if err != nil || got.String() != tt.want {
				t.Errorf("ParseUnix(%q) = %s, %v; want %s", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "abc", "1e9", "-62135596801", "NaN", "+5"} {
		if d, err := ParseUnix(bad); err == nil {
			t.Errorf("ParseUnix(%q) = %s, want an error", bad, d)
		}
	}
}

func FuzzParseAnchor(f *testing.F) {
	for _, s := range AnchorFormats {
		f.Add(s)
	}
	for _, s := range []string{"2023-02-30", "2023/05/20 (Fri) 02:21", "13:56 pm on 8 May, 2023", "99999999999999999", "-62135596801", "1.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseAnchor(s)
		if err != nil {
			var ae *AnchorError
			if !errors.As(err, &ae) || ae.Input != s {
				t.Fatalf("ParseAnchor(%q): error %v is not an *AnchorError quoting the input", s, err)
			}
			return
		}
		if !d.valid() {
			t.Fatalf("ParseAnchor(%q) = %+v, not a valid date", s, d)
		}
		// A date it returns reads back as itself.
		if again, err := ParseAnchor(d.String()); err != nil || again != d {
			t.Fatalf("ParseAnchor(%q) = %s, which reads back as %s, %v", s, d, again, err)
		}
	})
}
