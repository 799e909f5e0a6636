package tokenize_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// CountReader counts a stream until it ends or the context is done;
// a cancelled count gives the context's error and no counts.
func ExampleCountReader_cancel() {
	ctx, cancel := context.WithCancel(context.Background())
	n, counts, err := tokenize.CountReader(ctx, strings.NewReader("Hello, world!"),
		[]tokenize.Counter{tokenize.O200kBase}, tokenize.StreamOptions{})
	fmt.Println(n, counts, err)
	cancel()
	_, counts, err = tokenize.CountReader(ctx, strings.NewReader("Hello, world!"),
		[]tokenize.Counter{tokenize.O200kBase}, tokenize.StreamOptions{})
	fmt.Println(counts, err)
	// Output:
	// 13 [4] <nil>
	// [] context canceled
}
