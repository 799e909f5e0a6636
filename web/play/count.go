package play

import (
	"context"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// CountArgs are the arguments of "count".
type CountArgs struct {
	Text string `json:"text"`
	// Tokenizers to count with; empty means all of [tokenize.Names].
	Tokenizers []string `json:"tokenizers"`
}

// CountResult is the answer of "count": the text's size and one count per
// tokenizer, in the order asked.
type CountResult struct {
	Bytes  int          `json:"bytes"`
	Chars  int          `json:"chars"`
	Counts []TokenCount `json:"counts"`
}

// TokenCount is one tokenizer's count. Error is set instead of Tokens when
// the tokenizer is unknown or its table is not loaded yet, so the other
// counts still show.
type TokenCount struct {
	Tokenizer string `json:"tokenizer"`
	Tokens    *int   `json:"tokens,omitempty"`
	Error     string `json:"error,omitempty"`
}

func count(raw []byte) (any, error) {
	var a CountArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return Count(a), nil
}

// Count counts the text with each tokenizer, as `harpe count` does.
func Count(a CountArgs) *CountResult {
	names := a.Tokenizers
	if len(names) == 0 {
		names = tokenize.Names()
	}
	out := &CountResult{Bytes: len(a.Text), Chars: utf8.RuneCountInString(a.Text), Counts: make([]TokenCount, 0, len(names))}
	for _, n := range names {
		c, err := counter(n)
		if err != nil {
			out.Counts = append(out.Counts, TokenCount{Tokenizer: n, Error: err.Error()})
			continue
		}
		k, err := c.Count(context.Background(), a.Text)
		if err != nil { // not when the context is never done
			out.Counts = append(out.Counts, TokenCount{Tokenizer: n, Error: err.Error()})
			continue
		}
		out.Counts = append(out.Counts, TokenCount{Tokenizer: n, Tokens: &k})
	}
	return out
}
