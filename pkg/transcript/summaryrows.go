package transcript

import (
	"cmp"
	"slices"
	"time"
)

// SessionSummaries are finished session summaries, in the order added,
// each kept as a compact row of what [Summary] writes of it: its counts
// and times as fixed-size numbers, its file, project and format shared
// with the other sessions that have the same, and its usage only when it
// records some. A [SessionSummary] is built from a row when asked for
// ([SessionSummaries.At]): a file of 200,000 short conversations kept
// 200,000 of them, 368 B each, about 9 times the file's size at its peak.
// The zero value is empty and ready to use; like a slice, a copy shares
// its rows with the original, so add to one of them only.
type SessionSummaries struct {
	// chunks hold the rows, rowChunk a chunk: they grow without a copy
	// of those before (a slice's growth held the old array and the new,
	// 1.25 times the size, at once).
	chunks [][]sessionRow
	n      int
	// order, when set, is the rows' order: row order[i] is the i-th (a
	// sorted view shares its rows with what it was sorted from).
	order   []int
	origins map[sessionOrigin]*sessionOrigin
}

// rowChunk is how many rows a chunk of [SessionSummaries] holds.
const rowChunk = 1024

// sessionRow is one finished session of a [SessionSummaries].
type sessionRow struct {
	origin *sessionOrigin
	conv   string
	tally  *sessionTally // nil when the session records no usage
	// messages counts the messages, as [SessionSummary.Messages].
	messages int
	// start (seconds and nanoseconds) and end (seconds) are the first
	// and last message times, Unix, in UTC; start is the zero time's
	// when no message records one.
	start, end int64
	startNanos int32
}

// sessionOrigin is where a session was read and who wrote it.
type sessionOrigin struct{ file, project, format string }

// sessionTally is the usage of a session that records some: in all and
// per model, and per UTC day ([SessionSummary] keeps the same).
type sessionTally struct {
	usage UsageTally
	days  map[string]*UsageTally
}

// Len is the number of sessions.
func (ss *SessionSummaries) Len() int { return ss.n }

// At builds the summary of the i-th session, finished; it shares its
// usage with the row, so it takes no more messages ([SessionSummary.Add]).
func (ss *SessionSummaries) At(i int) *SessionSummary {
	r := ss.row(i)
	s := &SessionSummary{File: r.origin.file, Conversation: r.conv, Format: r.origin.format, Project: r.origin.project,
		Messages: r.messages,
		start:    time.Unix(r.start, int64(r.startNanos)).UTC(), end: time.Unix(r.end, 0).UTC()}
	if r.tally != nil {
		s.usage, s.days = r.tally.usage, r.tally.days
	}
	s.settle()
	return s
}

// Add adds sessions, each finished ([SessionSummary.Finish]). A row
// keeps a session's names, message count, times and usage; At works
// Start, End, Recorded, Models and the cost out again from those, so a
// change made to those fields of s is not kept.
func (ss *SessionSummaries) Add(sessions ...*SessionSummary) {
	for _, s := range sessions {
		r := sessionRow{origin: ss.origin(sessionOrigin{s.File, s.Project, s.Format}), conv: s.Conversation,
			messages: s.Messages, start: s.start.Unix(), startNanos: int32(s.start.Nanosecond()), end: s.end.Unix()}
		if s.usage.Total != nil || s.usage.byModel != nil || s.usage.priced || s.days != nil {
			r.tally = &sessionTally{usage: s.usage, days: s.days}
		}
		ss.push(&r)
	}
}

// push adds r after the rows there are.
func (ss *SessionSummaries) push(r *sessionRow) {
	if ss.n%rowChunk == 0 {
		ss.chunks = append(ss.chunks, make([]sessionRow, 0, rowChunk))
	}
	last := &ss.chunks[len(ss.chunks)-1]
	*last = append(*last, *r)
	if ss.order != nil {
		ss.order = append(ss.order, ss.n)
	}
	ss.n++
}

// stored is row j in the order added.
func (ss *SessionSummaries) stored(j int) *sessionRow { return &ss.chunks[j/rowChunk][j%rowChunk] }

// origin is the one copy of o the rows share.
func (ss *SessionSummaries) origin(o sessionOrigin) *sessionOrigin {
	if ss.n > 0 {
		if last := ss.stored(ss.n - 1).origin; *last == o {
			return last // the usual case: a file's sessions come together
		}
	}
	if p := ss.origins[o]; p != nil {
		return p
	}
	if ss.origins == nil {
		ss.origins = map[sessionOrigin]*sessionOrigin{}
	}
	p := &o
	ss.origins[o] = p
	return p
}

func (ss *SessionSummaries) row(i int) *sessionRow {
	if ss.order != nil {
		return ss.stored(ss.order[i])
	}
	return ss.stored(i)
}

// appendAll adds o's sessions after ss's: when ss's chunks are full and
// o is in the order added, o's chunks themselves (a file's rows are not
// copied into the report's, which held both at once).
func (ss *SessionSummaries) appendAll(o *SessionSummaries) {
	if ss.n%rowChunk != 0 || o.order != nil {
		for i := range o.Len() {
			ss.push(o.row(i))
		}
		return
	}
	ss.chunks = append(ss.chunks, o.clippedChunks()...)
	if ss.order != nil {
		for j := range o.n {
			ss.order = append(ss.order, ss.n+j)
		}
	}
	ss.n += o.n
}

// clippedChunks is a list of ss's chunks of its own, the last clipped:
// a row added to ss or to what takes the list is not seen by the other.
func (ss *SessionSummaries) clippedChunks() [][]sessionRow {
	chunks := slices.Clone(ss.chunks)
	if k := len(chunks); k > 0 {
		chunks[k-1] = slices.Clip(chunks[k-1])
	}
	return chunks
}

// only keeps the i-th session alone.
func (ss *SessionSummaries) only(i int) {
	r := *ss.row(i)
	*ss = SessionSummaries{}
	ss.push(&r)
}

// byStart is a view of ss by start time, those with no timestamp last,
// each in the order added: it shares ss's rows.
func (ss *SessionSummaries) byStart() SessionSummaries {
	order := slices.Clone(ss.order)
	if order == nil {
		order = make([]int, ss.Len())
		for i := range order {
			order[i] = i
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := ss.stored(a), ss.stored(b)
		za, zb := ra.noStart(), rb.noStart()
		switch {
		case za && zb:
			return 0
		case za:
			return 1
		case zb:
			return -1
		}
		return cmp.Or(cmp.Compare(ra.start, rb.start), cmp.Compare(ra.startNanos, rb.startNanos))
	})
	return SessionSummaries{chunks: ss.clippedChunks(), n: ss.n, order: order}
}

// zeroUnix is the zero time's Unix seconds.
var zeroUnix = time.Time{}.Unix()

// noStart says whether no message of the session records a time.
func (r *sessionRow) noStart() bool { return r.start == zeroUnix && r.startNanos == 0 }

// emptyTally is the usage of a session that records none.
var emptyTally UsageTally

// tallies are the session's usage and its days (nil when it records no
// usage); not to be changed.
func (r *sessionRow) tallies() (*UsageTally, map[string]*UsageTally) {
	if r.tally == nil {
		return &emptyTally, nil
	}
	return &r.tally.usage, r.tally.days
}
