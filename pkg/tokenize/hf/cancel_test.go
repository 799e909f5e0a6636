package hf

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// countOf is c's count of s with a context that is never done, which
// gives no error.
func countOf(c tokenize.Counter, s string) int {
	n, err := c.Count(context.Background(), s)
	if err != nil {
		panic(err)
	}
	return n
}

// TestCountCancelled: a cancelled context stops Count with its error and
// no count, for a short text (looked at before counting) as for a long
// one; an open one changes nothing ("abc ab" is abc, Ġ, ab: 3 tokens).
func TestCountCancelled(t *testing.T) {
	tok, err := Load("testdata/bytelevel.json")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if n, err := tok.Count(ctx, "abc ab"); err != nil || n != 3 {
		t.Errorf("open context: got %d, %v; want 3, nil", n, err)
	}
	cancel()
	for _, text := range []string{"abc ab", strings.Repeat("abc ab ", 10000)} {
		if n, err := tok.Count(ctx, text); !errors.Is(err, context.Canceled) || n != 0 {
			t.Errorf("%d bytes: got %d, %v; want 0, context.Canceled", len(text), n, err)
		}
	}
}
