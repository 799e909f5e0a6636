package usage

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Build names what [Collect] builds of each conversation.
type Build int

// What [Collect] builds.
const (
	// BuildSummary builds a [SessionSummary] of each conversation, kept
	// as a compact row ([SessionSummaries]).
	BuildSummary Build = iota
	// BuildListing builds its [Listing].
	BuildListing
	// BuildBreakdown builds its [SessionBreakdown].
	BuildBreakdown
	// BuildItems writes its messages as context items
	// ([transcript.ItemWriter]).
	BuildItems
)

// CollectOptions tune [Collect].
type CollectOptions struct {
	// Format is the input's format ("" detects it; see [transcript.Read]).
	Format transcript.Format
	// Build is what to build of each conversation.
	Build Build
	// Counter counts the tokens of the listings and breakdowns (nil: the
	// listings' token counts stay 0; a breakdown needs one).
	Counter tokenize.Counter
	// Catalog prices the recorded calls of the summaries, listings and
	// breakdowns ([CallCost]; nil: no cost).
	Catalog *prices.Catalog
	// Progress, when set, is called after every [ProgressEvery] messages
	// with the number read so far.
	Progress func(messages int)
	// KeepSkipped keeps, for each conversation, the records read that
	// are not messages, by kind ([Collected.Skipped]).
	KeepSkipped bool
}

// ProgressEvery is how many messages [Collect] reads between calls of
// [CollectOptions.Progress].
const ProgressEvery = 100000

// Collected is what [Collect] built of one input: one entry per
// conversation, in input order, in the field Build chose (the others are
// empty).
type Collected struct {
	// Transcripts are the conversations read, without their messages
	// (see [transcript.Scan]); nil for BuildSummary, whose summaries name each
	// conversation ([SessionSummary.Conversation]): a file of 200,000
	// short conversations kept 200,000 transcripts of 192 B each.
	Transcripts []*transcript.Transcript
	// Warnings are every conversation's [transcript.Transcript.Warnings], in
	// order.
	Warnings   []*transcript.Error
	Summaries  SessionSummaries
	Listings   []*Listing
	Breakdowns []*SessionBreakdown
	Items      [][]transcript.Item
	// Aborted counts, for BuildItems, the messages of aborted turns left
	// out (they are not context).
	Aborted int
	// BrokenLines counts the lines of JSON Lines session logs that were not
	// JSON, skipped ([transcript.Transcript.BrokenLines]); BrokenAt places the
	// ones named in warnings, "file:line:column", in order.
	BrokenLines int
	BrokenAt    []string
	// Skipped are, under [CollectOptions.KeepSkipped], the records of each
	// conversation that are not messages, by kind
	// ([transcript.Transcript.Skipped]); conversations with none are left out.
	Skipped []SkippedRecords
}

// SkippedRecords are the records of one conversation that are not
// messages, counted by kind (record types a reader does not know
// among them).
type SkippedRecords struct {
	File, Conversation string
	Kinds              map[string]int
}

// Append adds o's conversations after c's.
func (c *Collected) Append(o *Collected) {
	c.Transcripts = append(c.Transcripts, o.Transcripts...)
	c.Warnings = append(c.Warnings, o.Warnings...)
	c.Summaries.appendAll(&o.Summaries)
	c.Listings = append(c.Listings, o.Listings...)
	c.Breakdowns = append(c.Breakdowns, o.Breakdowns...)
	c.Items = append(c.Items, o.Items...)
	c.Aborted += o.Aborted
	c.BrokenLines += o.BrokenLines
	c.BrokenAt = append(c.BrokenAt, o.BrokenAt...)
	c.Skipped = append(c.Skipped, o.Skipped...)
}

