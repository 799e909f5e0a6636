package hf

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// A piece is a part of the text that the model encodes on its own. first
// is set when it starts at the start of the text (Metaspace's "first"
// prepend scheme asks).
type piece struct {
	s     string
	first bool
}

// A preTokenizer splits each piece into smaller ones.
type preTokenizer interface {
	split(in []piece, out []piece) []piece
}

// Split behaviours: what becomes of the matches (the delimiters).
type behavior int

const (
	removed behavior = iota
	isolated
	mergedWithPrevious
	mergedWithNext
	contiguous
)

func parseBehavior(s, what string) (behavior, error) {
	switch s {
	case "Removed":
		return removed, nil
	case "Isolated":
		return isolated, nil
	case "MergedWithPrevious":
		return mergedWithPrevious, nil
	case "MergedWithNext":
		return mergedWithNext, nil
	case "Contiguous":
		return contiguous, nil
	}
	return 0, fmt.Errorf("%s: unknown behavior %q (valid: Removed, Isolated, MergedWithPrevious, MergedWithNext, Contiguous)", what, s)
}

// segment is a part of a piece and whether the pattern matched it.
type segment struct {
	start, end int
	match      bool
}

// splitter cuts pieces where a pattern matches, as tokenizers'
// NormalizedString::split does.
type splitter struct {
	find     func(s string, f func(start, end int))
	behavior behavior
	invert   bool
	known    bool // find is a hand-written scanner of package tokenize
}

func (sp *splitter) split(in []piece, out []piece) []piece {
	var segs []segment
	for _, p := range in {
		segs = segs[:0]
		prev := 0
		sp.find(p.s, func(start, end int) {
			if prev != start {
				segs = append(segs, segment{prev, start, false})
			}
			segs = append(segs, segment{start, end, true})
			prev = end
		})
		if prev != len(p.s) {
			segs = append(segs, segment{prev, len(p.s), false})
		}
		if sp.invert {
			for k := range segs {
				segs[k].match = !segs[k].match
			}
		}
		out = sp.emit(p, segs, out)
	}
	return out
}

// emit appends the parts of p that the behaviour keeps; empty parts are
// dropped, as tokenizers drops them.
func (sp *splitter) emit(p piece, segs []segment, out []piece) []piece {
	add := func(start, end int) {
		if end > start {
			out = append(out, piece{p.s[start:end], p.first && start == 0})
		}
	}
	switch sp.behavior {
	case removed:
		for _, g := range segs {
			if !g.match {
				add(g.start, g.end)
			}
		}
	case isolated:
		for _, g := range segs {
			add(g.start, g.end)
		}
	case contiguous:
		// Runs of matches become one part, runs of non-matches too.
		for k := 0; k < len(segs); {
			j := k + 1
			for j < len(segs) && segs[j].match == segs[k].match {
				j++
			}
			add(segs[k].start, segs[j-1].end)
			k = j
		}
	case mergedWithPrevious:
		// A match joins the part before it, unless that part was a match.
		var spans []segment
		prevMatch := false
		for _, g := range segs {
			if g.match && !prevMatch && len(spans) > 0 {
				spans[len(spans)-1].end = g.end
			} else {
				spans = append(spans, g)
			}
			prevMatch = g.match
		}
		for _, g := range spans {
			add(g.start, g.end)
		}
	case mergedWithNext:
		// The same walking backwards: a match joins the part after it.
		var spans []segment
		prevMatch := false
		for k := len(segs) - 1; k >= 0; k-- {
			g := segs[k]
			if g.match && !prevMatch && len(spans) > 0 {
				spans[len(spans)-1].start = g.start
			} else {
				spans = append(spans, g)
			}
			prevMatch = g.match
		}
		for k := len(spans) - 1; k >= 0; k-- {
			add(spans[k].start, spans[k].end)
		}
	}
	return out
}

// findString finds the occurrences of a literal string.
func findString(lit string) func(s string, f func(start, end int)) {
	return func(s string, f func(start, end int)) {
		if lit == "" {
			return
		}
		for i := 0; ; {
			k := strings.Index(s[i:], lit)
			if k < 0 {
				return
			}
			f(i+k, i+k+len(lit))
			i += k + len(lit)
		}
	}
}

// findChars finds each character for which is is true, one match each.
func findChars(is func(r rune) bool) func(s string, f func(start, end int)) {
	return func(s string, f func(start, end int)) {
		for i, r := range s {
			if is(r) {
				f(i, i+utf8.RuneLen(r))
			}
		}
	}
}

// isPunctuation is Rust's char::is_ascii_punctuation or Unicode P*.
func isPunctuation(r rune) bool {
	if r < utf8.RuneSelf {
		return r > ' ' && r < 0x7f && !('0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z')
	}
	return unicode.IsPunct(r)
}

// isNumeric is Rust's char::is_numeric (Nd, Nl, No).
func isNumeric(r rune) bool { return unicode.IsNumber(r) }

// isWhitespace is Rust's char::is_whitespace (White_Space).
func isWhitespace(r rune) bool { return unicode.Is(unicode.White_Space, r) }

// sequence runs pre-tokenizers one after the other.
type sequence []preTokenizer

func (q sequence) split(in []piece, out []piece) []piece {
	for _, p := range q {
		out = p.split(in, out[:0])
		in, out = out, in
	}
	return append(out[:0], in...)
}

// metaspace replaces spaces with the replacement character, prepends one
// as its scheme says, and splits before each.
type metaspace struct {
	rep     string
	scheme  string // always, first, never
	doSplit bool
	sp      *splitter
}

