package transcript

import (
	"strings"
	"testing"
)

// Lines holding several records back to back are split into them; any
// other line (one record, "}{" inside a string, a bad tail) is left alone.
func TestJoinedRecords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{`{"a":1}`, nil},
		{`{"a":"}{"}`, nil},
		{`{"a":1}{"b":2}`, []string{`{"a":1}`, `{"b":2}`}},
		{`{"a":1} {"b":"}{"}{"c":[3]}`, []string{`{"a":1}`, `{"b":"}{"}`, `{"c":[3]}`}},
		{`{"a":1}{"b":`, nil},
		{`{"a":1}{]`, nil},
		{`{"a":1}{"b":2}3`, nil},
		{`{"a":1}{ "b":2}`, []string{`{"a":1}`, `{ "b":2}`}},
		// Code quoted in a string: "}{" before an escaped quote or a brace.
		{`{"a":"f(x}{\"y\")"}`, nil},
		{`{"a":"struct{}{}"}`, nil},
	} {
		got := joinedRecords([]byte(tc.line))
		var s []string
		for _, r := range got {
			s = append(s, string(r))
		}
		if strings.Join(s, "|") != strings.Join(tc.want, "|") || (got == nil) != (tc.want == nil) {
			t.Errorf("joinedRecords(%s) = %q, want %q", tc.line, s, tc.want)
		}
	}
}
