package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestTimestampNumbers: one rule for numbers, worked by hand. 1683000000 s
// is 19479 days and 4 hours after the epoch: 2023-05-02T04:00:00Z; as
// milliseconds, 1683000000000 is the same instant. 10^11 ms is 10^8 s,
// the well-known 1973-03-03T09:46:40Z; 10^11 − 1 is still seconds (the
// year 5138).
func TestTimestampNumbers(t *testing.T) {
	tests := []struct {
		name, ts string
		want     string // RFC 3339 in UTC, "" for an error
	}{
		{"seconds", "1683000000", "2023-05-02T04:00:00Z"},
		{"milliseconds", "1683000000000", "2023-05-02T04:00:00Z"},
		{"milliseconds with a fraction of a second", "1683000000123", "2023-05-02T04:00:00.123Z"},
		{"fractional seconds", "1683000000.5", "2023-05-02T04:00:00.5Z"},
		{"the first milliseconds", "100000000000", "1973-03-03T09:46:40Z"},
		{"the last seconds", "99999999999", "5138-11-16T09:46:39Z"},
		{"an exponent is seconds", "1.683e12", ""},
		{"negative milliseconds", "-100000000000", "1966-10-31T14:13:20Z"},
		{"beyond 9999 in milliseconds", "253402300800000", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			items, _, err := ReadItems(strings.NewReader(`{"content":"a","timestamp":`+tt.ts+`}`), "x", ReadOptions{})
			if tt.want == "" {
				if err == nil {
					t.Fatalf("read %v, want an error", items[0].Timestamp)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := items[0].Timestamp.Format(time.RFC3339Nano); got != tt.want {
				t.Errorf("timestamp %s, want %s", got, tt.want)
			}
		})
	}
}

// TestReadRules: a byte order mark, blank lines and ids, the same for
// every command.
func TestReadRules(t *testing.T) {
	in := "\xef\xbb\xbf{\"content\":\"a\"}\n  \r\n\n{\"content\":\"b\",\"id\":\"x\"}\n"
	rd := NewItemReader(ReadOptions{DefaultPriority: 10})
	var seen []string
	err := rd.ReadEach(context.Background(), strings.NewReader(in), "f", func(l Line) error {
		kind := "blank"
		if l.Item != nil {
			kind = l.Item.ID
		}
		if l.BOM {
			kind += "+bom"
		}
		seen = append(seen, kind+":"+string(l.Raw))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`L1+bom:{"content":"a"}`, "blank:  \r", "blank:", `x:{"content":"b","id":"x"}`}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("lines\n got %q\nwant %q", seen, want)
	}
	// A syntax error's column does not count the mark: "{" is column 1,
	// and the missing value at "}" is column 12.
	_, _, err = ReadItems(strings.NewReader("\xef\xbb\xbf{\"content\":}"), "f", ReadOptions{})
	var le *LineError
	if !errors.As(err, &le) || le.Line != 1 || le.Col != 12 {
		t.Errorf("error %v, want f:1:12", err)
	}
	// A mark anywhere else is not skipped: it is not JSON.
	_, _, err = ReadItems(strings.NewReader("{\"content\":\"a\"}\n\xef\xbb\xbf{\"content\":\"b\"}"), "f", ReadOptions{})
	if !errors.As(err, &le) || le.Line != 2 || le.Col != 1 {
		t.Errorf("error %v, want f:2:1", err)
	}
}

// TestTimestampHook: strings that are not RFC 3339 go to the hook when
// there is one; RFC 3339 ones never do.
func TestTimestampHook(t *testing.T) {
	calls := 0
	opts := ReadOptions{Timestamp: func(s string) (time.Time, error) {
		calls++
		if s == "May 8, 2023" {
			return time.Date(2023, 5, 8, 0, 0, 0, 0, time.UTC), nil
		}
		return time.Time{}, errors.New("not a date")
	}}
	items, _, err := ReadItems(strings.NewReader(`{"content":"a","timestamp":"May 8, 2023"}`+"\n"+`{"content":"b","timestamp":"2023-05-09T10:00:00+02:00"}`), "f", opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := items[0].Timestamp.Format("2006-01-02"); got != "2023-05-08" || calls != 1 {
		t.Errorf("hook date %s after %d calls", got, calls)
	}
	if got := items[1].Timestamp.Format(time.RFC3339); got != "2023-05-09T10:00:00+02:00" {
		t.Errorf("RFC 3339 read as %s", got)
	}
	_, _, err = ReadItems(strings.NewReader(`{"content":"a","timestamp":"soon"}`), "f", opts)
	if err == nil || err.Error() != `f:1: "timestamp": not a date` {
		t.Errorf("hook error: %v", err)
	}
}
