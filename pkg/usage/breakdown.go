package usage

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// Breakdown says where a set of sessions' tokens go: `harpe transcript
// --breakdown --format json` writes it. Its JSON field names are a stable
// contract.
type Breakdown struct {
	Sessions []*SessionBreakdown `json:"sessions"`
	Totals   BreakdownTotals     `json:"totals"`
}

// SessionBreakdown is one conversation's tokens by category. The visible
// categories (everything in Tokens but Overhead) add up to VisibleTokens.
type SessionBreakdown struct {
	File         string `json:"file"`
	Conversation string `json:"conversation,omitempty"`
	Format       string `json:"format"`
	// Calls counts model calls: assistant messages, those of one response
	// (sharing [transcript.Message.Call]) once.
	Calls int `json:"calls"`
	// VisibleTokens sums [transcript.MessageTokens] over the messages the
	// context keeps (aborted turns left out), as the transcript shows them.
	VisibleTokens int            `json:"visible_tokens"`
	Tokens        CategoryTokens `json:"tokens"`
	// Tools has one entry per tool name, most result tokens first (ties by
	// name).
	Tools []ToolTokens `json:"tools"`
	// Segments splits the session at its harness compactions
	// ([transcript.Transcript.Compactions]): one segment when there is none.
	// Their message categories add up to the session's; Tokens.Overhead is the
	// overhead of the last segment that records a prompt (see
	// [SegmentBreakdown]).
	Segments []SegmentBreakdown `json:"segments"`
	// Recorded sums the provider's usage over every call (aborted ones
	// too: the provider billed them); null when the format records none.
	Recorded *RecordedUsage `json:"recorded"`
	// CostUSD is what the recorded calls cost, each priced from Catalog
	// at its own date and size ([CallCost]), summed; null when there is
	// no catalog or no call records its model. Models without prices count 0 and are named
	// in UnpricedModels.
	CostUSD        *float64 `json:"cost_usd"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`

	// Catalog, when set before messages are added, prices each recorded
	// call; nil leaves CostUSD null.
	Catalog *prices.Catalog `json:"-"`

	usage UsageTally
	acc   breakdownAcc
}

// Unpriced is what the session's cost leaves out for want of a price
// ([UsageTally.Unpriced]).
func (s *SessionBreakdown) Unpriced() []UnpricedCalls { return s.usage.Unpriced() }

// CategoryTokens are tokens by category.
type CategoryTokens struct {
	// Overhead is what the provider counted that the transcript does not show
	// (system prompt, tool definitions): the recorded prompt of the last call
	// with usage minus the visible messages sent to it (those since the latest
	// harness compaction, plus [transcript.ReplyPriming], and the recorded tool
	// definitions). It is an estimate when the counter is not the provider's
	// tokenizer, and null when no call records its prompt size.
	Overhead *int `json:"overhead"`
	// System is system messages; User human prompts and injected context
	// (including compaction summaries); Assistant the replies' text and
	// framing; Thinking the recorded reasoning (0 when the format does not
	// keep it); ToolCalls each call's name, arguments and framing;
	// ToolResults the result messages.
	System      int `json:"system"`
	User        int `json:"user"`
	Assistant   int `json:"assistant"`
	Thinking    int `json:"thinking"`
	ToolCalls   int `json:"tool_calls"`
	ToolResults int `json:"tool_results"`
	// ToolDefinitions are the tool definitions the transcript records
	// ([transcript.ToolDefTokens]; HTTP recordings and request bodies), 0 when
	// it records none: then they are part of Overhead.
	ToolDefinitions int `json:"tool_definitions"`
}

// Visible is the sum of the visible categories.
func (c CategoryTokens) Visible() int {
	return c.System + c.User + c.Assistant + c.Thinking + c.ToolCalls + c.ToolResults + c.ToolDefinitions
}

