package cmd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func TestTimestampDate(t *testing.T) {
	// Dates worked out by hand: 1683200000 s = 19481 days + 41600 s, and
	// day 19481 after 1970-01-01 is 2023-05-04.
	tests := []struct {
		name, raw, want string
		bad             bool
	}{
		{"own offset, not UTC", `"2023-05-01T23:30:00-04:00"`, "2023-05-01", false},
		{"UTC", `"2023-05-01T00:00:00Z"`, "2023-05-01", false},
		{"date only", `"2023-05-01"`, "2023-05-01", false},
		{"unix zero", `0`, "1970-01-01", false},
		{"unix seconds", `1683200000`, "2023-05-04", false},
		{"fraction floors", `86399.9`, "1970-01-01", false},
		{"before 1970", `-1`, "1969-12-31", false},
		{"words", `"last week"`, "", true},
		{"boolean", `true`, "", true},
		{"huge", `1e300`, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := timestampDate(json.RawMessage(tt.raw))
			if tt.bad {
				if err == nil {
					t.Errorf("timestampDate(%s) = %q, want an error", tt.raw, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("timestampDate(%s) = %q, %v; want %q", tt.raw, got, err, tt.want)
			}
		})
	}
}

func TestDecodeConflictItem(t *testing.T) {
	tests := []struct {
		name, line   string
		id, content  string
		date, errSub string
	}{
		{"minimal", `{"content":"hi"}`, "L1", "hi", "", ""},
		{"all three and more", `{"id":"x","content":"hi","timestamp":"2023-05-01T10:00:00Z","priority":2}`, "x", "hi", "2023-05-01", ""},
		{"null timestamp", `{"content":"hi","timestamp":null}`, "L1", "hi", "", ""},
		{"escapes", `{"content":"a\nb \u00e9"}`, "L1", "a\nb é", "", ""},
		{"content null", `{"content":null}`, "", "", "", `"content" must be a string, got null`},
		{"content object", `{"content":{}}`, "", "", "", `"content" must be a string, got object`},
		{"not an object", `"hi"`, "", "", "", "not a JSON object (found string)"},
		{"number", `12`, "", "", "", "not a JSON object (found number)"},
		{"truncated", `{"content":"hi"`, "", "", "", "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decodeConflictItem([]byte(tt.line), "L1")
			if tt.errSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSub) {
					t.Errorf("err = %v, want it to contain %q", err, tt.errSub)
				}
				return
			}
			if err != nil || got.id != tt.id || got.content != tt.content || got.date != tt.date {
				t.Errorf("got %+v, %v; want id %q content %q date %q", got, err, tt.id, tt.content, tt.date)
			}
		})
	}
}

func FuzzDecodeConflictItem(f *testing.F) {
	f.Add([]byte(`{"id":"x","content":"hi","timestamp":"2023-05-01T10:00:00Z"}`))
	f.Add([]byte(`{"content":"hi","timestamp":1683200000}`))
	f.Add([]byte(`{"content":5}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, line []byte) {
		got, err := decodeConflictItem(line, "L1")
		if err != nil {
			if !strings.HasPrefix(err.Error(), ":") {
				t.Fatalf("error %q does not start with ':' for the caller's file:line", err)
			}
			return
		}
		if !json.Valid(line) {
			t.Fatalf("accepted invalid JSON %q", line)
		}
		if got.id == "" && !strings.Contains(string(line), `"id"`) {
			t.Fatalf("no id for %q", line)
		}
	})
}

func TestConflictsHugeLine(t *testing.T) {
	// A 10 MB content line, read whole, denying the first item.
	big := strings.Repeat("We talked about the weather. ", 10<<20/29) + "I no longer live in Boston."
	in := `{"id":"s","content":"I live in Boston."}` + "\n" + `{"id":"big","content":"` + big + `"}` + "\n"
	var out, errOut strings.Builder
	code := Run(context.Background(), []string{"conflicts", "--format", "table"},
		IO{In: strings.NewReader(in), Out: &out, Err: &errOut}, func(string) (string, bool) { return "", false })
	if code != 0 || errOut.Len() != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
	if !strings.Contains(out.String(), "| big    | s      | no longer | live boston ") {
		t.Errorf("table does not show the pair:\n%s", out.String())
	}
}
