// Package cl100k holds the cl100k_base table (2.1 MB) and registers it with package
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
	"github.com/harpe-dev/harpe/pkg/tokenize/internal/bpetable"
)

//go:embed cl100k_base.bin
var table []byte

// The table is filed for package tokenize, which checks it on first use
// (this package's tests check it too); the blank use of tokenize keeps the
// dependency that makes tokenize.Cl100kBase and tokenize.New work.
var _ = tokenize.Cl100kBase

func init() { bpetable.Embed("cl100k_base", table) }
