package hf_test

import (
	"context"
	"fmt"

	"github.com/harpe-dev/harpe/pkg/tokenize/hf"
)

func ExampleLoad() {
	// testdata/bytelevel.json is a small ByteLevel BPE: "abc ab" is abc,
	// Ġ, ab.
	tok, err := hf.Load("testdata/bytelevel.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	n, err := tok.Count(context.Background(), "abc ab")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(n, tok.Encode("abc ab"))
	// Output: 3 [5 3 4]
}
