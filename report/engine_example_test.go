package report_test

import (
	"context"
	"fmt"
	"os"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/report"
)

// A report for people. a is pinned (5 tokens); d is confidential and is
// withheld from a remote call before anything is counted ("-"); of the
// 12 − 5 = 7 tokens left, lowest_priority takes c (priority 1, 4 tokens)
// and then b (30) does not fit: 9 kept, 3 left. The rows come in input
// order, kept and dropped mixed.
func ExampleWriteSynthesisTable() {
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
	if err := report.WriteSynthesisTable(os.Stdout, rep, table.Options{}); err != nil {
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
