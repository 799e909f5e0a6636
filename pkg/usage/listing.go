package usage

import (
	"fmt"
	"slices"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Listing is the machine-readable account of what was read from a
// transcript: `harpe transcript --format json` writes it, and other
// tools check a replay against it. Its JSON field names are a stable
// contract.
type Listing struct {
	// File names the input the transcript was read from ("stdin" for
	// standard input).
	File   string `json:"file"`
	Format string `json:"format"`
	// Conversation is the transcript's ID when the file holds several.
	Conversation string           `json:"conversation,omitempty"`
	Messages     []ListingMessage `json:"messages"`
	Turns        int              `json:"turns"`
	Unpaired     []ListingPair    `json:"unpaired"`
	Skipped      map[string]int   `json:"skipped"`
	// Compactions are the indices of harness compaction summaries.
	Compactions []int `json:"compactions,omitempty"`
	// Recorded sums the usage the transcript records, over every call
	// (aborted ones too: the provider billed them); nil when it records
	// none.
	Recorded *RecordedUsage `json:"recorded,omitempty"`
	// CostUSD is what the recorded calls cost, each priced from Catalog
	// at its own date and size ([CallCost]), summed; absent when there is
	// no catalog or no call records its model. Models without prices count 0 and are named
	// in UnpricedModels.
	CostUSD        *float64 `json:"cost_usd,omitempty"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`

	// Counter, when set before messages are added, counts each message's
	// Tokens ([transcript.MessageTokens]); nil leaves them 0.
	Counter tokenize.Counter `json:"-"`
	// Catalog, when set before messages are added, prices each recorded
	// call; nil leaves CostUSD absent.
	Catalog *prices.Catalog `json:"-"`

	names map[string]string // tool call id → tool name, for results
	tally UsageTally
}

// RecordedUsage sums recorded usage: calls and tokens by part.
type RecordedUsage struct {
	Calls int `json:"calls"`
	transcript.Usage
}

// Add adds o's calls and tokens to r, or returns an [*engine.TokenOverflowError]
// (and leaves r as it was) when a total would not fit an int.
func (r *RecordedUsage) Add(o *RecordedUsage) error {
	s := *r
	var err error
	sumInto(&s.Calls, o.Calls, "the recorded calls", &err)
	s.Usage, err = plusUsage(s.Usage, &o.Usage, err)
	if err != nil {
		return err
	}
	*r = s
	return nil
}

func (r *RecordedUsage) add(u *transcript.Usage) error {
	return r.Add(&RecordedUsage{Calls: 1, Usage: *u})
}

// plusUsage is u + o part by part, or the first overflow (err when set).
func plusUsage(u transcript.Usage, o *transcript.Usage, err error) (transcript.Usage, error) {
	sumInto(&u.Input, o.Input, "the recorded input tokens", &err)
	sumInto(&u.CacheRead, o.CacheRead, "the recorded cache read tokens", &err)
	sumInto(&u.CacheWrite, o.CacheWrite, "the recorded cache write tokens", &err)
	sumInto(&u.CacheWrite1h, o.CacheWrite1h, "the recorded 1-hour cache write tokens", &err)
	sumInto(&u.Output, o.Output, "the recorded output tokens", &err)
	return u, err
}

// UsageTally sums the usage a transcript records, in all and per answering
// model, and, where the calls were priced ([CallCost]), what they cost. The
// zero value is empty and ready to use.
type UsageTally struct {
	// Total is nil until a message with usage is added.
	Total   *RecordedUsage
	byModel map[string]*modelTally
	priced  bool // some call was added with a catalog
}

// modelTally is one model's calls in a [UsageTally]: their usage, what
// the priced ones cost, and the calls without a price.
type modelTally struct {
	used     RecordedUsage
	usd      float64
	unpriced RecordedUsage
}

// Add counts m's usage, if it records any, priced from cat (nil: not
// priced). A total that would not fit an int is an
// [*engine.TokenOverflowError]; the tally is then left as it was.
func (t *UsageTally) Add(m *transcript.Message, cat *prices.Catalog) error {
	if m.Usage == nil {
		return nil
	}
	return t.AddUsage(m.Model, m.Timestamp, m.Usage, cat)
}

// AddUsage counts one call's usage u, answered by model at time at (zero
// when not recorded), priced from cat (nil: not priced). Totals that do not
// fit an int are an [*engine.TokenOverflowError]; the tally is then left
// as it was.
func (t *UsageTally) AddUsage(model string, at time.Time, u *transcript.Usage, cat *prices.Catalog) error {
	return t.addCall(model, u, priceCall(cat, model, at, u))
}

// addCall counts one call's usage u, answered by model, whose cost c is
// already known.
func (t *UsageTally) addCall(model string, u *transcript.Usage, c callCost) error {
	var total RecordedUsage
	if t.Total != nil {
		total = *t.Total
	}
	var mt modelTally
	if r := t.byModel[model]; r != nil {
		mt = *r
	}
	if err := total.add(u); err != nil {
		return err
	}
	if err := mt.used.add(u); err != nil {
		return err
	}
	switch {
	case c.priced:
		mt.usd += c.usd
	case c.offered:
		if err := mt.unpriced.add(u); err != nil {
			return err
		}
	}
	if t.byModel == nil {
		t.byModel = map[string]*modelTally{}
	}
	t.Total = &total
	t.byModel[model] = &mt
	t.priced = t.priced || c.offered
	return nil
}

// AddUnsent counts the usage of t's calls that are not part of its conversation
// ([transcript.Transcript.Unsent]), priced from cat (nil: not priced).
func (t *UsageTally) AddUnsent(tr *transcript.Transcript, cat *prices.Catalog) error {
	for i := range tr.Unsent {
		c := &tr.Unsent[i]
		if err := t.AddUsage(c.Model, c.Time, &c.Usage, cat); err != nil {
			return fmt.Errorf("unsent call %d: %w", i+1, err)
		}
	}
	return nil
}

// ByModel returns the usage summed per answering model ("" for calls
// that record none), models sorted.
func (t *UsageTally) ByModel() (models []string, usage []RecordedUsage) {
	for _, m := range t.models() {
		models = append(models, m)
		usage = append(usage, t.byModel[m].used)
	}
	return models, usage
}

func (t *UsageTally) models() []string {
	models := make([]string, 0, len(t.byModel))
	for m := range t.byModel {
		models = append(models, m)
	}
	slices.Sort(models)
	return models
}

// RecordedByModel returns the recorded usage summed per answering model
// ("" for calls that record none), models sorted.
func (l *Listing) RecordedByModel() (models []string, usage []RecordedUsage) {
	return l.tally.ByModel()
}

// ListingMessage is one message of a [Listing].
type ListingMessage struct {
	Index int    `json:"index"`
	Role  string `json:"role"`
	Turn  int    `json:"turn"`
	// Chars is [transcript.Message.Chars]: text plus tool-call names and
	// arguments.
	Chars int `json:"chars"`
	// ToolCalls are the ids of the calls the message makes (never null).
	ToolCalls []string `json:"tool_calls"`
	// ToolNames are the names of those calls, in the same order.
	ToolNames  []string `json:"tool_names"`
	ToolCallID *string  `json:"tool_call_id"`
	// ToolName is, for a tool result, the name of the tool that produced
	// it (from the result itself or its call); null when unknown.
	ToolName *string `json:"tool_name"`
	// Tokens is [transcript.MessageTokens] of the message: what it costs in a
	// chat request, framing included.
	Tokens      int     `json:"tokens"`
	Timestamp   *string `json:"timestamp"`
	InputTokens *int    `json:"input_tokens"`
	// Usage is the call's recorded usage in its parts; null where the
	// format records none.
	Usage *transcript.Usage `json:"usage"`
	// Model is the model that answered, where recorded.
	Model   string `json:"model,omitempty"`
	Aborted bool   `json:"aborted,omitempty"`
	Meta    bool   `json:"meta,omitempty"`
	// Call is [transcript.Message.Call]: the records of one streamed response
	// share it. Not in the JSON (one entry a record there); tables join them.
	Call string `json:"-"`
}

// ListingPair is an [transcript.Unpaired] entry of a [Listing].
type ListingPair struct {
	Message    int    `json:"message"`
	ToolCallID string `json:"tool_call_id"`
	Kind       string `json:"kind"`
}

// List builds the [Listing] of t. Timestamps are RFC 3339 with the offset
// they were recorded in. Recorded usage whose totals do not fit an int is
// an [*engine.TokenOverflowError] naming the message.
func List(t *transcript.Transcript) (*Listing, error) {
	l := &Listing{Messages: make([]ListingMessage, 0, len(t.Messages))}
	for i := range t.Messages {
		if err := l.Add(&t.Messages[i]); err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
	}
	if err := l.SetHeader(t); err != nil {
		return nil, err
	}
	return l, nil
}

// Add appends the listing of one message; with [transcript.Scan], a listing is
// built without keeping the messages. When the recorded usage's totals would
// not fit an int, it returns an [*engine.TokenOverflowError] and adds nothing;
// fed from [transcript.Scan], the error comes back as an [*transcript.Error]
// naming the line of the message.
func (l *Listing) Add(m *transcript.Message) error {
	if err := l.tally.Add(m, l.Catalog); err != nil {
		return err
	}
	lm := ListingMessage{Index: m.Index, Role: string(m.Role), Turn: m.Turn, Chars: m.Chars(),
		ToolCalls: []string{}, ToolNames: []string{}, InputTokens: m.InputTokens, Usage: m.Usage, Model: m.Model, Aborted: m.Aborted, Meta: m.Meta, Call: m.Call}
	if l.Counter != nil {
		lm.Tokens = transcript.MessageTokens(m, l.Counter)
	}
	for _, c := range m.ToolCalls {
		if c.ID != "" {
			lm.ToolCalls = append(lm.ToolCalls, c.ID)
			lm.ToolNames = append(lm.ToolNames, c.Name)
			if l.names == nil {
				l.names = map[string]string{}
			}
			l.names[c.ID] = c.Name
		}
	}
	if m.ToolCallID != "" {
		id := m.ToolCallID
		lm.ToolCallID = &id
		name := transcript.ResultToolName(m, l.names)
		if name != "" {
			lm.ToolName = &name
		}
	}
	if !m.Timestamp.IsZero() {
		s := m.Timestamp.Format(time.RFC3339Nano)
		lm.Timestamp = &s
	}
	l.Recorded = l.tally.Total
	l.Messages = append(l.Messages, lm)
	return nil
}

// SetHeader fills the transcript-wide fields of l from t, which must be
// finished: its format, turns, pairs, skipped records and compactions,
// the calls it records outside the conversation, and the cost.
func (l *Listing) SetHeader(t *transcript.Transcript) error {
	l.Format, l.Conversation, l.Turns, l.Compactions = string(t.Format), t.ID, t.Turns, t.Compactions
	if err := l.tally.AddUnsent(t, l.Catalog); err != nil {
		return err
	}
	l.Recorded = l.tally.Total
	l.CostUSD, l.UnpricedModels = l.tally.Cost()
	if l.Messages == nil {
		l.Messages = []ListingMessage{}
	}
	l.Skipped = t.Skipped
	if l.Skipped == nil {
		l.Skipped = map[string]int{}
	}
	l.Unpaired = make([]ListingPair, 0, len(t.Unpaired))
	for _, u := range t.Unpaired {
		l.Unpaired = append(l.Unpaired, ListingPair{Message: u.Message, ToolCallID: u.ToolCallID, Kind: u.Kind})
	}
	return nil
}
