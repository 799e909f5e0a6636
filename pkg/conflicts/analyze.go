package conflicts

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// token is one word or punctuation mark of a text.
type token struct {
	start, end int    // byte span in the text (a contraction's parts share it)
	low        string // lower-cased form, "n't" for a negated contraction
	upper      bool   // the word starts with an upper-case letter
	punct      bool
}

// tokenize splits text into words and the punctuation that matters for
// sentences and clauses. Contractions are split ("don't" → "do", "n't").
func tokenize(text string) []token {
	var toks []token
	scanTokens(text, nil, func(t token) { toks = append(toks, t) })
	return toks
}

// scanTokens calls emit for each token of text in order, holding none of
// them, so a text of any size is read in memory proportional to one token.
// It stops early once done (nil: never) is closed.
//
// Words inside parentheses closed within the sentence are asides, not
// assertions ("(sent to the model)"), and are not emitted; the parentheses
// themselves are. A "(" left open, as in ":(", hides nothing.
func scanTokens(text string, done <-chan struct{}, emit func(token)) {
	depth := 0
	inner := emit
	// stop is the position of the first of ").!?\n" at or after stopFrom
	// (len(text) when none): each "(" asks for the next one, and the
	// answer holds for every "(" before it, so the text is searched once.
	stop, stopFrom := -1, 0
	emit = func(t token) {
		switch {
		case t.punct && t.low == "(":
			if stop < t.end {
				stopFrom = t.end
				stop = len(text)
				if i := strings.IndexAny(text[stopFrom:], ").!?\n"); i >= 0 {
					stop = stopFrom + i
				}
			}
			if stop < len(text) && text[stop] == ')' {
				depth++
			}
			inner(t)
		case t.punct && t.low == ")":
			depth = max(depth-1, 0)
			inner(t)
		case t.punct && (t.low == "." || t.low == "!" || t.low == "?"):
			depth = 0
			inner(t)
		case depth == 0:
			inner(t)
		}
	}
	i := 0
	for steps := 1; i < len(text); steps++ {
		if steps%cancel.Every == 0 && cancel.Stopped(done) {
			return
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isWordRune(r):
			j := i + size
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if isWordRune(r2) {
					j += s2
					continue
				}
				// An apostrophe or a decimal point inside a word.
				if (r2 == '\'' || r2 == '’' || r2 == '.' && unicode.IsDigit(r)) && j+s2 < len(text) {
					r3, _ := utf8.DecodeRuneInString(text[j+s2:])
					if isWordRune(r3) && (r2 != '.' || unicode.IsDigit(r3)) {
						j += s2
						continue
					}
				}
				break
			}
			emitWord(emit, text, i, j)
			i = j
		case r == '\n' || strings.ContainsRune(".!?;:,()\"“”—–[]", r):
			low := string(r)
			if r == '\n' {
				low = "."
			}
			emit(token{start: i, end: i + size, low: low, punct: true})
			i += size
		default:
			i += size
		}
	}
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
}

// emitWord emits the word text[i:j], split when it is a contraction.
func emitWord(emit func(token), text string, i, j int) {
	w := text[i:j]
	first, _ := utf8.DecodeRuneInString(w)
	upper := unicode.IsUpper(first)
	low := strings.ToLower(strings.ReplaceAll(w, "’", "'"))
	add := func(s string) { emit(token{start: i, end: j, low: s, upper: upper}) }
	if low == "cannot" {
		add("can")
		add("not")
		return
	}
	if strings.HasSuffix(low, "n't") && len(low) > 3 {
		base := low[:len(low)-3]
		switch base {
		case "ca":
			base = "can"
		case "wo":
			base = "will"
		case "sha":
			base = "shall"
		case "ai":
			base = "is"
		}
		add(base)
		add("n't")
		return
	}
	for _, suf := range []string{"'s", "'re", "'m", "'ve", "'ll", "'d"} {
		if strings.HasSuffix(low, suf) && len(low) > len(suf) {
			add(low[:len(low)-len(suf)])
			if suf == "'ve" {
				suf = "have" // the same word as "have", as in "haven't"
			}
			add(suf)
			return
		}
	}
	add(low)
}

