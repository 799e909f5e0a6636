package conflicts

import (
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/harpe-dev/harpe/internal/cancel"
)

// DefaultMinScore is the score below which [Find] drops a pair unless
// [Options.MinScore] says otherwise.
const DefaultMinScore = 0.5

// Options tune [Find].
type Options struct {
	// MinScore drops pairs scoring below it. Zero means [DefaultMinScore];
	// a negative value keeps every pair the rules accept.
	MinScore float64
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
// every pair of texts.
type Stats struct {
	Texts    int // texts read
	Clauses  int // clauses that state or deny something
	Compared int // statement and denial clauses lined up
}

// Find returns the pairs of texts in which one denies what the other
// states, ordered by denial then statement index. A pair of texts appears
// at most once per direction, with its best-scoring pair of sentences.
func Find(texts []string, opts Options) []Pair {
	pairs, _ := FindStats(texts, opts)
	return pairs
}

// FindStats is [Find] that also reports the work done.
func FindStats(texts []string, opts Options) ([]Pair, Stats) {
	pairs, st, _ := FindStatsContext(context.Background(), texts, opts)
	return pairs, st
}

// FindStatsContext is [FindStats] that stops once ctx is done, and then
// returns ctx.Err() and no pairs. It looks before every text it reads,
// every few thousand sentences of a long text, and every few thousand
// clauses it lines up.
func FindStatsContext(ctx context.Context, texts []string, opts Options) ([]Pair, Stats, error) {
	minScore := opts.MinScore
	if minScore == 0 {
		minScore = DefaultMinScore
	}
	st := Stats{Texts: len(texts)}
	an := newAnalyzer()
	var all []clause
	done := ctx.Done()
	an.done = done
	for ti, text := range texts {
		if cancel.Stopped(done) {
			return nil, Stats{}, ctx.Err()
		}
		all = appendClauses(all, an, ti, text, done)
	}
	if cancel.Stopped(done) {
		return nil, Stats{}, ctx.Err()
	}
	st.Clauses = len(all)

	// Index the statements (positive clauses) by content key. Clauses with
	// a single key go to their own index: a one-word denial is only
	// compared with one-word statements.
	index := make([][]int32, len(an.names))
	single := make([][]int32, len(an.names))
	for ci := range all {
		c := &all[ci]
		if c.negative {
			continue
		}
		if len(c.keys) == 1 {
			single[c.keys[0]] = append(single[c.keys[0]], int32(ci))
		}
		for _, k := range c.keys {
			index[k] = append(index[k], int32(ci))
		}
	}

	type key struct{ s, d int }
	type found struct {
		s, d  int32
		score float64
	}
	best := map[key]int{}
	var hits []found
	for di := range all {
		if di%cancel.Every == 0 && cancel.Stopped(done) {
			return nil, Stats{}, ctx.Err()
		}
		d := &all[di]
		if !d.negative {
			continue
		}
		// Every word of the denial must be in the statement, so the
		// statement is in the posting list of the denial's rarest word.
		var cands []int32
		if len(d.keys) == 1 {
			cands = single[d.keys[0]]
		} else {
			rare := d.keys[0]
			for _, k := range d.keys[1:] {
				if len(index[k]) < len(index[rare]) {
					rare = k
				}
			}
			cands = index[rare]
		}
		for k, si := range cands {
			if k%cancel.Every == cancel.Every-1 && cancel.Stopped(done) {
				return nil, Stats{}, ctx.Err()
			}
			s := &all[si]
			if s.text == d.text {
				continue
			}
			st.Compared++
			score, ok := lineUp(s, d)
			if !ok || score < minScore {
				continue
			}
			k := key{s.text, d.text}
			if i, seen := best[k]; seen {
				if score > hits[i].score {
					hits[i] = found{si, int32(di), score}
				}
				continue
			}
			best[k] = len(hits)
			hits = append(hits, found{si, int32(di), score})
		}
	}
	out := make([]Pair, len(hits))
	for i, h := range hits {
		out[i] = pairOf(texts, an, &all[h.s], &all[h.d], h.score)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Denial != out[j].Denial {
			return out[i].Denial < out[j].Denial
		}
		return out[i].Statement < out[j].Statement
	})
	if cancel.Stopped(done) { // pairOf's analysis may have given up
		return nil, Stats{}, ctx.Err()
	}
	return out, st, nil
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
