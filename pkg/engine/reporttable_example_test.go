package engine_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// A report for people. a is pinned (5 tokens); d is confidential and is
// withheld from a remote call before anything is counted ("-"); of the
// 12 − 5 = 7 tokens left, lowest_priority takes c (priority 1, 4 tokens)
// and then b (30) does not fit: 9 kept, 3 left. The rows come in input
// order, kept and dropped mixed.
func ExampleReport_WriteTable() {
	n := func(v int) *int { return &v }
	items := []engine.Item{
		{ID: "a", Priority: 5, Pinned: true, TokenCount: n(5)},
		{ID: "b", Priority: 20, TokenCount: n(30)},
		{ID: "c", Priority: 1, TokenCount: n(4)},
		{ID: "d", Priority: 2, TokenCount: n(7), Confidential: true},
	}
	rep, err := engine.Synthesize(context.Background(), items, engine.Budget{Total: 12},
		engine.Options{Policy: engine.PolicyLowestPriority, Destination: engine.DestinationRemote})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := rep.WriteTable(os.Stdout, engine.TableOptions{}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// +-------+--------+----------+---------+--------------+
	// | ID    | TOKENS | PRIORITY | STATUS  | REASON       |
	// +-------+--------+----------+---------+--------------+
	// | a     | 5      | 5        | kept    | pinned       |
	// | b     | 30     | 20       | dropped | did_not_fit  |
	// | c     | 4      | 1        | kept    | selected     |
	// | d     | -      | 2        | dropped | confidential |
	// +-------+--------+----------+---------+--------------+
	// | total | 9      |          | 2 kept  | 3 left       |
	// +-------+--------+----------+---------+--------------+
}

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