// Only keeps the i-th conversation alone.
func (c *Collected) Only(i int) {
	one := func(n int) (int, int) {
		if n == 0 {
			return 0, 0
		}
		return i, i + 1
	}
	a, b := one(len(c.Transcripts))
	c.Transcripts = c.Transcripts[a:b]
	if c.Summaries.Len() > 0 {
		c.Summaries.only(i)
	}
	a, b = one(len(c.Listings))
	c.Listings = c.Listings[a:b]
	a, b = one(len(c.Breakdowns))
	c.Breakdowns = c.Breakdowns[a:b]
	a, b = one(len(c.Items))
	c.Items = c.Items[a:b]
}

// Select keeps alone the one conversation whose id is id, as
// [transcript.Select] finds it (an error names the ids there are, or where the
// id is given twice).
func (c *Collected) Select(id string) error {
	ts := c.Transcripts
	if ts == nil && c.Summaries.Len() > 0 {
		// a header of each summary's conversation, in one allocation
		// that lives only while the id is looked for
		hs := make([]transcript.Transcript, c.Summaries.Len())
		ts = make([]*transcript.Transcript, len(hs))
		for i := range hs {
			hs[i].ID = c.Summaries.conv(i)
			ts[i] = &hs[i]
		}
	}
	t, err := transcript.Select(ts, id)
	if err != nil {
		return err
	}
	c.Only(slices.Index(ts, t))
	return nil
}

// Collect reads the conversations in r (named name in errors; see
// [transcript.Scan]) and builds, as their messages settle, what o.Build names
// of each: a large transcript costs what is built of it, not its text. A
// summary's project is the working directory the file's first lines record
// ([ProjectDir]). Bad input, and totals past the largest int, are an
// [*transcript.Error] naming the input (and the line where the format has
// them); it stops once ctx is done and returns ctx's error.
func Collect(ctx context.Context, r io.Reader, name string, o CollectOptions) (*Collected, error) {
	var head *inputs.HeadReader
	if o.Build == BuildSummary {
		head = &inputs.HeadReader{R: r}
		r = head
	}
	c := &collector{o: o, name: name, head: head, open: map[*transcript.Transcript]*entry{}, items: &transcript.ItemWriter{File: name}}
	n := 0
	err := transcript.Scan(ctx, r, name, o.Format, func(t *transcript.Transcript, m *transcript.Message) error {
		if err := c.add(t, m); err != nil {
			return err
		}
		if n++; n%ProgressEvery == 0 && o.Progress != nil {
			o.Progress(n)
		}
		return ctx.Err()
	}, c.done)
	if fe, ok := errors.AsType[finishError](err); ok {
		return nil, &transcript.Error{Name: name, Err: fe.err}
	}
	if err != nil {
		return nil, err
	}
	c.out.Aborted = c.items.Aborted
	// A copy: &c.out would keep the collector, and the head of the file
	// it read (up to 1 MiB), as long as the result.
	out := c.out
	return &out, nil
}

// collector builds, for each conversation, what CollectOptions.Build
// names: an entry while its messages come, finished into out when the
// conversation ends, so that out holds the conversations in input order
// and nothing of one is kept but what is built of it.
type collector struct {
	o    CollectOptions
	name string
	head *inputs.HeadReader
	// sess is SessionID of the head, read once (sessRead).
	sess     string
	sessRead bool
	// proj is ProjectDir of the head when it was projLen bytes long: the
	// head only grows, so a file of many conversations looks at its head
	// once per read that extends it, not once per conversation (200,000
	// ShareGPT conversations each scanned a 1 MiB head: over 10 minutes).
	proj    string
	projLen int
	// projN is the prefix of the head to look at next: a smaller one
	// was whole and named no project.
	projN int
	open  map[*transcript.Transcript]*entry // the conversations begun and not yet done
	out   Collected
	items *transcript.ItemWriter
}

// finishError is an error finishing an entry, on its way out of Scan (which
// would take an [*transcript.Error] without a place for a reason to read the
// input again).
type finishError struct{ err error }

func (e finishError) Error() string { return e.err.Error() }

