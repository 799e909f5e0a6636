package jsonl

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestSetField(t *testing.T) {
	tests := []struct {
		name, line, key, val, want string
	}{
		{"replace keeps order and spacing", `{"id": "a", "content": "hi", "x": 1}`, "content", `"bye"`, `{"id": "a", "content": "bye", "x": 1}`},
		{"replace number", `{"token_count":3,"content":"x"}`, "token_count", `7`, `{"token_count":7,"content":"x"}`},
		{"add at end", `{"content":"x"}`, "token_count", `2`, `{"content":"x","token_count":2}`},
		{"add to empty object", `{}`, "a", `1`, `{"a":1}`},
		{"add keeps trailing space", `{"content":"x"} `, "n", `1`, `{"content":"x","n":1} `},
		{"nested key untouched", `{"meta":{"content":"inner"},"content":"outer"}`, "content", `"new"`, `{"meta":{"content":"inner"},"content":"new"}`},
		{"last duplicate wins", `{"content":"a","content":"b"}`, "content", `"c"`, `{"content":"a","content":"c"}`},
		{"escaped key text", `{"c\u006fntent":"a"}`, "content", `"z"`, `{"c\u006fntent":"z"}`},
		{"value after newline-free spaces", `{"content" :  "a"}`, "content", `"z"`, `{"content" :  "z"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := SetField([]byte(tt.line), tt.key, []byte(tt.val))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestSetFieldRejects(t *testing.T) {
	for _, line := range []string{`[1,2]`, `"s"`, `{"a":`, `{"a":1}}`} {
		if _, err := SetField([]byte(line), "a", []byte("1")); err == nil {
			t.Errorf("SetField(%s): no error", line)
		}
	}
}

func TestReaderLongLinesAndEndings(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	in := "a\r\n" + long + "\n\nlast"
	r := NewReader(strings.NewReader(in))
	want := []string{"a\r", long, "", "last"}
	for i, w := range want {
		line, n, err := r.Next()
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if n != i+1 || string(line) != w {
			t.Fatalf("line %d: got n=%d len=%d", i+1, n, len(line))
		}
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Fatalf("want EOF, got %v", err)
	}
}

func TestString(t *testing.T) {
	if got := string(String(`<a> & "b"`)); got != `"<a> & \"b\""` {
		t.Errorf("got %s", got)
	}
}

func TestKind(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`: "object", ` [1]`: "array", `"s"`: "string", `true`: "boolean",
		`false`: "boolean", `null`: "null", `-1.5`: "number", `  `: "nothing", ``: "nothing",
	} {
		if got := Kind([]byte(in)); got != want {
			t.Errorf("Kind(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	tests := []struct {
		in   string
		off  int
		want string
	}{
		{"caf\xc3\xa9", -1, ""},
		{"", -1, ""},
		{"ab\xff", 2, "invalid UTF-8 at byte offset 2 (0xff)"},
		{"\xe9t\xe9", 0, "invalid UTF-8 at byte offset 0 (0xe9)"},
		{"ok \xe2\x82", 3, "invalid UTF-8 at byte offset 3 (0xe2)"}, // a cut-off sequence
	}
	for _, tt := range tests {
		off := InvalidUTF8([]byte(tt.in))
		if off != tt.off {
			t.Errorf("InvalidUTF8(%q) = %d, want %d", tt.in, off, tt.off)
			continue
		}
		if off >= 0 {
			if got := UTF8Message([]byte(tt.in), off); got != tt.want {
				t.Errorf("UTF8Message(%q) = %q, want %q", tt.in, got, tt.want)
			}
		}
	}
}

// A line longer than the limit is an error with its number and length,
// read past without being held; the lines around it come through.
// Lengths are counted by hand from the input below.
func TestReaderMaxLine(t *testing.T) {
	long := strings.Repeat("x", 600<<10) // longer than the 256 KiB buffer
	in := "ab\n" + long + "\ncd\n" + "0123456789\n" + "e\n" + long
	r := NewReader(strings.NewReader(in))
	r.Name = "f.jsonl"
	r.SetMaxLine(8)
	type step struct {
		line string
		no   int
		size int64 // of a line too long, else 0
	}
	want := []step{{"ab", 1, 0}, {"", 2, 600 << 10}, {"cd", 3, 0}, {"", 4, 10}, {"e", 5, 0}, {"", 6, 600 << 10}}
	for _, w := range want {
		line, no, err := r.Next()
		if w.size > 0 {
			var tl *LineTooLongError
			if !errors.As(err, &tl) || tl.Line != w.no || tl.Size != w.size || tl.Max != 8 || no != w.no {
				t.Fatalf("line %d: got %q, %d, %v; want a LineTooLongError of %d bytes", w.no, line, no, err, w.size)
			}
			want := fmt.Sprintf("f.jsonl:%d: a record of %d bytes, longer than 8 bytes, the limit for one JSON Lines record (--max-record)", w.no, w.size)
			if err.Error() != want {
				t.Errorf("error %q, want %q", err, want)
			}
			continue
		}
		if err != nil || string(line) != w.line || no != w.no {
			t.Fatalf("got %q, %d, %v; want %q, %d", line, no, err, w.line, w.no)
		}
	}
	if _, _, err := r.Next(); err != io.EOF {
		t.Fatalf("at the end: %v, want io.EOF", err)
	}
	// Without a limit the long line comes whole.
	r = NewReader(strings.NewReader(long + "\n"))
	r.SetMaxLine(0)
	if line, _, err := r.Next(); err != nil || len(line) != len(long) {
		t.Fatalf("no limit: %d bytes, %v", len(line), err)
	}
}

// TestTooLong: the line-size error is found as it comes, wrapped or not,
// and nothing else is taken for it; a nil error costs no allocation.
func TestTooLong(t *testing.T) {
	tl := &LineTooLongError{Line: 3, Max: 10, Size: 11}
	for _, c := range []struct {
		err  error
		want *LineTooLongError
	}{
		{nil, nil},
		{tl, tl},
		{fmt.Errorf("x.jsonl: %w", tl), tl},
		{errors.New("line 3: other"), nil},
	} {
		if got := TooLong(c.err); got != c.want {
			t.Errorf("TooLong(%v) = %v, want %v", c.err, got, c.want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { TooLong(nil) }); n != 0 {
		t.Errorf("TooLong(nil) allocates %v times", n)
	}
}
