package transcript

import (
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/pkg/tokenize"
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
	// (sharing [Message.Call]) once.
	Calls int `json:"calls"`
	// VisibleTokens sums [MessageTokens] over the messages the context
	// keeps (aborted turns left out), as the transcript shows them.
	VisibleTokens int            `json:"visible_tokens"`
	Tokens        CategoryTokens `json:"tokens"`
	// Tools has one entry per tool name, most result tokens first (ties by
	// name).
	Tools []ToolTokens `json:"tools"`
	// Recorded sums the provider's usage over every call (aborted ones
	// too: the provider billed them); null when the format records none.
	Recorded *RecordedUsage `json:"recorded"`
	// CostUSD is what the recorded usage cost at list prices, set by the
	// caller (see package cost); null when no call records its model.
	// Models without prices count 0 and are named in UnpricedModels.
	CostUSD        *float64 `json:"cost_usd"`
	UnpricedModels []string `json:"unpriced_models,omitempty"`

	// Usage tallies the recorded usage, per model for pricing.
	Usage UsageTally `json:"-"`

	acc breakdownAcc
}

// CategoryTokens are tokens by category.
type CategoryTokens struct {
	// Overhead is what the provider counted that the transcript does not
	// show (system prompt, tool definitions): the recorded prompt of the
	// last call with usage minus the visible messages sent to it (those
	// since the latest harness compaction, plus [ReplyPriming], and the
	// recorded tool definitions). It is an
	// estimate when the counter is not the provider's tokenizer, and null
	// when no call records its prompt size.
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
	// ([ToolDefTokens]; HTTP recordings and request bodies), 0 when it
	// records none: then they are part of Overhead.
	ToolDefinitions int `json:"tool_definitions"`
}

// Visible is the sum of the visible categories.
func (c CategoryTokens) Visible() int {
	return c.System + c.User + c.Assistant + c.Thinking + c.ToolCalls + c.ToolResults + c.ToolDefinitions
}

// ToolTokens is one tool's share.
type ToolTokens struct {
	Name string `json:"name"`
	// Calls is how many times it was called.
	Calls int `json:"calls"`
	// InputTokens are its calls' name, arguments and framing.
	InputTokens int `json:"input_tokens"`
	// ResultTokens are its results' [MessageTokens]; MaxResultTokens the
	// largest one.
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
	// any); CostUSD their costs (null when none has one).
	Recorded *RecordedUsage `json:"recorded"`
	CostUSD  *float64       `json:"cost_usd"`
}

