// Package sessions replays a stream of sessions through the same
// strategies and hands each one's report, calls or totals to a [Sink] in
// input order, replaying a few ahead at once where their calls are held
// anyway, and sums the totals of several ([Report]).
//
// It is a package of its own, not an option of [window.Replay], because
// it is a concept of its own: [window.Replay] replays one transcript and
// returns its results, while this is a pipeline over many — it decides
// how each session is replayed (calls streamed, held, or only totals)
// from whether there are several, keeps memory to a few sessions, names
// each failure by its file ([Error]) and aggregates across sessions.
// None of that concerns a caller replaying one transcript.
package sessions
