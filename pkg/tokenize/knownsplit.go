package tokenize

// Split patterns that the hand-written scanners match, as the
// tokenizer.json files of open models spell them: Llama 3 uses
// cl100k_base's, gpt-oss o200k_base's, Qwen 2 and 3 cl100k_base's with
// single digits (\p{N} for \p{N}{1,3}).
const (
	patternCl100k = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patternQwen   = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`
	patternO200k  = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`
)

// KnownSplit returns a scanner for a split pattern that one of the
// hand-written scanners matches exactly, and false for any other pattern.
// The scanner returns the end of the piece that starts at byte i of s
// (i < len(s)); s must be valid UTF-8. Every byte belongs to a piece, so
// calling it from 0 to the end covers s.
func KnownSplit(pattern string) (func(s string, i int) int, bool) {
	switch pattern {
	case patternCl100k:
		return nextCl100k, true
	case patternO200k:
		return nextO200k, true
	case patternQwen:
		return nextQwen, true
	}
	return nil, false
}

// nextQwen is nextCl100k with \p{N} for \p{N}{1,3}: at a number the piece
// is that one character, and no other alternative takes a number.
func nextQwen(s string, i int) int {
	if c, n := cls(s, i); c&bN != 0 {
		return i + n
	}
	return nextCl100k(s, i)
}