// sentence is a run of tokens up to a full stop, question mark,
// exclamation mark or line break.
type sentence struct {
	toks     []token
	question bool
}

// isSentenceEnd tells the tokens that end a sentence.
func isSentenceEnd(t token) bool {
	return t.punct && (t.low == "." || t.low == "!" || t.low == "?" || t.low == ";")
}

// eachSentence calls fn for each sentence of text, reusing one buffer: the
// tokens passed to fn are valid only during the call. It stops early once
// done (nil: never) is closed.
func eachSentence(text string, done <-chan struct{}, fn func(sentence)) {
	var buf []token
	scanTokens(text, done, func(t token) {
		if !isSentenceEnd(t) {
			buf = append(buf, t)
			return
		}
		if len(buf) > 0 {
			fn(sentence{toks: buf, question: t.low == "?"})
		}
		buf = buf[:0]
	})
	if len(buf) > 0 && !cancel.Stopped(done) {
		fn(sentence{toks: buf})
	}
}

// isQuestion tells a question by its mark or by its opening words: a
// wh-word, or an auxiliary followed (after an optional "not") by a subject.
func (s sentence) isQuestion() bool {
	if s.question {
		return true
	}
	// Only the first three words matter: no need to copy them all.
	var first [3]token
	w := first[:0]
	for _, t := range s.toks {
		if len(w) == len(first) {
			break
		}
		if !t.punct {
			w = append(w, t)
		}
	}
	if len(w) == 0 {
		return false
	}
	if lex().whWords[w[0].low] {
		return true
	}
	if _, aux := lex().frames[w[0].low]; !aux || strings.HasPrefix(w[0].low, "'") {
		return false
	}
	k := 1
	if k < len(w) && (w[k].low == "n't" || w[k].low == "not") {
		k++
	}
	if k >= len(w) {
		return false
	}
	_, pron := lex().persons[w[k].low]
	return pron || lex().determiners[w[k].low] || w[k].upper
}

// isHedged tells a conditional or uncertain sentence ("if it doesn't
// rain", "maybe", "in case").
func (s sentence) isHedged() bool {
	// The words (tokens that are not punctuation) are walked in place; the
	// word after "in" is looked for only from there, so the walk stays
	// linear.
	n := 0 // index of t among the words
	for i, t := range s.toks {
		if t.punct {
			continue
		}
		if t.low == "may" && t.upper && n > 0 {
			n++
			continue // the month
		}
		if lex().hedges[t.low] {
			return true
		}
		if t.low == "in" {
			for _, u := range s.toks[i+1:] {
				if !u.punct {
					if u.low == "case" {
						return true
					}
					break
				}
			}
		}
		n++
	}
	return false
}

// clauses splits a sentence at commas and similar marks, at words such as
// "but" and "because", and at "and"/"or"/"so" when a new subject, an
// auxiliary or a negation follows ("I'm vegetarian and never eat meat").
func clauses(toks []token) [][]token {
	var out [][]token
	start := 0
	cut := func(i, next int) {
		if i > start {
			out = append(out, toks[start:i])
		}
		start = next
	}
	for i, t := range toks {
		switch {
		case t.punct:
			cut(i, i+1)
		case lex().clauseBreaks[t.low]:
			cut(i, i+1)
		case (t.low == "and" || t.low == "or" || t.low == "so") && i+1 < len(toks):
			n := toks[i+1].low
			_, pron := lex().persons[n]
			_, aux := lex().frames[n]
			if pron || aux || lex().negators[n] {
				cut(i, i+1)
			}
		}
	}
	cut(len(toks), len(toks))
	return out
}