func (m *metaspace) split(in []piece, out []piece) []piece {
	tmp := make([]piece, 0, len(in))
	for _, p := range in {
		s := strings.ReplaceAll(p.s, " ", m.rep)
		if !strings.HasPrefix(s, m.rep) && (m.scheme == "always" || m.scheme == "first" && p.first) {
			s = m.rep + s
		}
		tmp = append(tmp, piece{s, p.first})
	}
	if !m.doSplit {
		return append(out, tmp...)
	}
	return m.sp.split(tmp, out)
}

// byteLevel is the ByteLevel pre-tokenizer: it prepends a space when asked
// and splits with GPT-2's pattern when asked. Its mapping of bytes to
// characters is not done: the model looks the bytes up directly (see
// bpe.byteIDs).
type byteLevel struct {
	prefix bool
	sp     *splitter // nil without use_regex
}

const gpt2Pattern = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

func (b *byteLevel) split(in []piece, out []piece) []piece {
	if b.prefix {
		tmp := make([]piece, len(in))
		for k, p := range in {
			if !strings.HasPrefix(p.s, " ") {
				p.s = " " + p.s
			}
			tmp[k] = p
		}
		in = tmp
	}
	if b.sp == nil {
		return append(out, in...)
	}
	return b.sp.split(in, out)
}

// parsePreTokenizer reads a pre-tokenizer; bl is set when it is (or ends
// with) ByteLevel.
func parsePreTokenizer(r json.RawMessage) (p preTokenizer, bl bool, err error) {
	c, err := parseComponent(r, "pre_tokenizer")
	if err != nil {
		return nil, false, err
	}
	what := "pre_tokenizer " + c.Type
	switch c.Type {
	case "Sequence":
		var q sequence
		for k, sub := range c.PreTokenizers {
			if bl {
				return nil, false, fmt.Errorf("pre_tokenizer Sequence: a pre-tokenizer after ByteLevel is not supported")
			}
			p, b, err := parsePreTokenizer(sub)
			if err != nil {
				return nil, false, fmt.Errorf("pre_tokenizer Sequence[%d]: %v", k, err)
			}
			q = append(q, p)
			bl = b
		}
		return q, bl, nil
	case "Split":
		b, err := parseBehavior(c.Behavior, what)
		if err != nil {
			return nil, false, err
		}
		find, err := parsePattern(c.Pattern, what)
		if err != nil {
			return nil, false, err
		}
		known := false
		if c.Pattern.Regex != nil {
			_, known = tokenize.KnownSplit(*c.Pattern.Regex)
		}
		return &splitter{find: find, behavior: b, invert: c.Invert, known: known}, false, nil
	case "ByteLevel":
		b := &byteLevel{prefix: c.AddPrefixSpace == nil || *c.AddPrefixSpace}
		if c.UseRegex == nil || *c.UseRegex {
			re, err := compileRegex(gpt2Pattern)
			if err != nil {
				return nil, false, err
			}
			b.sp = &splitter{find: re.matches, behavior: isolated}
		}
		return b, true, nil
	case "Digits":
		b := contiguous
		if c.IndividualDigits {
			b = isolated
		}
		return &splitter{find: findChars(isNumeric), behavior: b}, false, nil
	case "Metaspace":
		m := &metaspace{rep: c.Replacement, scheme: c.PrependScheme, doSplit: c.Split == nil || *c.Split}
		if m.rep == "" {
			return nil, false, fmt.Errorf("%s: no replacement", what)
		}
		switch m.scheme {
		case "always", "first", "never":
		case "":
			m.scheme = "always"
			if c.AddPrefixSpace != nil && !*c.AddPrefixSpace {
				m.scheme = "never"
			}
		default:
			return nil, false, fmt.Errorf("%s: unknown prepend_scheme %q (valid: always, first, never)", what, m.scheme)
		}
		m.sp = &splitter{find: findString(m.rep), behavior: mergedWithNext}
		return m, false, nil
	case "Whitespace":
		re, err := compileRegex(`\w+|[^\w\s]+`)
		if err != nil {
			return nil, false, err
		}
		return &splitter{find: re.matches, behavior: removed, invert: true}, false, nil
	case "WhitespaceSplit":
		return &splitter{find: findChars(isWhitespace), behavior: removed}, false, nil
	case "Punctuation":
		b := isolated
		if c.Behavior != "" {
			if b, err = parseBehavior(c.Behavior, what); err != nil {
				return nil, false, err
			}
		}
		return &splitter{find: findChars(isPunctuation), behavior: b}, false, nil
	case "BertPreTokenizer":
		return sequence{
			&splitter{find: findChars(isWhitespace), behavior: removed},
			&splitter{find: findChars(isPunctuation), behavior: isolated},
		}, false, nil
	case "CharDelimiterSplit":
		d, n := utf8.DecodeRuneInString(c.Delimiter)
		if n == 0 || n != len(c.Delimiter) {
			return nil, false, fmt.Errorf("%s: delimiter %q is not one character", what, c.Delimiter)
		}
		return &splitter{find: findChars(func(r rune) bool { return r == d }), behavior: removed}, false, nil
	}
	return nil, false, fmt.Errorf("%s is not supported by harpe (supported: Sequence, Split, ByteLevel, Digits, Metaspace, Whitespace, WhitespaceSplit, Punctuation, BertPreTokenizer, CharDelimiterSplit)", what)
}

// parsePattern reads a {"String": …} or {"Regex": …} pattern.
func parsePattern(p *patternJSON, what string) (func(s string, f func(start, end int)), error) {
	switch {
	case p == nil:
		return nil, fmt.Errorf("%s: no pattern", what)
	case p.String != nil:
		return findString(*p.String), nil
	case p.Regex != nil:
		re, err := compileRegex(*p.Regex)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", what, err)
		}
		return re.matches, nil
	}
	return nil, fmt.Errorf("%s: pattern is neither String nor Regex", what)
}
