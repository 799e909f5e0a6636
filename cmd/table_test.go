package cmd

import (
	"bytes"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/table"
)

func TestEscapeControl(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "call-1", "call-1"},
		{"unicode stays", "café 日本 🙂", "café 日本 🙂"},
		{"backslash stays", `a\nb`, `a\nb`},
		{"title escape", "\x1b]0;pwned\x07\x1b[31m", `\x1b]0;pwned\x07\x1b[31m`},
		{"newline tab return", "a\nb\tc\rd", `a\nb\tc\rd`},
		{"nul and del", "a\x00b\x7f", `a\x00b\x7f`},
		{"C1 control", "a\u0085b\u009bc", `a\u0085b\u009bc`},
		{"bidi override", "abc\u202edef", `abc\u202edef`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"U+FFFD itself stays", "a\uFFFDb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := escapeControl(tt.in); got != tt.want {
				t.Errorf("escapeControl(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// No table harpe prints passes a control character through.
func TestTablesEscapeControlCharacters(t *testing.T) {
	var buf bytes.Buffer
	id := "\x1b]0;pwned\x07\x1b[31m"
	if err := renderTable(&buf, []string{"ID", "NOTE"}, [][]string{{id, "two\nlines"}}, []string{"total\x1b", ""}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, r := range out {
		if r < 0x20 && r != '\n' {
			t.Fatalf("control character %q in the table:\n%s", r, out)
		}
	}
	for _, want := range []string{`\x1b]0;pwned\x07\x1b[31m`, `two\nlines`, `total\x1b`} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestColumnWidths(t *testing.T) {
	path := "testdata/transcripts/claude-code/a-rather-long-session-name.jsonl" // 65 columns (wc -c)
	prose := strings.Repeat("word ", 20)                                        // 99 columns with the last space trimmed
	tests := []struct {
		name   string
		width  int
		header []string
		rows   [][]string
		want   []int
	}{
		// Natural widths fit: 4+2 + 3*2+1 = 13.
		{"fits", 80, []string{"id", "n"}, [][]string{{"abcd", "12"}}, []int{4, 2}},
		// 65 + 99 + 7 > 80: the path keeps its 65 columns (its longest
		// word) and the prose column takes the other 80-7-65 = 8.
		{"path kept whole", 80, []string{"FILE", "NOTE"}, [][]string{{path, strings.TrimSpace(prose)}}, []int{65, 8}},
		// A wider terminal: 120-7-65 = 48 for the prose.
		{"wider terminal", 120, []string{"FILE", "NOTE"}, [][]string{{path, strings.TrimSpace(prose)}}, []int{65, 48}},
		// Two 50-column ids cannot both fit in 80 (room 73): cap both at 36
		// (36+36 = 72 ≤ 73, 37+37 > 73).
		{"words that cannot fit are cut", 80, []string{"A", "B"},
			[][]string{{strings.Repeat("a", 50), strings.Repeat("b", 50)}}, []int{36, 36}},
	}
	// A 103-column path cannot fit in 80 and is cut, but the 27-column one
	// stays whole: room 80-16 = 64; the kept words are 27 (the short path),
	// 5, 8 ("(1.017x)"), 10 ("o200k_base"), 11 ("cl100k_base") = 61; then
	// the cap: 10 gives 27+5+10+10+11 = 63, 11 would give 65.
	long := "/tmp/everyday-deep/a-fairly-long-directory-name/another-long-directory-name/prose-in-english-sample.txt"
	tests = append(tests, struct {
		name   string
		width  int
		header []string
		rows   [][]string
		want   []int
	}{"a short path stays whole beside a long one", 80, []string{"FILE", "BYTES", "estimate", "o200k_base", "cl100k_base"},
		[][]string{{long, "1692", "423 (1.017x)", "410 (0.986x)", "416"}, {"testdata/tokens/code_go.txt", "1162", "368 (0.992x)", "371 (1.000x)", "371"}},
		[]int{27, 5, 10, 10, 11}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (table.Options{Width: tt.width}).Widths(tt.header, tt.rows, nil); !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRenderTableKeepsAPathWhole(t *testing.T) {
	path := "testdata/transcripts/claude-code/a-rather-long-session-name.jsonl"
	var buf bytes.Buffer
	err := table.Render(&buf, table.Options{Width: 80}, []string{"FILE", "NOTE"}, [][]string{{path, strings.Repeat("word ", 20)}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), path) {
		t.Errorf("path split:\n%s", buf.String())
	}
	for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
}

// BenchmarkRenderTable: a replay table of 2,000 calls, 7 columns.
func BenchmarkRenderTable(b *testing.B) {
	header := []string{"turn", "call", "messages", "chars", "tokens", "full", "note"}
	rows := make([][]string, 2000)
	for i := range rows {
		n := strconv.Itoa(i)
		rows[i] = []string{n, n, n + "/" + n, n + "0", n, n + "1", ""}
	}
	for b.Loop() {
		if err := renderTable(io.Discard, header, rows, nil); err != nil {
			b.Fatal(err)
		}
	}
}
