package engine_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
)

// Rewrite writes the input back line for line: the blank line as it
// was, each item's line as the edit makes it.
func ExampleItemReader_Rewrite() {
	in := "\xef\xbb\xbf{\"id\":\"a\",\"content\":\"hi\"}\n\n{\"id\":\"b\",\"content\":\"yo\"}\n"
	rd := engine.NewItemReader(engine.ReadOptions{})
	var out bytes.Buffer
	err := rd.Rewrite(context.Background(), strings.NewReader(in), "in.jsonl", &out, func(l engine.Line) ([]byte, error) {
		return []byte(strings.ToUpper(string(l.Raw))), nil
	})
	fmt.Printf("%q %v\n", out.String(), err)
	// Output:
	// "\ufeff{\"ID\":\"A\",\"CONTENT\":\"HI\"}\n\n{\"ID\":\"B\",\"CONTENT\":\"YO\"}\n" <nil>
}
