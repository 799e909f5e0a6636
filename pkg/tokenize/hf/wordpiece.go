package hf

import (
	"fmt"
	"unicode/utf8"
)

// wordPiece is tokenizers' WordPiece model: the longest vocabulary entry
// at the start of the piece, then the longest entry with the
// continuing-subword prefix ("##") at each next place; a piece longer
// than max_input_chars_per_word characters, or with a place no entry
// fits, is the one unknown token.
type wordPiece struct {
	vocab    map[string]int32
	unk      int32
	prefix   string
	maxChars int
}

func parseWordPiece(m *modelJSON, byteLevel bool) (*wordPiece, error) {
	if byteLevel {
		return nil, fmt.Errorf("model WordPiece after a ByteLevel pre-tokenizer is not supported")
	}
	w := &wordPiece{prefix: "##", maxChars: 100}
	var err error
	if w.vocab, err = parseVocab(m.Vocab); err != nil {
		return nil, fmt.Errorf("model WordPiece: vocab: %v", err)
	}
	if m.ContinuingSubwordPrefix != nil {
		w.prefix = *m.ContinuingSubwordPrefix
	}
	if m.MaxInputCharsPerWord != nil {
		w.maxChars = *m.MaxInputCharsPerWord
		if w.maxChars > MaxWordChars {
			// The greedy longest match is quadratic in a word's length:
			// 1e9 took 12.6 s on 5 KB of text.
			return nil, fmt.Errorf("model WordPiece: max_input_chars_per_word %d is more than %d, harpe's limit", w.maxChars, MaxWordChars)
		}
	}
	unk := "[UNK]"
	if m.UnkToken != nil {
		unk = *m.UnkToken
	}
	id, ok := w.vocab[unk]
	if !ok {
		return nil, fmt.Errorf("model WordPiece: unk_token %q is not in the vocabulary", unk)
	}
	w.unk = id
	return w, nil
}

func (w *wordPiece) count(s string, _ bool, _ *scratch, ids *[]int) int {
	if s == "" {
		return 0
	}
	unk := func() int {
		if ids != nil {
			*ids = append(*ids, int(w.unk))
		}
		return 1
	}
	if utf8.RuneCountInString(s) > w.maxChars {
		return unk()
	}
	var found []int32
	for start := 0; start < len(s); {
		cur := int32(-1)
		end := len(s)
		for start < end {
			sub := s[start:end]
			if start > 0 {
				sub = w.prefix + sub
			}
			if id, ok := w.vocab[sub]; ok {
				cur = id
				break
			}
			_, n := utf8.DecodeLastRuneInString(s[start:end])
			end -= n
		}
		if cur < 0 {
			return unk()
		}
		found = append(found, cur)
		start = end
	}
	if ids != nil {
		for _, id := range found {
			*ids = append(*ids, int(id))
		}
	}
	return len(found)
}
