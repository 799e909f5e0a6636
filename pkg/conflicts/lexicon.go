package conflicts

import (
	"sync"
	"sync/atomic"
)

// The word lists below are the whole of the package's knowledge of English.
// They are small on purpose: every entry is a way to be wrong, and a false
// alarm costs more than a missed conflict.

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	start := -1
	for i := 0; i <= len(words); i++ {
		if i == len(words) || words[i] == ' ' || words[i] == '\n' || words[i] == '\t' {
			if start >= 0 {
				m[words[start:i]] = true
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return m
}

// lexicon holds the word tables of the analysis, built once on first use
// (see lex) rather than at start-up, so that a process that finds no
// conflicts (harpe count, harpe --version) does not build them.
type lexicon struct {
	negators     map[string]bool
	partials     map[string]bool
	changeVerbs  map[string]bool
	possessives  map[string]bool
	persons      map[string]uint8
	quantifiers  map[string]uint8
	deictics     map[string]bool
	frames       map[string]string
	hedges       map[string]bool
	whWords      map[string]bool
	clauseBreaks map[string]bool
	stopwords    map[string]bool
	weakWords    map[string]bool
	timeWords    map[string]bool
	antonyms     map[string]string
	adjectives   map[string]bool
	irregular    map[string]irregularForm
	numberWords  map[string]string
	determiners  map[string]bool
	beForms      map[string]bool
	adverbs      map[string]bool
}

// irregularForm is an irregular verb form: its base form, and whether it
// is a past form.
type irregularForm struct {
	base string
	past bool
}

var (
	lexOnce sync.Once
	lexMade atomic.Pointer[lexicon]
)

// lex returns the word tables, building them the first time (short, so
// that it is inlined where the analysis reads a word).
func lex() *lexicon {
	if l := lexMade.Load(); l != nil {
		return l
	}
	return makeLex()
}

func makeLex() *lexicon {
	lexOnce.Do(func() { lexMade.Store(newLexicon()) })
	return lexMade.Load()
}

func newLexicon() *lexicon {
	l := &lexicon{
		// negators are single-word negation cues.
		negators: map[string]bool{
			"not": true, "n't": true, "never": true, "no": true, "none": true,
			"nobody": true, "nothing": true, "nowhere": true, "neither": true,
			"nor": true, "without": true,
		},
		// partials follow "not" in a negation that denies only part of a claim ("not
		// always", "not necessarily") or none of it ("not only", "not just"): such
		// a clause is not a denial.
		partials: setOf(`only just always necessarily entirely completely
		exactly quite`),
		// changeVerbs end a state ("I stopped smoking", "I quit my job"). They are
		// cues only when followed by a verb in -ing or a possessive, so "I stopped by
		// the office" is not a denial.
		changeVerbs: map[string]bool{
			"stop": true, "stops": true, "stopped": true, "quit": true, "quits": true,
		},
		// possessives may follow a change verb ("quit my job").
		possessives: map[string]bool{
			"my": true, "our": true, "your": true, "his": true, "her": true, "their": true,
		},
		// persons maps pronouns and possessives to the grammatical person they
		// name: 1 first singular, 2 first plural, 3 second, 4 to 7 third (he, she,
		// they, it).
		persons: map[string]uint8{
			"i": 1, "me": 1, "my": 1, "mine": 1, "myself": 1,
			"we": 2, "us": 2, "our": 2, "ours": 2, "ourselves": 2,
			"you": 3, "your": 3, "yours": 3, "yourself": 3,
			"he": 4, "him": 4, "his": 4, "himself": 4,
			"she": 5, "her": 5, "hers": 5, "herself": 5,
			"they": 6, "them": 6, "their": 6, "theirs": 6, "themselves": 6,
			"it": 7, "its": 7, "itself": 7,
		},
		// quantifiers maps the words that pick out who or what a clause is about
		// without naming it to a class: 1 people (someone, nobody), 2 things
		// (something, nothing), 3 amounts (every, all, none), 4 others (other,
		// another). "no" counts only in "no one". Before the first shared word, two
		// clauses must use the same classes: "nobody is in the lab" is not about
		// the lab as "the lab is open" is, nor is "not every phone" "my phone".
		quantifiers: map[string]uint8{
			"someone": 1, "somebody": 1, "anyone": 1, "anybody": 1, "everyone": 1,
			"everybody": 1, "nobody": 1, "no": 1,
			"something": 2, "anything": 2, "everything": 2, "nothing": 2,
			"some": 3, "all": 3, "every": 3, "each": 3, "any": 3, "many": 3,
			"most": 3, "several": 3, "few": 3, "none": 3,
			"other": 4, "another": 4,
		},
		// deictics point at something the reader must already know. Across texts
		// they rarely point at the same thing ("It works." … "It doesn't work."), so
		// a clause whose subject is one of them states nothing that can be lined up.
		deictics: setOf(`it its this that these those`),
		// frames maps auxiliaries and modals to the time or mood they put a clause
		// in. Two clauses are compared only when their frames agree, so "I lived in
		// Boston" does not conflict with "I don't live in Boston".
		frames: map[string]string{
			"am": "pres", "is": "pres", "are": "pres", "'m": "pres", "'re": "pres", "'s": "pres",
			"do": "pres", "does": "pres", "has": "pres", "have": "pres", "'ve": "pres",
			"was": "past", "were": "past", "did": "past", "had": "past",
			"will": "will", "'ll": "will", "shall": "will",
			"can": "can", "could": "could", "would": "would", "'d": "would",
			"should": "should", "must": "must",
		},
		// hedges make a whole sentence conditional or uncertain; such sentences
		// neither state nor deny anything here.
		hedges: map[string]bool{
			"if": true, "unless": true, "whether": true, "suppose": true,
			"supposing": true, "assuming": true, "otherwise": true, "maybe": true,
			"perhaps": true, "probably": true, "possibly": true, "might": true,
			"may": true, "wish": true, "hope": true, "when": true, "whenever": true,
			"until": true,
		},
		// whWords open a question even without a question mark ("Why don't the
		// tests pass").
		whWords: map[string]bool{
			"what": true, "why": true, "how": true, "where": true, "who": true,
			"whom": true, "whose": true, "which": true,
		},
	}
	l.addVocabulary()
	return l
}

// addVocabulary sets the word lists of the clauses' content: stopwords,
// antonyms, adjectives and their forms.
func (l *lexicon) addVocabulary() {
	// clauseBreaks are words that start a new clause.
	l.clauseBreaks = map[string]bool{
		"but": true, "because": true, "although": true, "though": true,
		"while": true, "whereas": true, "yet": true, "since": true,
	}
	// stopwords carry no content of their own for matching.
	l.stopwords = setOf(`a an the this that these those there here then than as
	at by for from in into of off on onto out over to under up with within about
	above after against along among around before behind below beside between
	beyond down during inside near outside per through toward towards upon via
	and or but so because although though while whereas yet since also too
	very really just still now currently actually honestly even already quite
	pretty much many more most less least some any all every each either other
	another such only own same both few lot lots kind sort way thing things bit
	be been being am is are was were do does did done doing 's 're 'm 've 'll 'd
	will would can could shall should must may might ought
	someone somebody something everyone everybody everything anyone anybody
	anything one ones yes yeah ok okay please thanks thank oh well hi hello
	again ever always often usually sometimes anyway else instead though
	etc`)
	// weakWords are verbs of knowing and saying that, alone, make a clause too
	// thin to contradict anything ("I don't know", "I think so").
	l.weakWords = setOf(`know think sure mean guess believe care mind worry
	understand see say tell`)
	// timeWords are kept exact (not stemmed), like names and numbers.
	l.timeWords = setOf(`today tonight yesterday tomorrow morning mornings
	evening evenings night nights afternoon afternoons weekend weekends week
	weeks month months year years monday mondays tuesday tuesdays wednesday
	wednesdays thursday thursdays friday fridays saturday saturdays sunday
	sundays`)
	// antonyms maps a word to the word it denies. "The door is closed" reads as
	// "the door is not open", so a pair of antonyms lines up like a negation,
	// and "not closed" agrees with "open". Only words that name a state are
	// listed: "I opened the door" and "I closed the door" are events, and their
	// frames (past) differ from a state's anyway.
	l.antonyms = map[string]string{
		"closed": "open", "shut": "open",
		"dead":  "alive",
		"false": "true",
		"hate":  "like", "hates": "like", "hated": "like",
		"dislike": "like", "dislikes": "like", "disliked": "like",
		"disabled": "enabled",
		"single":   "married", "unmarried": "married",
		"empty":  "full",
		"lost":   "won",
		"failed": "passed", "fails": "passes", "fail": "pass",
		"invalid":  "valid",
		"disagree": "agree", "disagrees": "agree", "disagreed": "agreed",
		"incorrect":   "correct",
		"impossible":  "possible",
		"unavailable": "available",
		"unable":      "able",
		"asleep":      "awake",
		"absent":      "present",
		"inactive":    "active",
		"offline":     "online",
		"unhappy":     "happy",
		"illegal":     "legal",
		"unsafe":      "safe",
		"unnecessary": "necessary",
	}
	// adjectives are the antonyms that name a state only as a predicate.
	l.adjectives = setOf(`closed shut dead false disabled single unmarried empty
	invalid incorrect impossible unavailable unable asleep absent inactive offline
	unhappy illegal unsafe unnecessary`)
	// irregular maps irregular verb forms to their base form; the bool tells a
	// past form, which sets the clause's frame when no auxiliary does.
	l.irregular = map[string]irregularForm{
		"went": {"go", true}, "goes": {"go", false}, "gone": {"go", false}, "ran": {"run", true},
		"ate": {"eat", true}, "eaten": {"eat", false}, "saw": {"see", true},
		"seen": {"see", false}, "took": {"take", true}, "taken": {"take", false},
		"made": {"make", true}, "got": {"get", true}, "gotten": {"get", false},
		"came": {"come", true}, "left": {"leave", true}, "bought": {"buy", true},
		"brought": {"bring", true}, "thought": {"think", true}, "told": {"tell", true},
		"said": {"say", true}, "knew": {"know", true}, "known": {"know", false},
		"found": {"find", true}, "gave": {"give", true}, "given": {"give", false},
		"wrote": {"write", true}, "written": {"write", false}, "drove": {"drive", true},
		"driven": {"drive", false}, "began": {"begin", true}, "begun": {"begin", false},
		"kept": {"keep", true}, "met": {"meet", true}, "paid": {"pay", true},
		"sent": {"send", true}, "spent": {"spend", true}, "sold": {"sell", true},
		"taught": {"teach", true}, "caught": {"catch", true}, "felt": {"feel", true},
		"held": {"hold", true}, "won": {"win", true}, "lost": {"lose", true},
		"slept": {"sleep", true}, "swam": {"swim", true}, "sang": {"sing", true},
		"spoke": {"speak", true}, "spoken": {"speak", false}, "stood": {"stand", true},
		"understood": {"understand", true}, "built": {"build", true},
		"chose": {"choose", true}, "chosen": {"choose", false}, "fell": {"fall", true},
		"flew": {"fly", true}, "grew": {"grow", true}, "heard": {"hear", true},
		"led": {"lead", true}, "meant": {"mean", true}, "rode": {"ride", true},
		"ridden": {"ride", false}, "sat": {"sit", true}, "threw": {"throw", true},
		"wore": {"wear", true}, "woke": {"wake", true}, "broke": {"break", true},
		"broken": {"break", false}, "forgot": {"forget", true},
		"forgotten": {"forget", false}, "drank": {"drink", true}, "drunk": {"drink", false},
		"had": {"have", true}, "has": {"have", false}, "having": {"have", false},
	}
	// numberWords are spelled numbers, kept exact as digits.
	l.numberWords = map[string]string{
		"zero": "0", "two": "2", "three": "3", "four": "4", "five": "5",
		"six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10",
		"eleven": "11", "twelve": "12", "twenty": "20", "hundred": "100",
	}
	// determiners may follow an auxiliary that opens a question ("Is the ...").
	l.determiners = setOf(`the a an this that these those my your our his her
	their its there any`)
	// beForms are the forms of "be" an adjective predicate follows.
	l.beForms = setOf(`am is are was were be been being 's 're 'm`)
	// adverbs may stand between a form of "be" and its adjective.
	l.adverbs = setOf(`still now really very already currently actually also
	just always never completely totally quite`)
}