// SegmentBreakdown is one compaction segment of a session: its messages
// from the first one, or from a harness compaction summary, up to the
// next summary. After a compaction the provider is sent the summary and
// what follows it, not what came before, so a call's recorded prompt is
// compared with its own segment only.
type SegmentBreakdown struct {
	// FirstMessage is the index of the segment's first message: 0, or
	// the compaction summary's.
	FirstMessage int `json:"first_message"`
	// Calls counts the segment's model calls, as [SessionBreakdown.Calls].
	Calls int `json:"calls"`
	// VisibleTokens sums Tokens' visible categories.
	VisibleTokens int `json:"visible_tokens"`
	// LastPrompt is the recorded prompt size ([transcript.Message.InputTokens])
	// of the segment's last call that records one, SentVisible the visible
	// tokens of the segment's messages before that call; both null when no call
	// of the segment records its prompt.
	LastPrompt  *int `json:"last_prompt"`
	SentVisible *int `json:"sent_visible"`
	// Tokens are the segment's tokens by category. Its Overhead is
	// LastPrompt minus SentVisible, [transcript.ReplyPriming] and the tool
	// definitions (null with LastPrompt); ToolDefinitions are the
	// session's, sent with every call.
	Tokens CategoryTokens `json:"tokens"`

	msgs int // messages added, aborted ones too
}

// ToolTokens is one tool's share.
type ToolTokens struct {
	Name string `json:"name"`
	// Calls is how many times it was called.
	Calls int `json:"calls"`
	// InputTokens are its calls' name, arguments and framing.
	InputTokens int `json:"input_tokens"`
	// ResultTokens are its results' [transcript.MessageTokens]; MaxResultTokens
	// the largest one.
	ResultTokens    int `json:"result_tokens"`
	MaxResultTokens int `json:"max_result_tokens"`
}

// BreakdownTotals sums the sessions.
type BreakdownTotals struct {
	Sessions      int            `json:"sessions"`
	Calls         int            `json:"calls"`
	VisibleTokens int            `json:"visible_tokens"`
	Tokens        CategoryTokens `json:"tokens"`
	Tools         []ToolTokens   `json:"tools"`
	// Recorded sums the sessions' recorded usage (null when none records
	// any); CostUSD their costs, rounded (null when none has one).
	Recorded *RecordedUsage `json:"recorded"`
	CostUSD  *float64       `json:"cost_usd"`
	// UnpricedModels lists, sorted, the sessions' models without prices
	// (their calls are not in CostUSD).
	UnpricedModels []string `json:"unpriced_models,omitempty"`
}

type breakdownAcc struct {
	counter   tokenize.Counter
	tools     map[string]*ToolTokens
	names     map[string]string // call id → tool name
	lastCall  string
	sinceComp int // visible tokens since the latest compaction
	segs      []SegmentBreakdown
}

// NewSessionBreakdown starts the breakdown of one conversation, counting
// with c. Feed it every message in order with [SessionBreakdown.Add], then
// call [SessionBreakdown.Finish].
func NewSessionBreakdown(file string, c tokenize.Counter) *SessionBreakdown {
	return &SessionBreakdown{File: file, acc: breakdownAcc{counter: c, tools: map[string]*ToolTokens{}, names: map[string]string{}}}
}

func (s *SessionBreakdown) tool(name string) *ToolTokens {
	if name == "" {
		name = "(unknown)"
	}
	t := s.acc.tools[name]
	if t == nil {
		t = &ToolTokens{Name: name}
		s.acc.tools[name] = t
	}
	return t
}

