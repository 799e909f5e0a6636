package o200k_test

import (
	"context"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/o200k"
)

// TestRegistered checks that importing the package is enough: the table is
// registered and counts "Hello, world!" as tiktoken does, tokens
// [13225 11 2375 0] (tiktoken's o200k_base, as in pkg/tokenize's example).
func TestRegistered(t *testing.T) {
	if !tokenize.O200kBase.Registered() {
		t.Fatal("o200k_base not registered")
	}
	c, err := tokenize.New("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Count(context.Background(), "Hello, world!"); err != nil || got != 4 {
		t.Errorf("Count = %d, %v; want 4", got, err)
	}
	if got := tokenize.O200kBase.Encode("Hello, world!"); len(got) != 4 || got[0] != 13225 || got[1] != 11 || got[2] != 2375 || got[3] != 0 {
		t.Errorf("Encode = %v, want [13225 11 2375 0]", got)
	}
}