type breakdownAcc struct {
	counter   tokenize.Counter
	tools     map[string]*ToolTokens
	names     map[string]string // call id → tool name
	lastCall  string
	sinceComp int // visible tokens since the latest compaction
	overhead  *int
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

// Add counts one message of transcript t.
func (s *SessionBreakdown) Add(t *Transcript, m *Message) {
	a := &s.acc
	s.Usage.Add(m)
	s.Recorded = s.Usage.Total
	if slices.Contains(t.Compactions, m.Index) {
		a.sinceComp = 0
	}
	if m.Role == RoleAssistant {
		if m.Call == "" || m.Call != a.lastCall {
			s.Calls++
		}
		a.lastCall = m.Call
		if m.InputTokens != nil {
			o := *m.InputTokens - a.sinceComp - ReplyPriming
			a.overhead = &o
		}
	}
	if m.Aborted {
		return
	}
	c := a.counter
	total := MessageTokens(m, c)
	thinking := 0
	if m.Thinking != "" {
		thinking = c.Count(m.Thinking)
	}
	calls := 0
	for _, tc := range m.ToolCalls {
		n := TokensPerToolCall + c.Count(tc.Name) + c.Count(tc.Arguments)
		calls += n
		tt := s.tool(tc.Name)
		tt.Calls++
		tt.InputTokens += n
		if tc.ID != "" {
			a.names[tc.ID] = tc.Name
		}
	}
	rest := total - calls
	switch {
	case m.ToolCallID != "" || m.Role == RoleTool:
		s.Tokens.ToolResults += rest
		tt := s.tool(ResultToolName(m, a.names))
		tt.ResultTokens += rest
		tt.MaxResultTokens = max(tt.MaxResultTokens, rest)
	case m.Role == RoleSystem:
		s.Tokens.System += rest
	case m.Role == RoleUser:
		s.Tokens.User += rest
	default:
		s.Tokens.Assistant += rest
	}
	s.Tokens.ToolCalls += calls
	s.Tokens.Thinking += thinking
	a.sinceComp += total + thinking
}

// Finish sets the fields known once every message is added: the header
// from t (which must be finished), the tools, the totals and the overhead.
func (s *SessionBreakdown) Finish(t *Transcript) {
	s.Format, s.Conversation = t.Format, t.ID
	s.Tokens.ToolDefinitions = ToolDefTokens(t.Tools, s.acc.counter)
	if o := s.acc.overhead; o != nil {
		n := *o - s.Tokens.ToolDefinitions
		s.Tokens.Overhead = &n
	}
	s.VisibleTokens = s.Tokens.Visible()
	s.Tools = sortTools(s.acc.tools)
}

func sortTools(m map[string]*ToolTokens) []ToolTokens {
	out := make([]ToolTokens, 0, len(m))
	for _, t := range m {
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b ToolTokens) int {
		if a.ResultTokens != b.ResultTokens {
			return b.ResultTokens - a.ResultTokens
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// NewBreakdown sums finished sessions into a [Breakdown]. The overhead
// total is the sum of the sessions that have one, null when none has.
func NewBreakdown(sessions []*SessionBreakdown) *Breakdown {
	b := &Breakdown{Sessions: sessions}
	if b.Sessions == nil {
		b.Sessions = []*SessionBreakdown{}
	}
	tot := &b.Totals
	tools := map[string]*ToolTokens{}
	for _, s := range sessions {
		tot.Sessions++
		tot.Calls += s.Calls
		tot.VisibleTokens += s.VisibleTokens
		if o := s.Tokens.Overhead; o != nil {
			n := *o
			if tot.Tokens.Overhead != nil {
				n += *tot.Tokens.Overhead
			}
			tot.Tokens.Overhead = &n
		}
		tot.Tokens.System += s.Tokens.System
		tot.Tokens.User += s.Tokens.User
		tot.Tokens.Assistant += s.Tokens.Assistant
		tot.Tokens.Thinking += s.Tokens.Thinking
		tot.Tokens.ToolCalls += s.Tokens.ToolCalls
		tot.Tokens.ToolResults += s.Tokens.ToolResults
		tot.Tokens.ToolDefinitions += s.Tokens.ToolDefinitions
		if r := s.Recorded; r != nil {
			if tot.Recorded == nil {
				tot.Recorded = &RecordedUsage{}
			}
			tot.Recorded.Calls += r.Calls
			tot.Recorded.Input += r.Input
			tot.Recorded.CacheRead += r.CacheRead
			tot.Recorded.CacheWrite += r.CacheWrite
			tot.Recorded.CacheWrite1h += r.CacheWrite1h
			tot.Recorded.Output += r.Output
		}
		if c := s.CostUSD; c != nil {
			n := *c
			if tot.CostUSD != nil {
				n += *tot.CostUSD
			}
			tot.CostUSD = &n
		}
		for _, t := range s.Tools {
			x := tools[t.Name]
			if x == nil {
				x = &ToolTokens{Name: t.Name}
				tools[t.Name] = x
			}
			x.Calls += t.Calls
			x.InputTokens += t.InputTokens
			x.ResultTokens += t.ResultTokens
			x.MaxResultTokens = max(x.MaxResultTokens, t.MaxResultTokens)
		}
	}
	tot.Tools = sortTools(tools)
	return b
}
