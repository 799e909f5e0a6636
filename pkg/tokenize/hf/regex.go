package hf

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Patterns. tokenizers runs the patterns of a tokenizer.json with
// Oniguruma, where \s, \w and \d are Unicode classes; Go's regexp (RE2)
// has them ASCII-only, so they are rewritten into Unicode classes before
// compiling:
//
//	\s  [\t-\r\x{85}\p{Z}]         (White_Space)
//	\d  \p{Nd}
//	\w  [\p{L}\p{M}\p{N}\p{Pc}]
//
// RE2 has no look-around. The one look-ahead the common files use is the
// pair of alternatives \s+(?!\S)|\s+ at the end of a pattern: a run of white
// space followed by something else leaves its last character to the next
// piece (which may then be " word"), and is taken whole at the end of the
// text. harpe compiles \s+ in its place, inside a group, and shortens the
// run by one character when that group matched and the text goes on.
// Other look-around, possessive quantifiers and atomic groups do not
// compile and are an error. The patterns that a hand-written scanner in
// package tokenize matches (Llama 3's, Qwen's, gpt-oss's) use it instead:
// it is several times faster.

const (
	reSpace    = `\t-\r\x{85}\p{Z}`
	reWord     = `\p{L}\p{M}\p{N}\p{Pc}`
	lookAheadS = `\s+(?!\S)`
)

type regex struct {
	src   string
	re    *regexp.Regexp
	known func(s string, i int) int
	// ws is the index of the group standing for \s+(?!\S), or 0.
	ws int
}

func compileRegex(src string) (*regex, error) {
	if next, ok := tokenize.KnownSplit(src); ok {
		return &regex{src: src, known: next}, nil
	}
	return compileRE2(src)
}

// compileRE2 compiles src with Go's regexp (see above), refusing a
// pattern that would split in quadratic time (checkLinear).
func compileRE2(src string) (*regex, error) {
	alts := topAlternatives(src)
	ws := 0
	for k, a := range alts {
		if a == lookAheadS {
			if k != len(alts)-2 || alts[k+1] != `\s+` {
				return nil, fmt.Errorf("pattern %q: %s is supported only as the last alternative but one, before \\s+", src, lookAheadS)
			}
			if a := anchor(src); a != "" {
				return nil, fmt.Errorf("pattern %q: %s together with the anchor %s is not supported", src, lookAheadS, a)
			}
			alts[k] = `(\s+)`
			ws = 1
		}
	}
	if ws > 0 {
		// Make every other group non-capturing, so the group index is 1.
		for k, a := range alts {
			if a != `(\s+)` {
				alts[k] = nonCapturing(a)
			}
		}
	}
	tr, err := translate(strings.Join(alts, "|"))
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %v", src, err)
	}
	re, err := regexp.Compile(tr)
	if err != nil {
		return nil, fmt.Errorf("pattern %q does not compile with Go's RE2 (look-around, possessive quantifiers and atomic groups are not supported): %v", src, err)
	}
	r := &regex{src: src, re: re, ws: ws}
	if err := r.checkLinear(src, tr); err != nil {
		return nil, err
	}
	return r, nil
}

// anchor returns the first anchor outside a character class in p (^, $,
// \b, \B, \A, \z, \Z, \G), or "".
func anchor(p string) string {
	class := false
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\' && i+1 < len(p):
			i++
			if !class && strings.IndexByte("bBAzZG", p[i]) >= 0 {
				return p[i-1 : i+1]
			}
		case class:
			class = c != ']'
		case c == '[':
			class = true
			if i+1 < len(p) && p[i+1] == '^' {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++
			}
		case c == '^' || c == '$':
			return p[i : i+1]
		}
	}
	return ""
}

// topAlternatives splits a pattern at the | that are outside groups and
// classes.
func topAlternatives(p string) []string {
	var out []string
	depth, class, start := 0, false, 0
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case class:
			if c == ']' {
				class = false
			}
		case c == '[':
			class = true
			if i+1 < len(p) && p[i+1] == ']' || i+2 < len(p) && p[i+1] == '^' && p[i+2] == ']' {
				i += strings.IndexByte(p[i+1:], ']') + 1
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == '|' && depth == 0:
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return append(out, p[start:])
}

// nonCapturing turns the capturing groups of p into non-capturing ones.
func nonCapturing(p string) string {
	var b strings.Builder
	class := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			i++
			c = p[i]
		case class:
			class = c != ']'
		case c == '[':
			class = true
		case c == '(' && (i+1 >= len(p) || p[i+1] != '?'):
			b.WriteString("(?:")
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// translate rewrites Oniguruma's Unicode \s \S \d \D \w \W and \uHHHH
// into RE2 syntax.
func translate(p string) (string, error) {
	var b strings.Builder
	class := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c != '\\' || i+1 >= len(p) {
			switch {
			case class && c == ']':
				class = false
			case !class && c == '[':
				class = true
				b.WriteByte(c)
				if i+1 < len(p) && p[i+1] == '^' {
					b.WriteByte('^')
					i++
				}
				if i+1 < len(p) && p[i+1] == ']' {
					b.WriteString(`\]`)
					i++
				}
				continue
			}
			b.WriteByte(c)
			continue
		}
		i++
		e := p[i]
		switch {
		case e == 's' && class:
			b.WriteString(reSpace)
		case e == 's':
			b.WriteString("[" + reSpace + "]")
		case e == 'S' && !class:
			b.WriteString("[^" + reSpace + "]")
		case e == 'd':
			b.WriteString(`\p{Nd}`)
		case e == 'D':
			b.WriteString(`\P{Nd}`)
		case e == 'w' && class:
			b.WriteString(reWord)
		case e == 'w':
			b.WriteString("[" + reWord + "]")
		case e == 'W' && !class:
			b.WriteString("[^" + reWord + "]")
		case e == 'S' || e == 'W':
			return "", fmt.Errorf(`\%c inside a character class is not supported`, e)
		case e == 'u' && i+4 < len(p):
			b.WriteString(`\x{` + p[i+1:i+5] + `}`)
			i += 4
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// matches calls f with the start and end of each match in s, in order.
func (r *regex) matches(s string, f func(start, end int)) {
	r.each(s, func(start, end int) bool { f(start, end); return true })
}

// each calls f with the start and end of each match in s, in order, until
// f returns false.
func (r *regex) each(s string, f func(start, end int) bool) {
	if s == "" {
		return
	}
	if r.known != nil {
		for i := 0; i < len(s); {
			j := r.known(s, i)
			if !f(i, j) {
				return
			}
			i = j
		}
		return
	}
	if r.ws == 0 {
		for _, m := range r.re.FindAllStringIndex(s, -1) {
			if !f(m[0], m[1]) {
				return
			}
		}
		return
	}
	for pos := 0; pos <= len(s); {
		m := r.re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			return
		}
		start, end := pos+m[0], pos+m[1]
		if m[2*r.ws] >= 0 && end < len(s) {
			// \s+ followed by more text: \s+(?!\S) leaves the last
			// character, or fails on a run of one (and the final \s+
			// takes that one character).
			_, n := utf8.DecodeLastRuneInString(s[start:end])
			if end-n > start {
				end -= n
			}
		}
		if !f(start, end) {
			return
		}
		if end == start {
			// An empty match: step over one character, as the
			// iteration of every engine does.
			if end >= len(s) {
				return
			}
			_, n := utf8.DecodeRuneInString(s[end:])
			end += n
		}
		pos = end
	}
}
