package tokenize

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// The pre-tokenizers. tiktoken splits text with a regular expression before
// byte-pair encoding each piece. These hand-written scanners match exactly
// what the backtracking patterns match, without backtracking:
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Alternatives are tried in order at each position (leftmost first), and
// every character matches one of them, so the pieces cover the text. \s is
// Unicode White_Space; letters, marks and numbers are the Unicode general
// categories of Go's unicode package.

// Character class bits of a code point.
const (
	bL     = 1 << iota // \p{L}
	bN                 // \p{N}
	bWS                // \s (White_Space)
	bNL                // \r or \n
	bUp                // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	bLo                // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	bMulti             // in byteCls: a byte that starts no ASCII code point
)

// byteCls holds the class bits of ASCII code points, and bMulti for the
// other bytes.
var byteCls = func() (t [256]uint8) {
	for c := range t {
		if c < utf8.RuneSelf {
			t[c] = slowCls(rune(c))
		} else {
			t[c] = bMulti
		}
	}
	return t
}()

func slowCls(r rune) uint8 {
	switch {
	case unicode.Is(unicode.Lu, r), unicode.Is(unicode.Lt, r):
		return bL | bUp
	case unicode.Is(unicode.Ll, r):
		return bL | bLo
	case unicode.Is(unicode.Lm, r), unicode.Is(unicode.Lo, r):
		return bL | bUp | bLo
	case unicode.Is(unicode.M, r):
		return bUp | bLo
	case unicode.Is(unicode.N, r):
		return bN
	case r == '\r' || r == '\n':
		return bWS | bNL
	case unicode.IsSpace(r):
		return bWS
	}
	return 0
}

// cls returns the class bits of the code point at s[i] and its size. s is
// valid UTF-8.
func cls(s string, i int) (uint8, int) {
	if c := byteCls[s[i]]; c != bMulti {
		return c, 1
	}
	return clsMulti(s, i)
}

// clsMulti is cls for a code point of more than one byte; apart so that
// cls inlines.
func clsMulti(s string, i int) (uint8, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	return runeCls(r), n
}

// Classes of the code points below clsCached come from tables of 256 code
// points each, filled on first use (a few microseconds each), so a text
// pays only for the scripts it uses; the others are looked up each time.
const clsCached = 0x30000

var clsBlocks [clsCached >> 8]atomic.Pointer[[256]uint8]

func runeCls(r rune) uint8 {
	if r >= clsCached {
		return slowCls(r)
	}
	b := clsBlocks[r>>8].Load()
	if b == nil {
		b = new([256]uint8)
		base := r &^ 0xff
		for k := range b {
			b[k] = slowCls(base + rune(k))
		}
		clsBlocks[r>>8].Store(b)
	}
	return b[r&0xff]
}

// isPunct reports whether class bits c are [^\s\p{L}\p{N}].
func isPunct(c uint8) bool { return c&(bL|bN|bWS) == 0 }

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at i, or i.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// punctRun returns the end of [^\s\p{L}\p{N}]+[\r\n]* (cl100k_base) or
// [^\s\p{L}\p{N}]+[\r\n/]* (o200k_base, slash true) starting at i, where
// s[i] is known to be in the first class.
func punctRun(s string, i int, slash bool) int {
	for i < len(s) {
		c, n := byteCls[s[i]], 1
		if c == bMulti {
			c, n = clsMulti(s, i)
		}
		if !isPunct(c) {
			break
		}
		i += n
	}
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || slash && s[i] == '/') {
		i++
	}
	return i
}

// spaceRun returns the end of the piece \s*[\r\n]+|\s+(?!\S)|\s+ starting
// at i, where s[i] is white space:
//   - if the run of white space holds \r or \n, the piece ends just after
//     the last of them (\s* backtracks to it);
//   - else at the end of the text the whole run is one piece;
//   - else the run leaves its last character to the next piece, unless it
//     is a single character.
func spaceRun(s string, i int) int {
	j, lastNL, last := i, -1, i
	for j < len(s) {
		c, n := byteCls[s[j]], 1
		if c == bMulti {
			c, n = clsMulti(s, j)
		}
		if c&bWS == 0 {
			break
		}
		if c&bNL != 0 {
			lastNL = j + 1
		}
		last = j
		j += n
	}
	switch {
	case lastNL >= 0:
		return lastNL
	case j == len(s):
		return j
	case last > i:
		return last
	}
	return j
}

