package yamlout

import (
	"bytes"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	type inner struct {
		ID     string  `json:"id"`
		Tokens int     `json:"tokens"`
		Note   *string `json:"note"`
	}
	v := struct {
		Policy string   `json:"policy"`
		Flag   bool     `json:"over_budget"`
		Num    string   `json:"num"`
		Bool   string   `json:"bool"`
		Kept   []inner  `json:"kept"`
		Empty  []string `json:"empty"`
	}{"lowest_priority", false, "12", "true", []inner{{"sys", 9, nil}}, []string{}}
	var buf bytes.Buffer
	if err := Write(&buf, v); err != nil {
		t.Fatal(err)
	}
	// Worked by hand: block style, field order as in the JSON form, strings
	// that would read back as numbers or booleans quoted.
	want := `policy: lowest_priority
over_budget: false
num: "12"
bool: "true"
kept:
  - id: sys
    tokens: 9
    note: null
empty: []
`
	if buf.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), want)
	}
}

// Characters JSON leaves as they are but YAML's reader refuses (C1
// controls, DEL, U+FEFF) are written escaped instead of failing the
// report (issue 35 item 8). Expected: yaml.v3 writes a string with a
// character it cannot print as a double-quoted string with \x or \u.
func TestWriteUnreadable(t *testing.T) {
	var b strings.Builder
	if err := Write(&b, map[string]string{"id": "a\u009bb\u007fc\ufeffd\u0085e"}); err != nil {
		t.Fatal(err)
	}
	if want := "id: \"a\\x9Bb\\x7Fc\\uFEFFd\\Ne\"\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