// Add counts one message of transcript t. A total that would not fit an int is
// an [*engine.TokenOverflowError] (fed from [transcript.Scan], an
// [*transcript.Error] naming the line of the message); the breakdown is then
// incomplete and not to be used.
func (s *SessionBreakdown) Add(t *transcript.Transcript, m *transcript.Message) error {
	a := &s.acc
	if err := s.usage.Add(m, s.Catalog); err != nil {
		return err
	}
	s.Recorded = s.usage.Total
	if len(a.segs) == 0 || a.segs[len(a.segs)-1].msgs > 0 && slices.Contains(t.Compactions, m.Index) {
		a.segs = append(a.segs, SegmentBreakdown{FirstMessage: m.Index})
		a.sinceComp = 0
	}
	seg := &a.segs[len(a.segs)-1]
	seg.msgs++
	if m.Role == transcript.RoleAssistant {
		if m.Call == "" || m.Call != a.lastCall {
			s.Calls++
			seg.Calls++
		}
		a.lastCall = m.Call
		if m.InputTokens != nil {
			p, sent := *m.InputTokens, a.sinceComp
			seg.LastPrompt, seg.SentVisible = &p, &sent
		}
	}
	if m.Aborted {
		return nil
	}
	c := a.counter
	total := transcript.MessageTokens(m, c)
	thinking := 0
	if m.Thinking != "" {
		thinking = countText(c, m.Thinking)
	}
	// The counts of one message are bounded by its size; the sums over
	// messages are checked.
	var err error
	calls := 0
	for _, tc := range m.ToolCalls {
		n := transcript.TokensPerToolCall + countText(c, tc.Name) + countText(c, tc.Arguments)
		sumInto(&calls, n, "the tool calls' tokens", &err)
		tt := s.tool(tc.Name)
		tt.Calls++
		sumInto(&tt.InputTokens, n, "the tool calls' tokens of "+tt.Name, &err)
		if tc.ID != "" {
			a.names[tc.ID] = tc.Name
		}
	}
	rest := total - calls
	if m.ToolCallID != "" || m.Role == transcript.RoleTool {
		tt := s.tool(transcript.ResultToolName(m, a.names))
		sumInto(&tt.ResultTokens, rest, "the tool results' tokens of "+tt.Name, &err)
		tt.MaxResultTokens = max(tt.MaxResultTokens, rest)
	}
	// The segment's sums are parts of the session's: checked first, they
	// cannot overflow.
	for _, k := range []*CategoryTokens{&s.Tokens, &seg.Tokens} {
		switch {
		case m.ToolCallID != "" || m.Role == transcript.RoleTool:
			sumInto(&k.ToolResults, rest, "the tool results' tokens", &err)
		case m.Role == transcript.RoleSystem:
			sumInto(&k.System, rest, "the system messages' tokens", &err)
		case m.Role == transcript.RoleUser:
			sumInto(&k.User, rest, "the user messages' tokens", &err)
		default:
			sumInto(&k.Assistant, rest, "the assistant messages' tokens", &err)
		}
		sumInto(&k.ToolCalls, calls, "the tool calls' tokens", &err)
		sumInto(&k.Thinking, thinking, "the thinking tokens", &err)
	}
	sumInto(&a.sinceComp, total, "the visible tokens", &err)
	sumInto(&a.sinceComp, thinking, "the visible tokens", &err)
	return err
}

// Finish sets the fields known once every message is added: the header
// from t (which must be finished), the tools, the totals, the overhead
// and the cost. Totals that do not fit an int are an
// [*engine.TokenOverflowError].
func (s *SessionBreakdown) Finish(t *transcript.Transcript) error {
	s.Format, s.Conversation = string(t.Format), t.ID
	if err := s.usage.AddUnsent(t, s.Catalog); err != nil {
		return err
	}
	s.Recorded = s.usage.Total
	s.CostUSD, s.UnpricedModels = s.usage.Cost()
	defs := transcript.ToolDefTokens(t.Tools, s.acc.counter)
	s.Tokens.ToolDefinitions = defs
	s.Segments = make([]SegmentBreakdown, len(s.acc.segs))
	for i, seg := range s.acc.segs {
		seg.Tokens.ToolDefinitions = defs
		if seg.LastPrompt != nil {
			o, ok := checked.Sub(*seg.LastPrompt, *seg.SentVisible)
			if ok {
				o, ok = checked.Sub(o, transcript.ReplyPriming)
			}
			if ok {
				o, ok = checked.Sub(o, defs)
			}
			if !ok {
				return &checked.OverflowError{What: "the overhead: the recorded prompt less the visible tokens"}
			}
			seg.Tokens.Overhead = &o
			s.Tokens.Overhead = &o
		}
		v, ok := seg.Tokens.checkedVisible()
		if !ok {
			return &checked.OverflowError{What: "the visible tokens"}
		}
		seg.VisibleTokens = v
		s.Segments[i] = seg
	}
	v, ok := s.Tokens.checkedVisible()
	if !ok {
		return &checked.OverflowError{What: "the visible tokens"}
	}
	s.VisibleTokens = v
	s.Tools = sortTools(s.acc.tools)
	return nil
}

