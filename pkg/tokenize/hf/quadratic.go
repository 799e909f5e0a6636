package hf

import (
	"fmt"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A pre-tokenizer splits a text by finding every match of its pattern,
// each search starting where the last match ended. Go's regexp runs each
// search in time linear in what it reads, but a search reads on for as
// long as a preferred alternative could still match: in [^z]*z|. the
// first alternative reads to the next z (or the end of the text) before
// the search settles for the single character of the second. Every
// search then reads the rest of the run, and splitting a text of n
// characters takes time in n². tokenizers (Oniguruma) backtracks the same
// way.
//
// harpe refuses such a pattern when the tokenizer.json is loaded, naming
// it. The shape that can do this is a repetition followed by something
// that must still match (C* E, C+ E, C{n,} E). Most patterns of real
// tokenizers have it harmlessly: \s*[\r\n]+ stops at the first character
// that is not white space, and a later \s+ takes the same run whole. So a
// pattern with that shape is probed: split a run of the characters C
// repeats (probeRunes of them, drawn from C); a pattern that cuts that run
// into more than probeRunes/probeRatio pieces re-reads the run at each
// one, and is refused.
const (
	probeRunes = 2048
	probeRatio = 16
	// maxProbes bounds the probes, and so the time to load a hostile
	// file; real patterns have at most two such repetitions.
	maxProbes = 16
)

// probeSamples are characters tried first in a repeated class: the kinds
// a text is made of (letters of both cases and other scripts, digits,
// space, line breaks, punctuation, an apostrophe).
const probeSamples = "aA 1.\n\té中'_-,zé\u00a0\u0301"

// checkLinear refuses a compiled pattern whose matches over a run of the
// characters it repeats would re-read that run (see above). src is the
// pattern as the file spells it (for the error), tr what Go compiled.
func (r *regex) checkLinear(src, tr string) error {
	re, err := syntax.Parse(tr, syntax.Perl)
	if err != nil {
		return nil // compiled already; cannot happen
	}
	var runs []*syntax.Regexp
	riskyRuns(re, &runs)
	if len(runs) > maxProbes {
		return fmt.Errorf("pattern %q: more than %d repetitions followed by more to match (%d); harpe checks at most %d for a split in quadratic time, and refuses the pattern", src, maxProbes, len(runs), maxProbes)
	}
	for _, run := range runs {
		text := probeText(run.Sub[0])
		if text == "" {
			continue
		}
		// Stop at the first piece past the limit: a refused pattern is
		// not run to the end of the probe.
		limit, pieces := probeRunes/probeRatio, 0
		if r.ws == 0 {
			pieces = len(r.re.FindAllStringIndex(text, limit+1))
		} else {
			r.each(text, func(int, int) bool { pieces++; return pieces <= limit })
		}
		if pieces > limit {
			return fmt.Errorf("pattern %q: finding its matches takes time that grows with the square of the text: %s goes on over a run of the characters it repeats while the pattern cuts that run into pieces (more than %d pieces in a run of %d), so each search reads the rest of the run again; harpe refuses it", src, run, probeRunes/probeRatio, probeRunes)
		}
	}
	return nil
}

// riskyRuns appends to out each unbounded repetition of one character
// class in re that is followed, in its concatenation, by something of
// non-zero length.
func riskyRuns(re *syntax.Regexp, out *[]*syntax.Regexp) {
	if re.Op == syntax.OpConcat {
		for k, s := range re.Sub {
			if !unboundedClass(s) {
				continue
			}
			for _, t := range re.Sub[k+1:] {
				if minLen(t) > 0 {
					*out = append(*out, s)
					break
				}
			}
		}
	}
	for _, s := range re.Sub {
		riskyRuns(s, out)
	}
}

// unboundedClass says whether re is C*, C+ or C{n,} of one character
// class (a class, any character, or one literal character).
func unboundedClass(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpStar, syntax.OpPlus:
	case syntax.OpRepeat:
		if re.Max != -1 {
			return false
		}
	default:
		return false
	}
	switch s := re.Sub[0]; s.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		return len(s.Rune) == 1
	}
	return false
}

// minLen is the fewest characters re matches.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minLen(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minLen(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // empty, anchors, *, ?
}

// probeText is a run of probeRunes characters that class (a class, any
// character or a literal) matches: the probe samples it takes, then the
// first character of each of its ranges, in turn.
func probeText(class *syntax.Regexp) string {
	in := func(c rune) bool { return matchesRune(class, c) }
	var set []rune
	seen := map[rune]bool{}
	add := func(c rune) {
		if len(set) < 32 && !seen[c] && utf8.ValidRune(c) && c != utf8.RuneError && in(c) {
			seen[c] = true
			set = append(set, c)
		}
	}
	for _, c := range probeSamples {
		add(c)
	}
	if class.Op == syntax.OpCharClass {
		for k := 0; k+1 < len(class.Rune); k += 2 {
			add(class.Rune[k])
		}
	}
	if len(set) == 0 {
		return ""
	}
	var b strings.Builder
	for k := 0; k < probeRunes; k++ {
		b.WriteRune(set[k%len(set)])
	}
	return b.String()
}

// matchesRune says whether the one-character regexp re matches c.
func matchesRune(re *syntax.Regexp, c rune) bool {
	switch re.Op {
	case syntax.OpAnyChar:
		return true
	case syntax.OpAnyCharNotNL:
		return c != '\n'
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return strings.EqualFold(string(re.Rune[0]), string(c))
		}
		return re.Rune[0] == c
	case syntax.OpCharClass:
		for k := 0; k+1 < len(re.Rune); k += 2 {
			if re.Rune[k] <= c && c <= re.Rune[k+1] {
				return true
			}
		}
	}
	return false
}
