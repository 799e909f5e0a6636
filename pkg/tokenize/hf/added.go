package hf

import (
	"unicode"
	"unicode/utf8"
)

// Added tokens. tokenizers finds them before anything else: the ones with
// normalized false in the raw text, the others in each normalized part
// between those, leftmost first and longest at a place, and encodes each
// as its one id, special or not (without special tokens added means that
// the post-processor's are not added; special tokens in the text are still
// found). lstrip and rstrip take in the white space on that side;
// single_word skips a match that has a letter or digit right next to it.
type addedTokens struct {
	t    *trie
	toks []addedToken
}

type addedToken struct {
	id                         int32
	lstrip, rstrip, singleWord bool
}

func (a *addedTokens) add(content string, tok addedToken) {
	if a.t == nil {
		a.t = newTrie()
	}
	a.t.add(content, int32(len(a.toks)))
	a.toks = append(a.toks, tok)
}

// each calls token for every added token found in s, in order, and text
// for the parts between them with whether the part starts s.
func (a *addedTokens) each(s string, token func(id int32), text func(part string, first bool)) {
	if a == nil || a.t == nil {
		text(s, true)
		return
	}
	startOffset := 0
	for i := 0; i < len(s); {
		end, v := a.t.longest(s, i)
		if v < 0 {
			i++
			continue
		}
		tok := a.toks[v]
		start, stop := i, end
		i = end
		if tok.singleWord {
			before := start == 0 || !endsWithWord(s[:start])
			after := stop == len(s) || !startsWithWord(s[stop:])
			if !before || !after {
				continue
			}
		}
		if tok.lstrip {
			k := start
			for k > 0 {
				r, n := utf8.DecodeLastRuneInString(s[:k])
				if !isWhitespace(r) {
					break
				}
				k -= n
			}
			start = max(k, startOffset)
		}
		if tok.rstrip {
			for stop < len(s) {
				r, n := utf8.DecodeRuneInString(s[stop:])
				if !isWhitespace(r) {
					break
				}
				stop += n
			}
		}
		if startOffset < start {
			text(s[startOffset:start], startOffset == 0)
		}
		token(tok.id)
		startOffset = stop
	}
	if startOffset < len(s) || len(s) == 0 {
		text(s[startOffset:], startOffset == 0)
	}
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

func endsWithWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && isAlnum(r)
}

func startsWithWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && isAlnum(r)
}
