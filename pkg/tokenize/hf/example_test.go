package hf_test

import (
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
	fmt.Println(tok.Count("abc ab"), tok.Encode("abc ab"))
	// Output: 3 [5 3 4]
}
