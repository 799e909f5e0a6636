// Package o200k holds the o200k_base table (3.7 MB) and registers it with package
// tokenize when imported, so that [tokenize.O200kBase] and tokenize.New("o200k_base")
// work:
//
//	import _ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
//
// The table is generated from pkoukk/tiktoken-go-loader's o200k_base.tiktoken
// by `go generate ./pkg/tokenize`.
package o200k

import (
	_ "embed"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

//go:embed o200k_base.bin
var table []byte

func init() {
	if err := tokenize.Register("o200k_base", table); err != nil {
		panic(err) // the embedded table is checked by this package's tests
	}
}
