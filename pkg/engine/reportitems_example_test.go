package engine_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// What --emit kept, dropped and rendered write: b (30 tokens) does not
// fit in the 10 − 4 = 6 tokens the pinned a leaves, c (3) does; the kept
// lines and the dropped one come back byte for byte, and the kept
// contents in input order with a blank line between them.
func ExampleReport_WriteLines() {
	items, _, err := engine.ReadItems(strings.NewReader(`{"id":"a","content":"first","pinned":true,"token_count":4}
{"id":"b","content":"second","token_count":30}
{"id":"c","content":"third","token_count":3}
`), "items.jsonl", engine.ReadOptions{DefaultPriority: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := engine.Synthesize(context.Background(), items, engine.Budget{Total: 10}, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("kept:")
	rep.WriteLines(os.Stdout, items, true)
	fmt.Println("dropped:")
	rep.WriteLines(os.Stdout, items, false)
	fmt.Println("rendered:")
	rep.WriteRendered(os.Stdout, items)
	// Output:
	// kept:
	// {"id":"a","content":"first","pinned":true,"token_count":4}
	// {"id":"c","content":"third","token_count":3}
	// dropped:
	// {"id":"b","content":"second","token_count":30}
	// rendered:
	// first
	//
	// third
}
