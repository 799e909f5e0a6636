package tokenize

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// unescapeVector decodes the text column of testdata/token_vectors.tsv:
// \\ \t \n \r, and \u{HEX} for any code point; everything else is literal.
func unescapeVector(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) {
			return "", fmt.Errorf("lone backslash at the end")
		}
		i++
		switch s[i] {
		case '\\':
			b.WriteByte('\\')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'u':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 || i+1 >= len(s) || s[i+1] != '{' {
				return "", fmt.Errorf("bad \\u escape at byte %d", i)
			}
			cp, err := strconv.ParseUint(s[i+2:i+end], 16, 32)
			if err != nil {
				return "", fmt.Errorf("bad \\u escape at byte %d: %v", i, err)
			}
			b.WriteRune(rune(cp))
			i += end
		default:
			return "", fmt.Errorf("unknown escape \\%c", s[i])
		}
	}
	return b.String(), nil
}

type vector struct {
	line     int
	category string
	text     string
	want     map[string]int
}

func readVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("../../testdata/token_vectors.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var cols []string
	var vs []vector
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if n == 1 {
			cols = fields
			continue
		}
		if len(fields) != len(cols) {
			t.Fatalf("token_vectors.tsv:%d: %d fields, want %d", n, len(fields), len(cols))
		}
		v := vector{line: n, want: map[string]int{}}
		for i, c := range cols {
			switch c {
			case "category":
				v.category = fields[i]
			case "text":
				if v.text, err = unescapeVector(fields[i]); err != nil {
					t.Fatalf("token_vectors.tsv:%d: %v", n, err)
				}
			default:
				if v.want[c], err = strconv.Atoi(fields[i]); err != nil {
					t.Fatalf("token_vectors.tsv:%d: %s: %v", n, c, err)
				}
			}
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

// TestVectors checks every counter against testdata/token_vectors.tsv,
// whose exact columns come from npm tiktoken and whose estimate column
// comes from an independent implementation of the SPEC rule
// (scripts/token-vectors.mjs).
func TestVectors(t *testing.T) {
	vs := readVectors(t)
	if len(vs) < 208 {
		t.Errorf("%d vectors, want at least 208", len(vs))
	}
	cats := map[string]int{}
	for _, v := range vs {
		cats[v.category]++
		for _, name := range []string{"estimate", "o200k_base", "cl100k_base"} {
			want, ok := v.want[name]
			if !ok {
				t.Fatalf("token_vectors.tsv has no %s column", name)
			}
			c, _ := New(name)
			if got := countOf(c, v.text); got != want {
				t.Errorf("token_vectors.tsv:%d (%s) %q: %s = %d, want %d", v.line, v.category, v.text, name, got, want)
			}
		}
	}
	for _, c := range []string{"prose", "code", "json", "url", "cjk", "emoji", "hex", "accented", "whitespace", "mixed"} {
		if cats[c] < 10 {
			t.Errorf("category %s has %d vectors, want at least 10", c, cats[c])
		}
	}
}

// TestTokenSamples checks the longer samples in testdata/tokens/ against
// the counts npm tiktoken gave for them (testdata/tokens/counts.tsv).
func TestTokenSamples(t *testing.T) {
	data, err := os.ReadFile("../../testdata/tokens/counts.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	cols := strings.Split(lines[0], "\t")
	if len(lines) < 6 {
		t.Errorf("%d samples, want at least 5", len(lines)-1)
	}
	for _, line := range lines[1:] {
		fields := strings.Split(line, "\t")
		text, err := os.ReadFile(filepath.Join("../../testdata/tokens", fields[0]))
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cols {
			if i < 2 {
				continue
			}
			want, _ := strconv.Atoi(fields[i])
			counter, err := New(c)
			if err != nil {
				t.Fatal(err)
			}
			if got := countOf(counter, string(text)); got != want {
				t.Errorf("%s: %s = %d, want %d", fields[0], c, got, want)
			}
		}
	}
}

// The unescaping itself, by hand.
func TestUnescapeVector(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "abc", "abc"},
		{"controls", `a\tb\nc\rd`, "a\tb\nc\rd"},
		{"backslash", `C:\\dir`, `C:\dir`},
		{"codepoint", `x\u{200D}y\u{1F600}`, "x\u200dy😀"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := unescapeVector(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("unescapeVector(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	if _, err := unescapeVector(`\q`); err == nil {
		t.Error(`unescapeVector("\q") gave no error`)
	}
}