// clause is what one clause asserts once its negation cues are set aside.
// Clauses are kept for every sentence of every text, so they are small:
// keys and sequences live in shared chunks, and the surface forms of the
// words are found again only for the pairs reported.
type clause struct {
	text     int     // index of the text it comes from
	sent     [2]int  // byte span of its sentence
	keys     []int32 // content keys, sorted, unique
	seq      []elem  // content keys and pronouns in order
	cue      string
	index    int32 // the clause's position in its sentence
	frame    uint8
	negative bool
}

// elem is one element of a clause's sequence: a content key, a pronoun
// (key [keyPronoun], person its grammatical person) or a quantifier (key
// [keyQuantifier], person its class).
type elem struct {
	key    int32
	person uint8
}

// Keys of the elements of a sequence that are not content words.
const (
	keyPronoun    = -1
	keyQuantifier = -2
)

// analyzer turns clauses into keys, interning them.
type analyzer struct {
	ids    map[string]int32
	names  []string
	weak   map[string]bool
	frames map[string]uint8
	// Scratch space for the clause being read; surface is parallel to keys.
	keys    []int32
	seq     []elem
	surface []string
	isCue   []bool
	// mark[k] == stamp when key k is in keys already; stamp changes with
	// every clause read, so the marks never need clearing.
	mark  []uint32
	stamp uint32
	// done, when closed, makes analyze give up on the clause it reads.
	done <-chan struct{}
	// Chunks that clauses' keys and sequences are copied into.
	keyChunk []int32
	seqChunk []elem
}

// chunk is how many elements a chunk holds.
const chunk = 1 << 14

// keep copies the scratch keys and sequence into the chunks.
func (a *analyzer) keep(c *clause) {
	if len(a.keyChunk)+len(a.keys) > cap(a.keyChunk) {
		a.keyChunk = make([]int32, 0, max(chunk, len(a.keys)))
	}
	n := len(a.keyChunk)
	a.keyChunk = append(a.keyChunk, a.keys...)
	c.keys = a.keyChunk[n:len(a.keyChunk):len(a.keyChunk)]
	if len(a.seqChunk)+len(a.seq) > cap(a.seqChunk) {
		a.seqChunk = make([]elem, 0, max(chunk, len(a.seq)))
	}
	n = len(a.seqChunk)
	a.seqChunk = append(a.seqChunk, a.seq...)
	c.seq = a.seqChunk[n:len(a.seqChunk):len(a.seqChunk)]
}

func newAnalyzer() *analyzer {
	a := &analyzer{ids: map[string]int32{}, weak: map[string]bool{}, frames: map[string]uint8{"": 0}}
	for w := range lex().weakWords {
		a.weak[stem(w)] = true
	}
	return a
}

func (a *analyzer) intern(k string) int32 {
	if id, ok := a.ids[k]; ok {
		return id
	}
	id := int32(len(a.names))
	a.ids[k] = id
	a.names = append(a.names, k)
	return id
}

