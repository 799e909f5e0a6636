package tokenize

import "unicode/utf8"

// Character classes of ASCII bytes for the estimate.
const (
	clsWord  = 1 << iota // [A-Za-z0-9_]: part of a word run
	clsHex               // [0-9A-Fa-f]
	clsSpace             // ASCII White_Space: \t \n \v \f \r and space
)

var asciiClass = func() (t [utf8.RuneSelf]uint8) {
	for c := 0; c < utf8.RuneSelf; c++ {
		switch {
		case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F', c >= '0' && c <= '9':
			t[c] = clsWord | clsHex
		case c >= 'g' && c <= 'z', c >= 'G' && c <= 'Z', c == '_':
			t[c] = clsWord
		case c == '\t', c == '\n', c == '\v', c == '\f', c == '\r', c == ' ':
			t[c] = clsSpace
		}
	}
	return t
}()

// EstimateTokens returns the estimate's count for s:
//
//	max(pieces + hexExtra, chars / 4)
//
// where chars is the number of code points (an invalid UTF-8 byte counts as
// one), a piece is a maximal run of ASCII letters, digits and underscores or
// any single other code point that is not Unicode White_Space (an invalid
// byte is a piece too), and hexExtra adds len/3 for every maximal run of
// ASCII hex digits [0-9A-Fa-f] at least 8 long, wherever it stands. All
// divisions are integer divisions.
func EstimateTokens(s string) int {
	p, chars := estimateParts(s)
	return max(p, chars/4)
}

// estimateParts returns the estimate's pieces + hexExtra and the number of
// code points of s: the two parts that add up over chunks cut at safe
// boundaries (see [SafeBoundary]).
func estimateParts(s string) (int, int) {
	pieces, hexExtra, chars, hexRun := 0, 0, 0, 0
	inWord := false
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			chars++
			i++
			cls := asciiClass[c]
			if cls&clsHex != 0 {
				hexRun++
			} else if hexRun != 0 {
				if hexRun >= 8 {
					hexExtra += hexRun / 3
				}
				hexRun = 0
			}
			if cls&clsWord != 0 {
				if !inWord {
					pieces++
					inWord = true
				}
				continue
			}
			inWord = false
			if cls&clsSpace == 0 {
				pieces++
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		chars++
		inWord = false
		if hexRun != 0 {
			if hexRun >= 8 {
				hexExtra += hexRun / 3
			}
			hexRun = 0
		}
		if !isSpaceNonASCII(r) { // an invalid byte decodes as U+FFFD: a piece
			pieces++
		}
	}
	if hexRun >= 8 {
		hexExtra += hexRun / 3
	}
	return pieces + hexExtra, chars
}

// isSpaceNonASCII is unicode.IsSpace for r ≥ U+0080, without its table
// search: the White_Space code points past ASCII are U+0085, U+00A0,
// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000
// (TestIsSpaceNonASCII checks every code point against unicode.IsSpace).
func isSpaceNonASCII(r rune) bool {
	switch {
	case r < 0x1680:
		return r == 0x85 || r == 0xA0
	case r < 0x2000:
		return r == 0x1680
	case r <= 0x200A:
		return true
	}
	return r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000
}
