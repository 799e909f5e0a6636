package tokenize

import (
	"testing"

	loader "github.com/pkoukk/tiktoken-go-loader"
)

// TestTablesMatchLoader checks the generated tables against the .tiktoken
// files of pkoukk/tiktoken-go-loader, parsed by the loader itself: every
// token has its rank, every rank its token, and nothing else is there.
func TestTablesMatchLoader(t *testing.T) {
	for _, enc := range []*Encoding{O200kBase, Cl100kBase} {
		ranks, err := loader.NewOfflineLoader().LoadTiktokenBpe(enc.Name() + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		enc.setup()
		if n := len(enc.offs) - 1; n != len(ranks) {
			t.Errorf("%s: %d tokens, loader has %d", enc.Name(), n, len(ranks))
		}
		bad := 0
		for tok, r := range ranks {
			if got := enc.rank(tok); got != uint32(r) || enc.token(uint32(r)) != tok {
				bad++
				if bad < 5 {
					t.Errorf("%s: token %q: rank %d, want %d", enc.Name(), tok, got, r)
				}
			}
		}
		if enc.rank("no such token, surely") != noRank {
			t.Errorf("%s: a made-up string has a rank", enc.Name())
		}
	}
}
