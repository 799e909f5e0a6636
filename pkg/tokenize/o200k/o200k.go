// Package o200k holds the o200k_base table (4.3 MB) and registers it with package
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
	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
)

//go:embed o200k_base.bin
var table []byte

// The table is filed for package tokenize, which checks it on first use
// (this package's tests check it too); the blank use of tokenize keeps the
// dependency that makes tokenize.O200kBase and tokenize.New work.
var _ = tokenize.O200kBase

func init() { bpetable.Embed("o200k_base", table) }
