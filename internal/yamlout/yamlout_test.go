package yamlout

import (
	"bytes"
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