// nextCl100k returns the end of the cl100k_base piece starting at i.
func nextCl100k(s string, i int) int {
	if e := contraction(s, i); e > i {
		return e
	}
	c, n := byteCls[s[i]], 1
	if c == bMulti {
		c, n = clsMulti(s, i)
	}
	j := i + n
	if c&(bL|bN|bNL) == 0 && j < len(s) {
		// [^\r\n\p{L}\p{N}]\p{L}+
		if c2, _ := cls(s, j); c2&bL != 0 {
			return letterRun(s, j)
		}
	}
	switch {
	case c&bL != 0:
		return letterRun(s, i)
	case c&bN != 0:
		return digits(s, i)
	case s[i] == ' ' && j < len(s):
		if c2, _ := cls(s, j); isPunct(c2) {
			return punctRun(s, j, false)
		}
	case isPunct(c):
		return punctRun(s, i, false)
	}
	return spaceRun(s, i)
}

// letterRun returns the end of \p{L}+ starting at i (s[i] is a letter).
func letterRun(s string, i int) int {
	for i < len(s) {
		c, n := byteCls[s[i]], 1
		if c == bMulti {
			c, n = clsMulti(s, i)
		}
		if c&bL == 0 {
			break
		}
		i += n
	}
	return i
}

// digits returns the end of \p{N}{1,3} starting at i (s[i] is a number).
func digits(s string, i int) int {
	for k := 0; k < 3 && i < len(s); k++ {
		c, n := byteCls[s[i]], 1
		if c == bMulti {
			c, n = clsMulti(s, i)
		}
		if c&bN == 0 {
			break
		}
		i += n
	}
	return i
}

// nextO200k returns the end of the o200k_base piece starting at i.
func nextO200k(s string, i int) int {
	c, n := byteCls[s[i]], 1
	if c == bMulti {
		c, n = clsMulti(s, i)
	}
	j := i + n
	switch {
	case c&bL != 0:
		// Without the optional prefix one of the two letter alternatives
		// always matches at a letter.
		return words(s, i)
	case c&(bN|bNL) == 0:
		// The optional [^\r\n\p{L}\p{N}] prefix: first with it, then
		// without (which can only match when s[i] is a mark).
		if e := words(s, j); e > j {
			return e
		}
		if c&bUp != 0 {
			return words(s, i)
		}
	case c&bN != 0:
		return digits(s, i)
	}
	if s[i] == ' ' && j < len(s) {
		if c2, _ := cls(s, j); isPunct(c2) {
			return punctRun(s, j, true)
		}
	}
	if isPunct(c) {
		return punctRun(s, i, true)
	}
	return spaceRun(s, i)
}

// words returns the end of the o200k letter alternatives at i:
//
//	[Up]*[Lo]+(contraction)?  else  [Up]+[Lo]*(contraction)?
//
// where Up = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and Lo =
// [\p{Ll}\p{Lm}\p{Lo}\p{M}]; it returns i when neither matches. Greedy
// [Up]* backtracks to the last place where [Lo]+ can start: the character
// after the run if it is in Lo (then [Lo]+ runs on), else the last
// character inside the run that is also in Lo (then [Lo]+ takes just it,
// since what follows in the run is Lu or Lt).
func words(s string, i int) int {
	u, lastLoEnd := i, -1
	for u < len(s) {
		c, n := byteCls[s[u]], 1
		if c == bMulti {
			c, n = clsMulti(s, u)
		}
		if c&bUp == 0 {
			break
		}
		u += n
		if c&bLo != 0 {
			lastLoEnd = u
		}
	}
	if u < len(s) {
		if c, _ := cls(s, u); c&bLo != 0 {
			v := u
			for v < len(s) {
				c, n := byteCls[s[v]], 1
				if c == bMulti {
					c, n = clsMulti(s, v)
				}
				if c&bLo == 0 {
					break
				}
				v += n
			}
			return contraction(s, v)
		}
	}
	if lastLoEnd >= 0 {
		return contraction(s, lastLoEnd)
	}
	if u > i {
		// [Up]+ then [Lo]* (empty: s[u] is not in Lo).
		return contraction(s, u)
	}
	return i
}
