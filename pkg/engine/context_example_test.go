package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// A command reads and selects under a context that a signal cancels ("hello"
// is one estimated token: one piece, 5 code points);
// once it is, the work stops with the context's error.
func ExampleSynthesize_cancel() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	if err := rd.Read(ctx, strings.NewReader(`{"content":"hello"}`+"\n"), "items.jsonl"); err != nil {
		fmt.Println(err)
		return
	}
	rep, err := engine.Synthesize(ctx, rd.Items(), engine.Budget{Total: 100}, engine.Options{})
	fmt.Println(rep.ConsumedTokens, err)

	cancel() // as a SIGINT handler would
	_, err = engine.Synthesize(ctx, rd.Items(), engine.Budget{Total: 100}, engine.Options{})
	fmt.Println(errors.Is(err, context.Canceled))
	// Output:
	// 1 <nil>
	// true
}

// ReadEach hands over every line, so a command can write the input back
// with every other byte as it came in: here a blank line and a byte order
// mark survive, and each item gets a note of its id.
func ExampleItemReader_ReadEach() {
	in := "\xef\xbb\xbf{\"content\":\"a\"}\n\n{\"id\":\"x\",\"content\":\"b\"}\n"
	rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	err := rd.ReadEach(context.Background(), strings.NewReader(in), "items.jsonl", func(l engine.Line) error {
		switch {
		case l.Item == nil:
			fmt.Printf("line %d: blank %q\n", l.No, l.Raw)
		default:
			fmt.Printf("line %d: item %s, BOM %v\n", l.No, l.Item.ID, l.BOM)
		}
		return nil
	})
	fmt.Println(err)
	// Output:
	// line 1: item L1, BOM true
	// line 2: blank ""
	// line 3: item x, BOM false
	// <nil>
}

// Token sums are checked: a total past the largest int is an error, not a
// negative number.
func ExampleAddTokens() {
	total, err := engine.AddTokens(1<<62, 1<<62, "the items' token counts")
	fmt.Println(total, err)
	// Output:
	// 0 the items' token counts add up to more than 9223372036854775807 tokens
}

// A cell limit whose table would not fit in memory is refused up front.
func ExampleCheckDPCells() {
	fmt.Println(engine.CheckDPCells(engine.DefaultDPCells))
	fmt.Println(engine.CheckDPCells(1 << 40))
	// Output:
	// <nil>
	// 1099511627776 cells would let the exact table take up to 12 TiB of memory; the most is 67108864 (768 MiB)
}
