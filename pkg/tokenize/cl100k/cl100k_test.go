package cl100k_test

import (
	"context"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	_ "github.com/harpe-dev/harpe/pkg/tokenize/cl100k"
)

// TestRegistered checks that importing the package is enough: the table is
// registered and encodes "Hello, world!" as tiktoken's cl100k_base does,
// tokens [9906 11 1917 0] (OpenAI's tiktoken README example).
func TestRegistered(t *testing.T) {
	if !tokenize.Cl100kBase.Registered() {
		t.Fatal("cl100k_base not registered")
	}
	c, err := tokenize.New("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := c.Count(context.Background(), "Hello, world!"); err != nil || got != 4 {
		t.Errorf("Count = %d, %v; want 4", got, err)
	}
	if got := tokenize.Cl100kBase.Encode("Hello, world!"); len(got) != 4 || got[0] != 9906 || got[1] != 11 || got[2] != 1917 || got[3] != 0 {
		t.Errorf("Encode = %v, want [9906 11 1917 0]", got)
	}
}
