package termtext

import (
	"testing"
	"unicode/utf8"
)

// FuzzEscape: whatever the input, the escaped text is valid UTF-8
// with no control character, bidi control or U+FFFD from a bad byte, and
// text without any of those is left as it is.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]0;t\x07", "a\nb", "\xff\xfe", "\u202e", "caf\u00e9", "\u0085"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Escape(s)
		if !utf8.ValidString(got) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, got)
		}
		clean := utf8.ValidString(s)
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || isBidiControl(r) {
				t.Fatalf("Escape(%q) = %q keeps %U", s, got, r)
			}
		}
		for _, r := range s {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || isBidiControl(r) {
				clean = false
			}
		}
		if clean && got != s {
			t.Fatalf("Escape(%q) = %q: changed clean text", s, got)
		}
	})
}

// TestLines: each line is escaped, the line breaks between them stay.
func TestLines(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "a: no such file", "a: no such file"},
		{"an escape sequence in a path", "x\x1b[31m.jsonl: no such file", `x\x1b[31m.jsonl: no such file`},
		{"two lines", "a\x07\n  harpe b", "a\\x07\n  harpe b"},
		{"a carriage return", "a\rb", `a\rb`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Lines(tc.in); got != tc.want {
				t.Errorf("Lines(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