// entry is what is being built of one conversation: the one Build names.
type entry struct {
	summary   *SessionSummary
	listing   *Listing
	breakdown *SessionBreakdown
	items     []transcript.Item
}

func (c *collector) add(t *transcript.Transcript, m *transcript.Message) error {
	e := c.open[t]
	if e == nil {
		e = c.start()
		c.open[t] = e
	}
	switch c.o.Build {
	case BuildBreakdown:
		return e.breakdown.Add(t, m)
	case BuildItems:
		if it, ok := c.items.Item(t, m); ok {
			e.items = append(e.items, it)
		}
		return nil
	case BuildListing:
		return e.listing.Add(m)
	default:
		return e.summary.Add(m)
	}
}

// start begins an empty entry for a new conversation.
func (c *collector) start() *entry {
	switch c.o.Build {
	case BuildBreakdown:
		s := NewSessionBreakdown(c.name, c.o.Counter)
		s.Catalog = c.o.Catalog
		return &entry{breakdown: s}
	case BuildItems:
		return &entry{}
	case BuildListing:
		return &entry{listing: &Listing{Counter: c.o.Counter, Catalog: c.o.Catalog}}
	default:
		s := NewSessionSummary(c.name, c.project())
		s.Catalog = c.o.Catalog
		return &entry{summary: s}
	}
}

// project is the project of the file's summaries: ProjectDir of its head
// as read so far. The head is looked at in growing prefixes, as most
// files name their project in their first lines: ProjectDir of a prefix
// that names one is ProjectDir of the whole head (a line the prefix cuts
// is not read), so a file costs a few KiB read back, not its first MiB.
func (c *collector) project() string {
	if c.proj != "" {
		return c.proj
	}
	for {
		n := max(c.projN, 16<<10)
		head := c.head.HeadUpTo(n)
		if len(head) < n || n >= 1<<20 {
			// All of the head read so far: looked at again only once it
			// has grown.
			if len(head) != c.projLen || c.projLen == 0 {
				c.proj, c.projLen = ProjectDir(head), len(head)
			}
			return c.proj
		}
		if c.proj = ProjectDir(head); c.proj != "" {
			return c.proj
		}
		c.projN = n * 8
	}
}

// done finishes the entry of t, which has ended (a conversation with no
// message never reached add and gets an empty one), and adds it to out.
func (c *collector) done(t *transcript.Transcript) error {
	e := c.open[t]
	if e == nil {
		e = c.start()
	}
	delete(c.open, t)
	var err error
	switch c.o.Build {
	case BuildBreakdown:
		err = e.breakdown.Finish(t)
		c.out.Breakdowns = append(c.out.Breakdowns, e.breakdown)
	case BuildItems:
		c.out.Items = append(c.out.Items, e.items)
	case BuildListing:
		l := e.listing
		err = l.SetHeader(t)
		l.File = c.name
		c.out.Listings = append(c.out.Listings, l)
	default:
		if !c.sessRead {
			// Once a file: its first lines name the session, if any.
			c.sess, c.sessRead = SessionID(c.head.HeadUpTo(16<<10)), true
		}
		e.summary.Session = c.sess
		err = e.summary.Finish(t)
		c.out.Summaries.Add(e.summary)
	}
	if err != nil {
		return finishError{err}
	}
	c.out.Warnings = append(c.out.Warnings, t.Warnings...)
	if c.o.KeepSkipped && len(t.Skipped) > 0 {
		c.out.Skipped = append(c.out.Skipped, SkippedRecords{File: c.name, Conversation: t.ID, Kinds: t.Skipped})
	}
	c.out.BrokenLines += t.BrokenLines
	for _, w := range t.Warnings {
		if errors.Is(w.Err, transcript.ErrBrokenLine) {
			c.out.BrokenAt = append(c.out.BrokenAt, w.Place())
		}
	}
	if c.o.Build != BuildSummary {
		c.out.Transcripts = append(c.out.Transcripts, t)
	}
	return nil
}