// checkedVisible is [CategoryTokens.Visible], false when it does not fit
// an int.
func (c CategoryTokens) checkedVisible() (int, bool) {
	return checked.Sum(c.System, c.User, c.Assistant, c.Thinking, c.ToolCalls, c.ToolResults, c.ToolDefinitions)
}

func sortTools(m map[string]*ToolTokens) []ToolTokens {
	out := make([]ToolTokens, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b ToolTokens) int {
		if a.ResultTokens != b.ResultTokens {
			return cmp.Compare(b.ResultTokens, a.ResultTokens)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// NewBreakdown sums finished sessions into a [Breakdown]. The overhead total is
// the sum of the sessions that have one, null when none has. A total that does
// not fit an int is an [*transcript.Error] naming the file of the session that
// took it past the largest int, wrapping an [*engine.TokenOverflowError].
func NewBreakdown(sessions []*SessionBreakdown) (*Breakdown, error) {
	b := &Breakdown{Sessions: sessions}
	if b.Sessions == nil {
		b.Sessions = []*SessionBreakdown{}
	}
	tot := &b.Totals
	tools := map[string]*ToolTokens{}
	for _, s := range sessions {
		var err error
		tot.Sessions++
		sumInto(&tot.Calls, s.Calls, "the calls", &err)
		sumInto(&tot.VisibleTokens, s.VisibleTokens, "the visible tokens", &err)
		if o := s.Tokens.Overhead; o != nil {
			n := *o
			if tot.Tokens.Overhead != nil {
				sumInto(&n, *tot.Tokens.Overhead, "the overhead tokens", &err)
			}
			tot.Tokens.Overhead = &n
		}
		tk, sk := &tot.Tokens, &s.Tokens
		sumInto(&tk.System, sk.System, "the system messages' tokens", &err)
		sumInto(&tk.User, sk.User, "the user messages' tokens", &err)
		sumInto(&tk.Assistant, sk.Assistant, "the assistant messages' tokens", &err)
		sumInto(&tk.Thinking, sk.Thinking, "the thinking tokens", &err)
		sumInto(&tk.ToolCalls, sk.ToolCalls, "the tool calls' tokens", &err)
		sumInto(&tk.ToolResults, sk.ToolResults, "the tool results' tokens", &err)
		sumInto(&tk.ToolDefinitions, sk.ToolDefinitions, "the tool definitions' tokens", &err)
		if r := s.Recorded; r != nil && err == nil {
			if tot.Recorded == nil {
				tot.Recorded = &RecordedUsage{}
			}
			err = tot.Recorded.Add(r)
		}
		if c := s.CostUSD; c != nil {
			n := *c
			if tot.CostUSD != nil {
				n += *tot.CostUSD
			}
			tot.CostUSD = &n
		}
		for _, m := range s.UnpricedModels {
			if !slices.Contains(tot.UnpricedModels, m) {
				tot.UnpricedModels = append(tot.UnpricedModels, m)
			}
		}
		slices.Sort(tot.UnpricedModels)
		for _, t := range s.Tools {
			x := tools[t.Name]
			if x == nil {
				x = &ToolTokens{Name: t.Name}
				tools[t.Name] = x
			}
			sumInto(&x.Calls, t.Calls, "the calls of "+t.Name, &err)
			sumInto(&x.InputTokens, t.InputTokens, "the tool calls' tokens of "+t.Name, &err)
			sumInto(&x.ResultTokens, t.ResultTokens, "the tool results' tokens of "+t.Name, &err)
			x.MaxResultTokens = max(x.MaxResultTokens, t.MaxResultTokens)
		}
		if err != nil {
			return nil, &transcript.Error{Name: s.File, Err: fmt.Errorf("totals over the sessions: %w", err)}
		}
	}
	tot.Tools = sortTools(tools)
	if c := tot.CostUSD; c != nil {
		*c = usd.Round(*c) // the sessions' sum, without float residue
	}
	return b, nil
}

// countText is c's count of s, one of the texts of a message: with a
// context that is never done a [tokenize.Counter] returns no error
// (transcript.MessageTokens counts the same way).
func countText(c tokenize.Counter, s string) int {
	n, _ := c.Count(context.Background(), s)
	return n
}
