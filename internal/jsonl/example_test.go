package jsonl_test

import (
	"encoding/json"
	"fmt"

	"github.com/harpe-dev/harpe/internal/jsonl"
)

// A hand decoder picks two fields out of a line and skips the rest; when
// the parser fails, encoding/json decodes the line and gives the error.
func ExampleParser() {
	for _, line := range []string{
		`{"type":"user","big":{"skipped":[1,2,3]},"n":42}`,
		`{"type":"user","n":"42"}`,
	} {
		var rec struct {
			Type string `json:"type"`
			N    int    `json:"n"`
		}
		p := jsonl.NewParser([]byte(line))
		p.Object(func(key []byte) {
			switch string(key) {
			case "type":
				rec.Type = p.String()
			case "n":
				rec.N = p.Int()
			default:
				p.Skip()
			}
		})
		if p.End() {
			fmt.Println("by hand:", rec.Type, rec.N)
			continue
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			fmt.Println("encoding/json:", err)
		}
	}
	// Output:
	// by hand: user 42
	// encoding/json: json: cannot unmarshal string into Go struct field .n of type int
}
