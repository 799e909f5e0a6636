// Package termtext makes text from files and their names safe to print on
// a terminal: what a terminal would act on (control characters, escape
// sequences, bidirectional overrides, bytes that are not UTF-8) is shown as
// visible escapes instead. Every path or file-borne string harpe prints on
// stderr, or in a plain-text report, goes through [Escape] or [Lines].
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Escape shows what a terminal would act on as visible text: C0 and
// C1 control characters and DEL as \n, \r, \t or \xHH (\u0085 for C1),
// the bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069)
// as \uHHHH, and a byte that is not UTF-8 as \xHH. Everything else,
// backslashes included, stays as it is.
func Escape(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError || isBidiControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f || isBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isBidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// Lines is [Escape] applied to each line of s: the line breaks between
// lines stay, for messages written on several lines on purpose.
func Lines(s string) string {
	if !strings.ContainsFunc(s, needsEscape) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

func needsEscape(r rune) bool {
	return r != '\n' && (r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == utf8.RuneError || isBidiControl(r))
}
