// Package conflicts finds pairs of texts in which one denies what the other
// states ("I live in Boston" / "I no longer live in Boston"), so that a
// model handed both can be told which one came later or which to trust.
//
// It is experimental and built for precision: a false alarm costs the
// model more than a missed conflict, so every rule below refuses a pair
// when in doubt.
//
// # The model
//
// Each text is cut into sentences and each sentence into clauses (at
// commas, at "but", "because", "while" …, and at "and"/"or" when a new
// subject, an auxiliary or a negation follows). Questions (a question mark,
// or an opening such as "Do you" or "Why") and conditional or hedged
// sentences ("if", "unless", "when", "maybe", "might" …) are set aside
// whole: they neither state nor deny. So are asides in parentheses, clauses
// whose subject is "it", "this", "that", "these" or "those" (across texts
// they seldom point at the same thing), and fragments that open with a past
// participle ("sent to the model").
//
// A clause is negative when it holds a negation cue: not, n't, never, no,
// none, nobody, nothing, nowhere, neither, nor, without, cannot, no longer,
// no one, gave up, and stopped or quit before a verb in -ing or a possessive
// ("stopped smoking", "quit my job"). "anymore" marks a negation as a change
// of state and names the cue. "not only", "not always", "not necessarily"
// (and a few more partial negations), "no doubt" and "no matter" are not
// cues. A few state antonyms count as a negation of their opposite
// ("closed" reads as "not open", "hate" as "not like"), so "not closed"
// agrees with "open"; an adjective antonym counts only after a form of "be".
//
// What is left once the cues are set aside is a set of content keys:
// words that are not function words, lightly stemmed ("lives", "living" →
// "liv"; "went" → "go"), with numbers (spelled or in digits), names
// (capitalised inside a sentence) and time words (Friday, yesterday …) kept
// exact.
//
// # The rules
//
// A positive clause S (the statement) and a negative clause D (the denial)
// from two different texts conflict when all of these hold:
//
//   - every key of D is in S: the denial may say less than the statement
//     ("I don't live in Boston" against "I live in Boston with my wife"),
//     never more ("I don't like coffee with sugar" does not deny "I like
//     coffee");
//   - D has at least two keys, or both have exactly one ("I smoke" / "I
//     stopped smoking");
//   - they are in the same frame: the first auxiliary or modal (present,
//     past, will, can, could …), or without one, past when the first verb
//     looks past; "I lived in Boston" does not conflict with "I don't live
//     in Boston", nor "I used to smoke" with "I stopped smoking";
//   - they have the same subject: S has no content word of its own before
//     the first shared one ("My sister lives in Boston" against "I don't
//     live in Boston"), the first pronouns, when both have one, name the
//     same person, and the quantifiers there are of the same kinds ("the
//     bug" against "the other bug", "the lab is open" against "nobody is in
//     the lab");
//   - the score, 2·|D| / (|S| + |D|), is at least [Options.MinScore]
//     (default [DefaultMinScore], 0.5).
//
// Clauses are indexed by key, and a denial is compared only with the
// statements that hold its rarest key, so the work grows with the number of
// texts that share words, not with the square of the number of texts.
// Reading one text is linear in its length, however long its clauses, and
// [Find] and [Each] stop once their context is done. [Each] passes the
// pairs on one denial at a time, so what it holds does not grow with the
// number of pairs; past [Options.MaxPairs] ([DefaultMaxPairs]) pairs are
// counted in [Stats.Cut], not reported.
//
// # Notes
//
// [Note] formats the note a caller writes after a denial, and [Annotate]
// appends notes without repeating one already there. Text inside notes is
// ignored when texts are read, so annotated texts can be read again.
// [Notes] picks, for texts with ids and timestamps ([Text]), which text
// bears which note, and [NewReport] builds harpe conflicts' report.
// A [Source] gathers texts from inputs (one a line, or context items)
// and writes the inputs back with the notes, every other byte as read.
package conflicts
