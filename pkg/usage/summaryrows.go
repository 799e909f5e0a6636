package usage

import (
	"cmp"
	"math"
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
//
// A response several rows record ([transcript.Message.Response]) counts once:
// the first time a summary is made of the rows ([NewSummary]) or one is read
// ([SessionSummaries.At]), the rows added since are settled in the order added,
// the first to record a response keeping it and the later ones counting it in
// [SessionSummary.RepeatedResponses] instead. Rows added after that are settled
// among themselves only.
type SessionSummaries struct {
	// chunks hold the rows, rowChunk a chunk: they grow without a copy
	// of those before (a slice's growth held the old array and the new,
	// 1.25 times the size, at once).
	chunks []*rowChunk
	n      int
	// order, when set, is the rows' order: row order[i] is the i-th (a
	// sorted view shares its rows with what it was sorted from).
	order   []int32
	origins map[sessionOrigin]*sessionOrigin
	// settled is how many rows, in the order added, countOnce has
	// settled (each response counted once).
	settled int
}

// rowsPerChunk is how many rows a [rowChunk] holds.
const rowsPerChunk = 1024

// maxChunkNames is the most bytes of ids a [rowChunk] keeps in names,
// as its rows' uint32 offsets reach (a variable for the tests).
var maxChunkNames = math.MaxUint32 - 1

// rowChunk is rowsPerChunk rows and their conversations' ids, one after
// another in names (an id kept as a string of its own took 16 bytes
// more, and its own allocation).
type rowChunk struct {
	rows  []sessionRow
	names []byte
	// long holds, by their row's place in the chunk, the ids that would
	// take names past 4 GiB (never in practice).
	long map[int]string
}

// sessionRow is one finished session of a [SessionSummaries]: 56 bytes.
type sessionRow struct {
	origin *sessionOrigin
	tally  *sessionTally // nil when the session records no usage
	// messages counts the messages, as [SessionSummary.Messages].
	messages int
	// start (seconds and nanoseconds) and end (seconds) are the first
	// and last message times, Unix, in UTC; start is the zero time's
	// when no message records one.
	start, end int64
	startNanos int32
	// name and nameLen place the conversation's id in its chunk's names.
	name, nameLen uint32
}

// sessionOrigin is where a session was read and who wrote it.
type sessionOrigin struct{ file, project, format, session string }

// sessionTally is the usage of a session that records some: in all and
// per model, and per UTC day ([SessionSummary] keeps the same).
type sessionTally struct {
	usage UsageTally
	days  map[string]*UsageTally
	// responses are the calls that name their response, until
	// [SessionSummaries.countOnce] settles the row; repeated is what it
	// took out as repeats.
	responses keyedCalls
	repeated  repeats
	// unrecorded is [SessionSummary.UnrecordedCalls] (a session that
	// counts some records usage, so has a tally).
	unrecorded int
}

// Len is the number of sessions.
func (ss *SessionSummaries) Len() int { return ss.n }

// At builds the summary of the i-th session, finished; it shares its
// usage with the row, so it takes no more messages ([SessionSummary.Add]).
func (ss *SessionSummaries) At(i int) *SessionSummary {
	r := ss.row(i)
	s := &SessionSummary{File: r.origin.file, Conversation: ss.conv(i), Format: r.origin.format, Project: r.origin.project, Session: r.origin.session,
		Messages: r.messages,
		start:    time.Unix(r.start, int64(r.startNanos)).UTC(), end: time.Unix(r.end, 0).UTC()}
	if r.tally != nil {
		ss.countOnce()
		s.usage, s.days, s.repeated = r.tally.usage, r.tally.days, r.tally.repeated
		s.UnrecordedCalls = r.tally.unrecorded
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
		r := sessionRow{origin: ss.origin(sessionOrigin{s.File, s.Project, s.Format, s.Session}),
			messages: s.Messages, start: s.start.Unix(), startNanos: int32(s.start.Nanosecond()), end: s.end.Unix()}
		if s.usage.Total != nil || s.usage.byModel != nil || s.usage.priced || s.days != nil {
			r.tally = &sessionTally{usage: s.usage, days: s.days, responses: s.responses.settled(), unrecorded: s.UnrecordedCalls}
		}
		ss.push(&r, s.Conversation)
	}
}

// push adds r, of conversation conv, after the rows there are.
func (ss *SessionSummaries) push(r *sessionRow, conv string) {
	if ss.n%rowsPerChunk == 0 {
		ss.chunks = append(ss.chunks, &rowChunk{rows: make([]sessionRow, 0, rowsPerChunk)})
	}
	c := ss.chunks[len(ss.chunks)-1]
	if len(c.names)+len(conv) > maxChunkNames {
		if c.long == nil {
			c.long = map[int]string{}
		}
		c.long[len(c.rows)] = conv
		r.name, r.nameLen = math.MaxUint32, 0
	} else {
		r.name, r.nameLen = uint32(len(c.names)), uint32(len(conv))
		c.names = append(c.names, conv...)
	}
	c.rows = append(c.rows, *r)
	if ss.order != nil {
		ss.order = append(ss.order, int32(ss.n))
	}
	ss.n++
}

// stored is row j in the order added.
func (ss *SessionSummaries) stored(j int) *sessionRow {
	return &ss.chunks[j/rowsPerChunk].rows[j%rowsPerChunk]
}

// storedConv is the conversation id of row j in the order added.
func (ss *SessionSummaries) storedConv(j int) string {
	c := ss.chunks[j/rowsPerChunk]
	r := &c.rows[j%rowsPerChunk]
	if r.name == math.MaxUint32 {
		return c.long[j%rowsPerChunk]
	}
	return string(c.names[r.name : r.name+r.nameLen])
}

// conv is the conversation id of the i-th session.
func (ss *SessionSummaries) conv(i int) string {
	if ss.order != nil {
		return ss.storedConv(int(ss.order[i]))
	}
	return ss.storedConv(i)
}

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
		return ss.stored(int(ss.order[i]))
	}
	return ss.stored(i)
}

