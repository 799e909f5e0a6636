package conflicts

import (
	"context"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// DefaultMinScore is the score below which [Find] drops a pair unless
// [Options.MinScore] says otherwise.
const DefaultMinScore = 0.5

// DefaultMaxPairs is how many pairs [Find] and [Each] report unless
// [Options.MaxPairs] says otherwise. The pairs found beyond it are counted
// in [Stats.Cut], not reported.
const DefaultMaxPairs = 10000

// Options tune [Find] and [Each].
type Options struct {
	// MinScore drops pairs scoring below it. Zero means [DefaultMinScore];
	// a negative value keeps every pair the rules accept.
	MinScore float64
	// MaxPairs caps the pairs reported. Zero means [DefaultMaxPairs]; a
	// negative value reports every pair.
	MaxPairs int
}

// Pair is one text that denies what another states.
type Pair struct {
	// Statement and Denial are indices into the texts given to Find.
	Statement int
	Denial    int
	// StatementSentence and DenialSentence are the sentences of each text
	// that line up, trimmed.
	StatementSentence string
	DenialSentence    string
	// Cue is the word or phrase that makes the denial negative: "not",
	// "don't", "never", "no longer", "anymore", "stopped", or an antonym
	// such as "closed".
	Cue string
	// Shared lists the content words the two sentences have in common, as
	// the statement spells them (lower-cased), in the statement's order.
	Shared []string
	// Score is 2·shared / (statement words + denial words), rounded to two
	// decimals: 1 when the denial says exactly what the statement says.
	Score float64
}

// Stats tells how much work Find did, to show that it does not compare
// every pair of texts, and how many pairs it found and left out.
type Stats struct {
	Texts    int // texts read
	Clauses  int // clauses that state or deny something
	Compared int // statement and denial clauses lined up
	Found    int // pairs of texts found, reported or not
	Cut      int // pairs found beyond [Options.MaxPairs], not reported
}

// Find returns the pairs of texts in which one denies what the other
// states, ordered by denial then statement index: the pairs [Each] passes
// on, at most [Options.MaxPairs] of them (an empty slice, not nil, when
// there are none).
func Find(ctx context.Context, texts []string, opts Options) ([]Pair, Stats, error) {
	out := []Pair{}
	st, err := Each(ctx, texts, opts, func(p Pair) error {
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// Each calls fn with each pair of texts in which one denies what the other
// states, ordered by denial then statement index. A pair of texts appears
// at most once per direction, with its best-scoring pair of sentences.
// Past [Options.MaxPairs] pairs it only counts them ([Stats.Cut]).
//
// Besides the texts' clauses, it holds the pairs of one denial at a time,
// so its memory does not grow with the number of pairs. It stops once ctx
// is done, and then returns ctx.Err(); it looks before every text it reads,
// every few thousand sentences of a long text, and every few thousand
// clauses it lines up. An error from fn stops it and is returned.
func Each(ctx context.Context, texts []string, opts Options, fn func(Pair) error) (Stats, error) {
	f := search{texts: texts, minScore: opts.MinScore, maxPairs: opts.MaxPairs, done: ctx.Done()}
	if f.minScore == 0 {
		f.minScore = DefaultMinScore
	}
	if f.maxPairs == 0 {
		f.maxPairs = DefaultMaxPairs
	}
	f.st.Texts = len(texts)
	if !f.read() {
		return Stats{}, ctx.Err()
	}
	f.index()
	if err := f.compare(fn); err != nil {
		if cancel.Stopped(f.done) {
			return Stats{}, ctx.Err()
		}
		return f.st, err
	}
	return f.st, nil
}

// errStopped ends [search.compare] once the context is done.
var errStopped = errors.New("stopped")

// search holds the state of one [Each].
type search struct {
	texts    []string
	minScore float64
	maxPairs int
	done     <-chan struct{}
	an       *analyzer
	all      []clause
	// posting lists the statements (positive clauses) by content key;
	// single those with one key only: a one-word denial is only compared
	// with one-word statements.
	posting, single [][]int32
	st              Stats
}

// read analyzes every text into clauses; false when the context ended it.
func (f *search) read() bool {
	f.an = newAnalyzer()
	f.an.done = f.done
	for ti, text := range f.texts {
		if cancel.Stopped(f.done) {
			return false
		}
		f.all = appendClauses(f.all, f.an, ti, text, f.done)
	}
	f.st.Clauses = len(f.all)
	return !cancel.Stopped(f.done)
}

// index builds the posting lists of the statements.
func (f *search) index() {
	f.posting = make([][]int32, len(f.an.names))
	f.single = make([][]int32, len(f.an.names))
	for ci := range f.all {
		c := &f.all[ci]
		if c.negative {
			continue
		}
		if len(c.keys) == 1 {
			f.single[c.keys[0]] = append(f.single[c.keys[0]], int32(ci))
		}
		for _, k := range c.keys {
			f.posting[k] = append(f.posting[k], int32(ci))
		}
	}
}

// hit is the best pair of clauses found so far for one statement text
// against the denial text being compared.
type hit struct {
	s, d  int32
	score float64
}

// compare lines up each denial with its candidate statements, one denial
// text at a time (a text's clauses are consecutive), and passes that
// text's pairs on in statement order before going to the next.
func (f *search) compare(fn func(Pair) error) error {
	best := map[int]int{} // statement text → index in hits
	var hits []hit
	for start := 0; start < len(f.all); {
		end := start + 1
		for end < len(f.all) && f.all[end].text == f.all[start].text {
			end++
		}
		clear(best)
		hits = hits[:0]
		for di := start; di < end; di++ {
			if di%cancel.Every == 0 && cancel.Stopped(f.done) {
				return errStopped
			}
			if !f.all[di].negative {
				continue
			}
			var err error
			if hits, err = f.lineUpDenial(int32(di), best, hits); err != nil {
				return err
			}
		}
		if err := f.emit(hits, fn); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// lineUpDenial compares denial clause di with its candidates, keeping the
// best clause pair per statement text in hits.
func (f *search) lineUpDenial(di int32, best map[int]int, hits []hit) ([]hit, error) {
	d := &f.all[di]
	// Every word of the denial must be in the statement, so the statement
	// is in the posting list of the denial's rarest word.
	var cands []int32
	if len(d.keys) == 1 {
		cands = f.single[d.keys[0]]
	} else {
		rare := d.keys[0]
		for _, k := range d.keys[1:] {
			if len(f.posting[k]) < len(f.posting[rare]) {
				rare = k
			}
		}
		cands = f.posting[rare]
	}
	for k, si := range cands {
		if k%cancel.Every == cancel.Every-1 && cancel.Stopped(f.done) {
			return hits, errStopped
		}
		s := &f.all[si]
		if s.text == d.text {
			continue
		}
		f.st.Compared++
		score, ok := lineUp(s, d)
		if !ok || score < f.minScore {
			continue
		}
		if i, seen := best[s.text]; seen {
			if score > hits[i].score {
				hits[i] = hit{si, di, score}
			}
			continue
		}
		best[s.text] = len(hits)
		hits = append(hits, hit{si, di, score})
	}
	return hits, nil
}

// emit passes one denial text's pairs on in statement order, counting
// those past the cap instead.
func (f *search) emit(hits []hit, fn func(Pair) error) error {
	sort.Slice(hits, func(i, j int) bool { return f.all[hits[i].s].text < f.all[hits[j].s].text })
	for _, h := range hits {
		f.st.Found++
		if f.maxPairs >= 0 && f.st.Found > f.maxPairs {
			f.st.Cut++
			continue
		}
		p := pairOf(f.texts, f.an, &f.all[h.s], &f.all[h.d], h.score)
		if cancel.Stopped(f.done) { // pairOf's analysis may have given up
			return errStopped
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// appendClauses analyzes one text and appends its clauses. Once done is
// closed it stops reading the text (the caller then drops the result).
func appendClauses(all []clause, an *analyzer, ti int, text string, done <-chan struct{}) []clause {
	text = maskNotes(text)
	eachSentence(text, done, func(s sentence) {
		if s.isQuestion() || s.isHedged() {
			return
		}
		span := [2]int{s.toks[0].start, s.toks[len(s.toks)-1].end}
		for ci, ct := range clauses(s.toks) {
			c, ok := an.analyze(text, ct, s.toks[0].start)
			if !ok {
				continue
			}
			an.keep(&c)
			c.text = ti
			c.sent = span
			c.index = int32(ci)
			all = append(all, c)
		}
	})
	return all
}

// lineUp decides whether statement s and denial d conflict, and scores
// them.
func lineUp(s, d *clause) (float64, bool) {
	// The denial may say less than the statement ("I don't live in Boston"
	// against "I live in Boston with my wife"), never more: denying "coffee
	// with sugar" does not deny "coffee".
	if !subset(d.keys, s.keys) {
		return 0, false
	}
	if len(d.keys) == 1 && len(s.keys) != 1 {
		return 0, false
	}
	if s.frame != d.frame || !sameSubject(s, d) {
		return 0, false
	}
	score := 2 * float64(len(d.keys)) / float64(len(s.keys)+len(d.keys))
	return math.Round(score*100) / 100, true
}

// pairOf describes a conflict found between statement s and denial d.
func pairOf(texts []string, an *analyzer, s, d *clause, score float64) Pair {
	// A sentence never starts or ends inside a note, so masking the
	// sentence alone blanks the same notes as masking the whole text.
	sSent := maskNotes(texts[s.text][s.sent[0]:s.sent[1]])
	dSent := maskNotes(texts[d.text][d.sent[0]:d.sent[1]])
	surface := an.surfaceOf(sSent, s.index)
	shared := make([]string, 0, len(d.keys))
	done := map[int32]bool{}
	for _, e := range s.seq {
		if e.key < 0 || done[e.key] {
			continue
		}
		if _, ok := slices.BinarySearch(d.keys, e.key); ok {
			done[e.key] = true
			shared = append(shared, surface[e.key])
		}
	}
	return Pair{
		Statement:         s.text,
		Denial:            d.text,
		StatementSentence: strings.TrimSpace(sSent),
		DenialSentence:    strings.TrimSpace(dSent),
		Cue:               d.cue,
		Shared:            shared,
		Score:             score,
	}
}

// surfaceOf reads clause ci of sentence again and returns the surface form
// of each of its keys.
func (a *analyzer) surfaceOf(sentence string, ci int32) map[int32]string {
	var toks []token
	scanTokens(sentence, nil, func(t token) { toks = append(toks, t) })
	out := map[int32]string{}
	cl := clauses(toks)
	if int(ci) >= len(cl) {
		return out
	}
	if _, ok := a.analyze(sentence, cl[ci], 0); ok {
		for i, k := range a.keys {
			out[k] = a.surface[i]
		}
	}
	return out
}

// sameSubject checks what comes before the first shared word: the
// statement may not have a content word there that the denial lacks ("My
// sister lives in Boston" against "I don't live in Boston"), the first
// pronouns, when both have one, must name the same person ("I" against
// "she"), and both must use the same classes of quantifier ("the bug"
// against "the other bug", "the lab is open" against "nobody is in the
// lab").
func sameSubject(s, d *clause) bool {
	var sp, dp uint8
	var sq, dq uint8 // quantifier classes seen, as bits
	for _, e := range s.seq {
		switch e.key {
		case keyPronoun:
			if sp == 0 {
				sp = e.person
			}
			continue
		case keyQuantifier:
			sq |= 1 << e.person
			continue
		}
		if _, ok := slices.BinarySearch(d.keys, e.key); !ok {
			return false
		}
		break
	}
	for _, e := range d.seq {
		if e.key >= 0 {
			break
		}
		if e.key == keyQuantifier {
			dq |= 1 << e.person
		} else if dp == 0 {
			dp = e.person
		}
	}
	return sq == dq && (sp == 0 || dp == 0 || sp == dp)
}

// subset reports whether every element of a (sorted) is in b (sorted).
func subset(a, b []int32) bool {
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}
