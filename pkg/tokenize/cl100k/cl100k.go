// Package cl100k holds the cl100k_base table (1.8 MB) and registers it with package
// tokenize when imported, so that [tokenize.Cl100kBase] and tokenize.New("cl100k_base")
// work:
//
//	import _ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
//
// The table is generated from pkoukk/tiktoken-go-loader's cl100k_base.tiktoken
// by `go generate ./pkg/tokenize`.
package cl100k

import (
	_ "embed"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

//go:embed cl100k_base.bin
var table []byte

func init() {
	if err := tokenize.Register("cl100k_base", table); err != nil {
		panic(err) // the embedded table is checked by this package's tests
	}
}