// analyze reads one clause into the scratch keys, sequence and surface.
// ok is false when the clause asserts nothing that can be lined up: no
// content word, or only weak ones. The clause's keys and seq point at the
// scratch space until [analyzer.keep] copies them.
func (a *analyzer) analyze(text string, toks []token, sentStart int) (c clause, ok bool) {
	if cancel.Stopped(a.done) {
		return c, false
	}
	a.keys, a.seq, a.surface = a.keys[:0], a.seq[:0], a.surface[:0]
	a.stamp++
	if a.stamp == 0 { // wrapped: start the marks afresh
		clear(a.mark)
		a.stamp = 1
	}
	cue, negs, stopped := a.markCues(text, toks)
	if stopped {
		return c, false
	}
	flips := 0
	isCue := a.isCue
	frame := ""
	hasFunction := false
	allWeak := true
	deictic := false  // "it", "this" … before the first content word
	fragment := false // the clause opens with a past participle
	// last is the latest token before i that is neither a cue nor an
	// adverb: toks[i] follows a form of "be" when that token is one ("is
	// not really empty"). Kept as the loop goes, so that finding it does
	// not scan back.
	last := -1
	for i, t := range toks {
		if i%cancel.Every == cancel.Every-1 && cancel.Stopped(a.done) {
			return c, false
		}
		afterBe := last >= 0 && lex().beForms[toks[last].low]
		if !isCue[i] && !lex().adverbs[t.low] {
			last = i
		}
		if q := lex().quantifiers[t.low]; q != 0 && !(t.low == "no" && (i+1 >= len(toks) || toks[i+1].low != "one")) {
			a.seq = append(a.seq, elem{key: keyQuantifier, person: q})
			hasFunction = true // "nobody", "someone": a subject
		}
		if isCue[i] {
			continue
		}
		if frame == "" {
			if f, aux := lex().frames[t.low]; aux {
				frame = f
			} else if t.low == "used" && i+1 < len(toks) && toks[i+1].low == "to" {
				frame = "past"
			}
		}
		if len(a.keys) == 0 && lex().deictics[t.low] {
			deictic = true
		}
		if p, pron := lex().persons[t.low]; pron {
			a.seq = append(a.seq, elem{key: keyPronoun, person: p})
			hasFunction = true
			continue
		}
		key, flip, content := a.key(t, t.start == sentStart, afterBe)
		if !content {
			hasFunction = true
			continue
		}
		if flip {
			flips++
			if cue == "" && negs == 0 {
				cue = t.low
			}
		}
		if len(a.keys) == 0 && !hasFunction && verbFrame(t.low) == "past" {
			fragment = true
		}
		if frame == "" {
			frame = verbFrame(t.low)
		}
		if !a.weak[key] {
			allWeak = false
		}
		id := a.intern(key)
		a.seq = append(a.seq, elem{key: id})
		if int(id) >= len(a.mark) {
			a.mark = append(a.mark, make([]uint32, int(id)+1-len(a.mark))...)
		}
		if a.mark[id] != a.stamp {
			a.mark[id] = a.stamp
			a.keys = append(a.keys, id)
			a.surface = append(a.surface, t.low)
		}
	}
	if len(a.keys) == 0 || allWeak || !hasFunction && len(a.keys) < 2 || deictic || fragment {
		return c, false
	}
	if frame == "" {
		frame = "pres"
	}
	fc, known := a.frames[frame]
	if !known {
		fc = uint8(len(a.frames))
		a.frames[frame] = fc
	}
	c.frame = fc
	c.negative = (negs > 0) != (flips%2 == 1)
	if c.negative && cue == "" {
		return c, false
	}
	if !c.negative {
		cue = ""
	}
	c.cue = cue
	a.sortKeys()
	c.keys, c.seq = a.keys, a.seq
	return c, true
}

// markCues marks in a.isCue the tokens of the clause that are negation
// cues (or phrases such as "no doubt" that only look like one) and returns
// the cue to name, the number of negations, and whether the context ended
// the reading.
func (a *analyzer) markCues(text string, toks []token) (cue string, negs int, stopped bool) {
	var changeCue string
	a.isCue = slices.Grow(a.isCue[:0], len(toks))[:len(toks)]
	clear(a.isCue)
	isCue := a.isCue
	for i := 0; i < len(toks); i++ {
		if i%cancel.Every == cancel.Every-1 && cancel.Stopped(a.done) {
			return "", 0, true
		}
		t := toks[i]
		next := ""
		if i+1 < len(toks) {
			next = toks[i+1].low
		}
		switch {
		case (t.low == "not" || t.low == "n't") && lex().partials[next],
			t.low == "no" && (next == "doubt" || next == "matter" || next == "problem"):
			isCue[i], isCue[i+1] = true, true
			i++
		case t.low == "no" && next == "longer":
			isCue[i], isCue[i+1] = true, true
			negs++
			changeCue = "no longer"
			i++
		case t.low == "no" && next == "one":
			isCue[i], isCue[i+1] = true, true
			negs++
			if cue == "" {
				cue = "no one"
			}
			i++
		case t.low == "any" && next == "more":
			isCue[i], isCue[i+1] = true, true
			changeCue = "any more"
			i++
		case t.low == "anymore":
			isCue[i] = true
			changeCue = "anymore"
		case (t.low == "gave" || t.low == "give" || t.low == "given" || t.low == "giving") && next == "up" && i+2 < len(toks):
			isCue[i], isCue[i+1] = true, true
			negs++
			changeCue = t.low + " up"
			i++
		case lex().changeVerbs[t.low] && (lex().possessives[next] || len(next) > 4 && strings.HasSuffix(next, "ing")):
			isCue[i] = true
			negs++
			changeCue = t.low
		case lex().negators[t.low]:
			isCue[i] = true
			negs++
			if cue == "" {
				cue = text[t.start:t.end]
				if t.low != "n't" {
					cue = t.low
				}
			}
		}
	}
	if changeCue != "" {
		cue = changeCue
	}
	return cue, negs, false
}

