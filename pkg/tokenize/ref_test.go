package tokenize

import (
	"sync"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	loader "github.com/pkoukk/tiktoken-go-loader"
)

// The reference: pkoukk/tiktoken-go with its offline loader, loaded once.
var (
	refOnce sync.Once
	refEnc  map[string]*tiktoken.Tiktoken
)

func reference(t testing.TB, name string) *tiktoken.Tiktoken {
	t.Helper()
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(loader.NewOfflineLoader())
		refEnc = map[string]*tiktoken.Tiktoken{}
		for _, n := range []string{"o200k_base", "cl100k_base"} {
			enc, err := tiktoken.GetEncoding(n)
			if err != nil {
				panic(err)
			}
			refEnc[n] = enc
		}
	})
	return refEnc[name]
}

func refEncode(t testing.TB, name, s string) []int {
	return reference(t, name).EncodeOrdinary(s)
}