// appendAll adds o's sessions after ss's: when ss's chunks are full and
// o is in the order added, o's chunks themselves (a file's rows are not
// copied into the report's, which held both at once).
func (ss *SessionSummaries) appendAll(o *SessionSummaries) {
	if ss.n%rowsPerChunk != 0 || o.order != nil {
		for i := range o.Len() {
			r := *o.row(i)
			ss.push(&r, o.conv(i))
		}
		return
	}
	ss.chunks = append(ss.chunks, o.clippedChunks()...)
	if ss.order != nil {
		for j := range o.n {
			ss.order = append(ss.order, int32(ss.n+j))
		}
	}
	ss.n += o.n
}

// clippedChunks is a list of ss's chunks of its own, the last clipped:
// a row added to ss or to what takes the list is not seen by the other.
func (ss *SessionSummaries) clippedChunks() []*rowChunk {
	chunks := slices.Clone(ss.chunks)
	if k := len(chunks); k > 0 {
		last := *chunks[k-1]
		last.rows, last.names = slices.Clip(last.rows), slices.Clip(last.names)
		chunks[k-1] = &last
	}
	return chunks
}

// only keeps the i-th session alone.
func (ss *SessionSummaries) only(i int) {
	r, conv := *ss.row(i), ss.conv(i)
	*ss = SessionSummaries{}
	ss.push(&r, conv)
}

// byStart is a view of ss by start time, those with no timestamp last,
// each in the order added: it shares ss's rows.
func (ss *SessionSummaries) byStart() SessionSummaries {
	order := slices.Clone(ss.order)
	if order == nil {
		order = make([]int32, ss.Len())
		for i := range order {
			order[i] = int32(i)
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		ra, rb := ss.stored(int(a)), ss.stored(int(b))
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
	return SessionSummaries{chunks: ss.clippedChunks(), n: ss.n, order: order, settled: ss.settled}
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
