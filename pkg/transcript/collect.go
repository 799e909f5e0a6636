package transcript

import (
	"context"
	"io"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Build names what [Collect] builds of each conversation.
type Build int

// What [Collect] builds.
const (
	// BuildSummary builds a [SessionSummary] of each conversation.
	BuildSummary Build = iota
	// BuildListing builds its [Listing].
	BuildListing
	// BuildBreakdown builds its [SessionBreakdown].
	BuildBreakdown
	// BuildItems writes its messages as context items ([ItemWriter]).
	BuildItems
)

// CollectOptions tune [Collect].
type CollectOptions struct {
	// Format is the input's format ("" detects it; see [Read]).
	Format Format
	// Build is what to build of each conversation.
	Build Build
	// Counter counts the tokens of the listings and breakdowns (nil: the
	// listings' token counts stay 0; a breakdown needs one).
	Counter tokenize.Counter
	// Pricer prices the recorded calls of the summaries, listings and
	// breakdowns (nil: no cost).
	Pricer Pricer
	// Progress, when set, is called after every [ProgressEvery] messages
	// with the number read so far.
	Progress func(messages int)
}

// ProgressEvery is how many messages [Collect] reads between calls of
// [CollectOptions.Progress].
const ProgressEvery = 100000

// Collected is what [Collect] built of one input: one entry per
// conversation, in the order of Transcripts, in the slice Build chose
// (the others are nil).
type Collected struct {
	// Transcripts are the conversations read, without their messages
	// (see [Scan]).
	Transcripts []*Transcript
	Summaries   []*SessionSummary
	Listings    []*Listing
	Breakdowns  []*SessionBreakdown
	Items       [][]Item
	// Aborted counts, for BuildItems, the messages of aborted turns left
	// out (they are not context).
	Aborted int
}

// Append adds o's conversations after c's.
func (c *Collected) Append(o *Collected) {
	c.Transcripts = append(c.Transcripts, o.Transcripts...)
	c.Summaries = append(c.Summaries, o.Summaries...)
	c.Listings = append(c.Listings, o.Listings...)
	c.Breakdowns = append(c.Breakdowns, o.Breakdowns...)
	c.Items = append(c.Items, o.Items...)
	c.Aborted += o.Aborted
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
	a, b = one(len(c.Summaries))
	c.Summaries = c.Summaries[a:b]
	a, b = one(len(c.Listings))
	c.Listings = c.Listings[a:b]
	a, b = one(len(c.Breakdowns))
	c.Breakdowns = c.Breakdowns[a:b]
	a, b = one(len(c.Items))
	c.Items = c.Items[a:b]
}

// Collect reads the conversations in r (named name in errors; see
// [Scan]) and builds, as their messages settle, what o.Build names of
// each: a large transcript costs what is built of it, not its text. A
// summary's project is the working directory the file's first lines
// record ([ProjectDir]). Bad input, and totals past the largest int, are
// an [*Error] naming the input (and the line where the format has them);
// it stops once ctx is done and returns ctx's error.
func Collect(ctx context.Context, r io.Reader, name string, o CollectOptions) (*Collected, error) {
	var head *inputs.HeadReader
	if o.Build == BuildSummary {
		head = &inputs.HeadReader{R: r}
		r = head
	}
	c := &collector{o: o, name: name, head: head, at: map[*Transcript]int{}, items: &ItemWriter{File: name}}
	n := 0
	ts, err := Scan(ctx, r, name, o.Format, func(t *Transcript, m *Message) error {
		if err := c.add(t, m); err != nil {
			return err
		}
		if n++; n%ProgressEvery == 0 && o.Progress != nil {
			o.Progress(n)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	return c.finish(ts)
}

// collector builds, for each conversation in the order its first message
// came, what CollectOptions.Build names.
type collector struct {
	o    CollectOptions
	name string
	head *inputs.HeadReader
	// proj is ProjectDir of the head when it was projLen bytes long: the
	// head only grows, so a file of many conversations looks at its head
	// once per read that extends it, not once per conversation (200,000
	// ShareGPT conversations each scanned a 1 MiB head: over 10 minutes).
	proj    string
	projLen int
	at      map[*Transcript]int // conversation → its index in the slices below
	out     Collected
	items   *ItemWriter
}

func (c *collector) add(t *Transcript, m *Message) error {
	k, ok := c.at[t]
	if !ok {
		k = len(c.at)
		c.at[t] = k
		c.start()
	}
	switch c.o.Build {
	case BuildBreakdown:
		return c.out.Breakdowns[k].Add(t, m)
	case BuildItems:
		if it, ok := c.items.Item(t, m); ok {
			c.out.Items[k] = append(c.out.Items[k], it)
		}
		return nil
	case BuildListing:
		return c.out.Listings[k].Add(m)
	default:
		return c.out.Summaries[k].Add(m)
	}
}

// start adds an empty entry for a new conversation.
func (c *collector) start() {
	switch c.o.Build {
	case BuildBreakdown:
		c.out.Breakdowns = append(c.out.Breakdowns, c.newBreakdown())
	case BuildItems:
		c.out.Items = append(c.out.Items, nil)
	case BuildListing:
		c.out.Listings = append(c.out.Listings, &Listing{Counter: c.o.Counter, Pricer: c.o.Pricer})
	default:
		c.out.Summaries = append(c.out.Summaries, c.newSummary())
	}
}

func (c *collector) newBreakdown() *SessionBreakdown {
	s := NewSessionBreakdown(c.name, c.o.Counter)
	s.Pricer = c.o.Pricer
	return s
}

// project is the project of the file's summaries: ProjectDir of its head
// as read so far.
func (c *collector) project() string {
	head := c.head.Head()
	if len(head) != c.projLen || c.projLen == 0 {
		c.proj, c.projLen = ProjectDir(head), len(head)
	}
	return c.proj
}

func (c *collector) newSummary() *SessionSummary {
	s := NewSessionSummary(c.name, c.project())
	s.Pricer = c.o.Pricer
	return s
}

// finish orders the entries as the transcripts returned (a conversation
// with no message never reached add and gets an empty one) and finishes
// each.
func (c *collector) finish(ts []*Transcript) (*Collected, error) {
	out := &Collected{Transcripts: ts, Aborted: c.items.Aborted}
	for _, t := range ts {
		k, ok := c.at[t]
		var err error
		switch c.o.Build {
		case BuildBreakdown:
			s := c.newBreakdown()
			if ok {
				s = c.out.Breakdowns[k]
			}
			err = s.Finish(t)
			out.Breakdowns = append(out.Breakdowns, s)
		case BuildItems:
			var items []Item
			if ok {
				items = c.out.Items[k]
			}
			out.Items = append(out.Items, items)
		case BuildListing:
			l := &Listing{Pricer: c.o.Pricer}
			if ok {
				l = c.out.Listings[k]
			}
			err = l.SetHeader(t)
			l.File = c.name
			out.Listings = append(out.Listings, l)
		default:
			s := c.newSummary()
			if ok {
				s = c.out.Summaries[k]
			}
			err = s.Finish(t)
			out.Summaries = append(out.Summaries, s)
		}
		if err != nil {
			return nil, &Error{Name: c.name, Err: err}
		}
	}
	return out, nil
}