// key returns the matching key of a word, whether it is an antonym that
// flips the clause, and whether it is a content word at all.
//
// An antonym that is an adjective flips the clause only as its predicate,
// after a form of "be" ("the room was empty"), not inside a noun phrase
// ("the function handles empty input").
func (a *analyzer) key(t token, first, afterBe bool) (key string, flip, content bool) {
	w := t.low
	if lex().stopwords[w] {
		return "", false, false
	}
	if n, ok := lex().numberWords[w]; ok {
		return n, false, true
	}
	if w[0] >= '0' && w[0] <= '9' {
		return w, false, true
	}
	if lex().timeWords[w] {
		return strings.TrimSuffix(w, "s"), false, true
	}
	if t.upper && !first {
		return w, false, true // a name: kept exact
	}
	if pos, ok := lex().antonyms[w]; ok && (!lex().adjectives[w] || afterBe) {
		return stem(pos), true, true
	}
	return stem(w), false, true
}

// verbFrame guesses the frame of a clause without an auxiliary from its
// first content word: a past form makes it past.
func verbFrame(w string) string {
	if irr, ok := lex().irregular[w]; ok {
		if irr.past {
			return "past"
		}
		return ""
	}
	if len(w) > 4 && strings.HasSuffix(w, "ed") {
		return "past"
	}
	return ""
}

// stem reduces a word to a light stem: irregular forms to their base, then
// plural and verb endings off, then a final "e" and a doubled consonant.
// It only has to map the forms of one word to one key, not to a real word.
func stem(w string) string {
	if irr, ok := lex().irregular[w]; ok {
		w = irr.base
	}
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") &&
		!strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ied"):
		w = w[:n-3] + "y"
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = w[:n-2]
	}
	n = len(w)
	if n > 3 && w[n-1] == 'e' {
		w = w[:n-1]
		n--
	}
	if n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeioulsz", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}

// sortKeys sorts the scratch keys, keeping surface parallel.
func (a *analyzer) sortKeys() {
	if len(a.keys) > 16 {
		// A long clause: sort (key, surface) pairs in O(n log n).
		sort.Sort(keySurface{a.keys, a.surface})
		return
	}
	// Insertion sort: most clauses have a handful of keys.
	for i := 1; i < len(a.keys); i++ {
		for j := i; j > 0 && a.keys[j] < a.keys[j-1]; j-- {
			a.keys[j], a.keys[j-1] = a.keys[j-1], a.keys[j]
			a.surface[j], a.surface[j-1] = a.surface[j-1], a.surface[j]
		}
	}
}

// keySurface sorts keys (unique) with surface kept parallel.
type keySurface struct {
	keys    []int32
	surface []string
}

func (k keySurface) Len() int           { return len(k.keys) }
func (k keySurface) Less(i, j int) bool { return k.keys[i] < k.keys[j] }
func (k keySurface) Swap(i, j int) {
	k.keys[i], k.keys[j] = k.keys[j], k.keys[i]
	k.surface[i], k.surface[j] = k.surface[j], k.surface[i]
}
