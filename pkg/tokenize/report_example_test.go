package tokenize_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// A report of two files counted by two counters: each count but the
// last is shown with its ratio to the last (12/10 = 1.2, 30/25 = 1.2,
// and 42/35 = 1.2 for the total).
func ExampleReport() {
	rep := tokenize.Report{
		Counters: []string{"estimate", "o200k_base"},
		Files: []tokenize.FileCount{
			{Name: "a.md", Bytes: 40, Counts: []int{12, 10}},
			{Name: "b.md", Bytes: 100, Counts: []int{30, 25}},
		},
	}
	rep.WriteText(os.Stdout, false)
	one := tokenize.Report{Counters: []string{"estimate"}, Files: []tokenize.FileCount{{Name: "a.md", Bytes: 40, Counts: []int{12}}}}
	b, _ := json.Marshal(one)
	fmt.Println(string(b))
	// Output:
	// estimate=12 (1.200x) o200k_base=10 a.md
	// estimate=30 (1.200x) o200k_base=25 b.md
	// estimate=42 (1.200x) o200k_base=35 total
	// {"tokenizer":"estimate","files":[{"file":"a.md","bytes":40,"tokens":12}],"total":12}
}
