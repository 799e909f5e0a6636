package tokenize_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	// The exact encodings' tables register themselves when imported.
	_ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
)

func Example() {
	for _, name := range []string{"estimate", "o200k_base", "cl100k_base"} {
		c, err := tokenize.New(name)
		if err != nil {
			panic(err)
		}
		n, err := c.Count(context.Background(), "Hello, world! It's 2026.")
		if err != nil {
			panic(err)
		}
		fmt.Println(name, n)
	}
	// Output:
	// estimate 9
	// o200k_base 9
	// cl100k_base 10
}

func ExampleEncoding_Encode() {
	ids := tokenize.O200kBase.Encode("Hello, world!")
	fmt.Println(ids, tokenize.O200kBase.Decode(ids))
	fmt.Printf("%q\n", tokenize.O200kBase.Pieces("  don't   stop\n\nnow"))
	// Output:
	// [13225 11 2375 0] Hello, world!
	// [" " " don't" "  " " stop" "\n\n" "now"]
}

func ExampleCountReader() {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 1000)
	n, counts, err := tokenize.CountReader(context.Background(), strings.NewReader(text),
		[]tokenize.Counter{tokenize.Estimate, tokenize.O200kBase},
		tokenize.StreamOptions{ChunkSize: 4096})
	fmt.Println(n, counts, err)
	// Output:
	// 45000 [11250 10000] <nil>
}

// A program that gets a table some other way (the browser playground
// fetches it) reads it with LoadEncoding into an encoding of its own;
// importing pkg/tokenize/o200k, as this file does, files the embedded copy
// for O200kBase and New.
func ExampleLoadEncoding() {
	fmt.Println(tokenize.O200kBase.Registered())
	_, err := tokenize.LoadEncoding("o200k_base", []byte("not a table"))
	fmt.Println(err)
	_, err = tokenize.LoadEncoding("p50k_base", nil)
	fmt.Println(err)
	// Output:
	// true
	// tokenize: o200k_base: not a table (bad header)
	// tokenize: no exact encoding "p50k_base"
}
