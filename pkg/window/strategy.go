package window

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// Strategy is a context policy: it decides which messages of the history
// each model call sees. Start gives the state of one conversation, so one
// Strategy value may replay any number of conversations, concurrently.
//
// The built-in strategies (full, windowed, summarizing, turn, sliding,
// budget, cheapest, claude-code, codex) are registered by name with their
// typed settings ([Register], [Settings]); [Parse] builds one from its
// name and settings, edits (clear, mask, limit) added to any of them.
type Strategy interface {
	// Name is how reports name the strategy.
	Name() string
	// Start returns a fresh state for one conversation.
	Start() State
	// Baseline reports whether the strategy sends every retained message
	// at every call, unedited, as full does. [Replay] measures every
	// strategy against such a run over the uncut history and reports a
	// baseline strategy by that run itself, with the recorded tokens.
	Baseline() bool
}

// State is one conversation's strategy state.
type State interface {
	// Select chooses what the next call sends from h.
	Select(h *History) (Selection, error)
	// Observe is told the input tokens of the call just made (the
	// provider's record where there is one).
	Observe(inputTokens int)
}

// Selection is what a strategy chose for one call: the system part is
// always sent, plus Spans (or Keep), plus the rolling summary.
type Selection struct {
	// Spans are the stretches of history positions sent, increasing and
	// disjoint. Ignored when Keep is set.
	Spans []Span
	// Keep, when not nil, lists the positions sent, increasing.
	Keep []int
	// Summary is a rolling summary sent in the system part ("" for none),
	// with its size.
	Summary                   string
	SummaryChars, SummaryToks int
	// Compaction is set when the strategy folded older turns into the
	// summary just before this call.
	Compaction *Compaction
	// Budget, when above 0, is the token budget the window was chosen
	// under: a call whose counted tokens pass it is marked over budget.
	Budget int
}

// contains reports whether position p is sent.
func (s *Selection) contains(p int) bool {
	if s.Keep != nil {
		_, ok := slices.BinarySearch(s.Keep, p)
		return ok
	}
	for _, sp := range s.Spans {
		if p >= sp.Lo && p < sp.Hi {
			return true
		}
	}
	return false
}

// named is a built-in strategy by its name, as [Strategies] lists it. As
// a [Strategy] it is built with the options of the [Replay] it is given
// to ([DefaultOptions] elsewhere).
type named string

// Name returns n.
func (n named) Name() string { return string(n) }

// Baseline reports whether n, built with [DefaultOptions], is a baseline.
func (n named) Baseline() bool {
	s, err := build(string(n), DefaultOptions())
	return err == nil && s.Baseline()
}

// Start builds n with [DefaultOptions] and starts it; a strategy that
// cannot be built so (budget without a budget) fails at its first call.
func (n named) Start() State {
	s, err := build(string(n), DefaultOptions())
	if err != nil {
		return failed{err}
	}
	return s.Start()
}

type failed struct{ err error }

func (f failed) Select(*History) (Selection, error) { return Selection{}, f.err }
func (f failed) Observe(int)                        {}

// Strategies lists the built-in strategies in the order help text shows
// them; each is built with the options of the [Replay] it is given to.
func Strategies() []Strategy {
	return []Strategy{named("full"), named("windowed"), named("summarizing"), named("turn"), named("sliding"), named("budget")}
}

// Names lists the registered strategy names, built-in first, then the
// edits.
func Names() []string {
	regMu.Lock()
	defer regMu.Unlock()
	return append(slices.Clone(regOrder), editNames()...)
}

// specParams are the settings written after a name: "windowed:chars=40000".
type specParams map[string]string

// Int returns the setting key as a whole number ≥ 0, def when absent.
func (p specParams) Int(key string, def int) (int, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%s: want a whole number ≥ 0", key, v)
	}
	return n, nil
}

// Bool returns the setting key (true, false, or bare), def when absent.
func (p specParams) Bool(key string, def bool) (bool, error) {
	v, ok := p[key]
	if !ok {
		return def, nil
	}
	switch v {
	case "", "true", "yes", "1":
		return true, nil
	case "false", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s=%s: want true or false", key, v)
}

func (p specParams) only(keys ...string) error {
	var bad []string
	for k := range p {
		if !slices.Contains(keys, k) {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	if len(keys) == 0 {
		return fmt.Errorf("unknown setting %q; this one takes none", bad[0])
	}
	return fmt.Errorf("unknown setting %q; valid: %s", bad[0], strings.Join(keys, ", "))
}

func init() {
	Register("full", func(Options) fullStrategy { return fullStrategy{} }, itself)
	Register("windowed", func(o Options) windowedStrategy { return o.Windowed.resolve() }, itself)
	Register("summarizing", func(o Options) summarizingStrategy { return o.Summarizing.resolve() }, itself)
	Register("turn", func(Options) turnStrategy { return turnStrategy{} }, itself)
	Register("sliding", func(o Options) slidingStrategy { return o.Sliding.resolve() }, itself)
	Register("budget", func(o Options) budgetSettings { return budgetSettings{Policy: o.Engine.Policy} }, newBudget)
	Register("cheapest", func(Options) cheapestStrategy { return cheapestStrategy{Keep: defaultCheapestKeep} }, itself)
	Register("claude-code", claudeCodeFrom, claudeCodeSettings.build)
	Register("codex", codexFrom, codexSettings.build)
}

// itself builds a strategy whose settings are the strategy.
func itself[S Strategy](s S, _ Options) (Strategy, error) { return s, nil }

// budgetSettings are the budget strategy's settings.
type budgetSettings struct {
	Tokens *int `setting:"tokens" option:"Budget.Total" doc:"token budget of every call's window (default: Options.Budget.Total)"`
	// Policy is Options.Engine.Policy, read by newBudget from o.
	Policy string `option:"Engine.Policy" doc:"selection policy of the engine"`
}

func newBudget(p budgetSettings, o Options) (Strategy, error) {
	b := o.Budget
	if p.Tokens != nil {
		b.Total = *p.Tokens
	}
	s := budgetStrategy{Budget: b, Engine: o.Engine, Select: o.Select}
	if s.Select == nil && s.Budget.Total <= 0 {
		if p.Tokens != nil {
			return nil, fmt.Errorf("tokens=%d: want at least 1", s.Budget.Total)
		}
		return nil, errNoBudget
	}
	if s.Select == nil {
		if _, err := engine.LookupPolicy(s.Engine.Policy); err != nil {
			return nil, &policyError{Err: err}
		}
	}
	if s.Engine.Counter == nil {
		s.Engine.Counter = o.Counter
	}
	return s, nil
}

// errNoBudget is the error of [Parse] for a budget strategy whose spec
// sets no tokens, given no budget in [Options.Budget] and no selector.
var errNoBudget = errors.New("the budget strategy needs a selector or a budget of at least 1 token")

// policyError is the error of [Parse] for a budget strategy whose engine
// policy ([Options.Engine]) is unknown.
type policyError struct{ Err error }

func (e *policyError) Error() string { return e.Err.Error() }
func (e *policyError) Unwrap() error { return e.Err }

// Parse builds the strategy spec names, with o as the defaults of every
// setting not written in spec:
//
//	spec     = base { "+" edit } | edit { "+" edit }
//	base     = name { ":" key "=" value }     windowed:chars=40000
//	edit     = "clear" | "mask" | "limit", with settings as for base
//
// An edit alone applies to full. The report names the strategy by spec as
// written. o.ToolResultLimit adds a limit edit when spec has none.
func Parse(spec string, o Options) (Strategy, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, errors.New("empty strategy")
	}
	return build(spec, o)
}

func build(spec string, o Options) (Strategy, error) {
	parts := strings.Split(spec, "+")
	var base Strategy
	var edits []edit
	for i, part := range parts {
		name, params, err := splitParams(part)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec, err)
		}
		if isEditName(name) {
			e, err := buildEdit(name, o, params)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			edits = append(edits, e)
			continue
		}
		if i > 0 {
			return nil, fmt.Errorf("%s: %q is not an edit; edits: %s", spec, name, strings.Join(editNames(), ", "))
		}
		r, ok := lookup(name)
		if !ok {
			return nil, fmt.Errorf("unknown strategy %q; valid: %s", name, strings.Join(Names(), ", "))
		}
		base, err = r.build(o, params)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if base == nil {
		base = fullStrategy{}
	}
	if o.ToolResultLimit > 0 && !slices.ContainsFunc(edits, func(e edit) bool { _, ok := e.(truncateEdit); return ok }) {
		edits = append([]edit{truncateEdit{Bytes: o.ToolResultLimit}}, edits...)
	}
	if len(edits) == 0 && spec == base.Name() {
		return base, nil
	}
	return withEdits{Base: base, Edits: edits, Label: spec}, nil
}

// splitParams splits "name:k=v:k2=v2".
func splitParams(s string) (string, specParams, error) {
	fields := strings.Split(strings.TrimSpace(s), ":")
	name := strings.TrimSpace(fields[0])
	if name == "" {
		return "", nil, errors.New("missing name")
	}
	p := specParams{}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		k = strings.TrimSpace(k)
		if k == "" {
			return "", nil, fmt.Errorf("%s: empty setting in %q", name, s)
		}
		if _, dup := p[k]; dup {
			return "", nil, fmt.Errorf("%s: setting %q given twice", name, k)
		}
		p[k] = strings.TrimSpace(v)
	}
	return name, p, nil
}

// fullStrategy sends every retained message.
type fullStrategy struct{}

// Name returns "full".
func (fullStrategy) Name() string { return "full" }

// Baseline returns true: full is the baseline.
func (fullStrategy) Baseline() bool { return true }

// Start returns the (stateless) state.
func (fullStrategy) Start() State {
	return spanState(func(h *History) []Span { return []Span{{h.reset, h.Len()}} })
}

// spanState is the state of a strategy that keeps nothing between calls.
type spanState func(h *History) []Span

func (f spanState) Select(h *History) (Selection, error) { return Selection{Spans: f(h)}, nil }
func (spanState) Observe(int)                            {}

// windowedStrategy sends the newest whole turns whose characters fit
// Chars; the active turn is always whole, even alone over the budget.
type windowedStrategy struct {
	Chars int `setting:"chars" option:"Windowed.Chars" flag:"window-chars" usage:"character budget of windowed and sliding" doc:"character budget of the newest whole turns"`
}

// Name returns "windowed".
func (windowedStrategy) Name() string { return "windowed" }

// Baseline returns false.
func (windowedStrategy) Baseline() bool { return false }

// Start returns the (stateless) state.
func (s windowedStrategy) Start() State {
	return spanState(func(h *History) []Span {
		return []Span{{h.RetainedStart(h.newestFit(0, s.Chars)), h.Len()}}
	})
}

// turnStrategy sends only the active turn (and the turns a tool call in it
// glues it to).
type turnStrategy struct{}

// Name returns "turn".
func (turnStrategy) Name() string { return "turn" }

// Baseline returns false.
func (turnStrategy) Baseline() bool { return false }

// Start returns the (stateless) state.
func (turnStrategy) Start() State {
	return spanState(func(h *History) []Span {
		j := h.ActiveTurn()
		for j > h.resetTurn && !h.ValidStart(j) {
			j--
		}
		return []Span{{h.RetainedStart(j), h.Len()}}
	})
}

// slidingStrategy sends the first Head turns (the goal) plus the newest
// whole turns that fit Chars.
type slidingStrategy struct {
	Head  int `setting:"head" option:"Sliding.Head" flag:"head" usage:"turns sliding always keeps from the start" doc:"first turns always kept"`
	Chars int `setting:"chars" option:"Sliding.Chars" flag:"window-chars" usage:"character budget of windowed and sliding" doc:"character budget of the newest whole turns"`
}

// Name returns "sliding".
func (slidingStrategy) Name() string { return "sliding" }

// Baseline returns false.
func (slidingStrategy) Baseline() bool { return false }

// Start returns the (stateless) state.
func (s slidingStrategy) Start() State {
	return spanState(func(h *History) []Span {
		// The head turns count from the first retained turn.
		active := h.ActiveTurn()
		first := min(h.resetTurn, active)
		// first ≤ active: the sum cannot overflow, whatever Head is.
		head := first + min(max(0, s.Head), active-first)
		for head < active && !h.ValidStart(head) {
			head++ // turns glued to the head belong to it
		}
		j := h.newestFit(head, s.Chars)
		a, b := Span{h.reset, h.RetainedStart(head)}, Span{h.RetainedStart(j), h.Len()}
		if a.Hi == b.Lo {
			return []Span{{h.reset, h.Len()}}
		}
		return []Span{a, b}
	})
}

// summarizingStrategy keeps a rolling summary in the system part and
// recent turns verbatim. Compaction is reactive: after a call whose input
// tokens exceed HighWaterTokens, the older turns are distilled before the
// next call, keeping the newest whole turns that fit LowWaterChars. The
// summary is cut to SummaryMaxChars. Distill nil uses [summary.Extractive].
type summarizingStrategy struct {
	HighWaterTokens int               `setting:"high" option:"Summarizing.HighWaterTokens" flag:"high-water-tokens" usage:"summarizing compacts after a call over this many input tokens" doc:"input tokens of a call past which the next call compacts"`
	LowWaterChars   int               `setting:"low" option:"Summarizing.LowWaterChars" flag:"low-water-chars" usage:"characters of recent turns summarizing keeps when it compacts" doc:"characters of recent whole turns kept verbatim at a compaction"`
	SummaryMaxChars int               `setting:"max" option:"Summarizing.SummaryMaxChars" flag:"summary-max-chars" usage:"bound on the rolling summary" doc:"bound on the rolling summary in characters"`
	Distill         summary.Distiller `option:"Summarizing.Distill" doc:"writes the rolling summary (nil: Extractive)"`
}

// Name returns "summarizing".
func (summarizingStrategy) Name() string { return "summarizing" }

// Baseline returns false.
func (summarizingStrategy) Baseline() bool { return false }

// Start returns a conversation's state: no summary yet.
func (s summarizingStrategy) Start() State { return &summarizing{cfg: s} }

type summarizing struct {
	cfg                       summarizingStrategy
	fold                      int // turns[:fold] are in the summary
	summary                   string
	summaryChars, summaryToks int
	pending                   bool
	resets                    int // the harness compactions seen
}

func (s *summarizing) Observe(tokens int) {
	if tokens > s.cfg.HighWaterTokens {
		s.pending = true
	}
}

func (s *summarizing) Select(h *History) (Selection, error) {
	if h.resets != s.resets {
		// The harness's summary covers what the rolling summary held:
		// keeping both would send the same history twice, and more than
		// the provider saw.
		s.resets = h.resets
		s.summary, s.summaryChars, s.summaryToks = "", 0, 0
	}
	comp, err := s.prepare(h)
	if err != nil {
		return Selection{}, err
	}
	sel := Selection{Spans: []Span{{h.RetainedStart(s.fold), h.Len()}}, Compaction: comp}
	if s.summary != "" {
		sel.Summary, sel.SummaryChars, sel.SummaryToks = s.summary, s.summaryChars, s.summaryToks
	}
	return sel, nil
}

// prepare runs a pending compaction before a call.
func (s *summarizing) prepare(h *History) (*Compaction, error) {
	if !s.pending {
		return nil, nil
	}
	s.pending = false
	// Only retained turns are folded: what came before the harness's
	// summary is gone already.
	from := max(s.fold, h.resetTurn)
	k := h.newestFit(from, s.cfg.LowWaterChars)
	if k <= from {
		return nil, nil
	}
	lo, hi := h.RetainedStart(from), h.turnStart(k)
	folded := make([]transcript.Message, 0, hi-lo)
	idx := make([]int, 0, hi-lo)
	for _, e := range h.hist[lo:hi] {
		folded = append(folded, *e.Message)
		idx = append(idx, e.Message.Index)
	}
	before := len(h.sys) + h.Len() - lo
	sum, err := summary.Fold(s.cfg.Distill, summary.Request{Summary: s.summary, Messages: folded, MaxChars: s.cfg.SummaryMaxChars})
	if err != nil {
		return nil, err
	}
	s.summary = sum
	s.summaryChars = utf8.RuneCountInString(sum)
	s.summaryToks = countText(h.counter, sum)
	s.fold = k
	h.foldTurn = k
	return &Compaction{
		MessagesBefore: before,
		MessagesAfter:  len(h.sys) + h.Len() - hi,
		SummaryChars:   s.summaryChars,
		Folded:         idx,
	}, nil
}

// budgetStrategy runs a selection over the history at every call: Select
// when set, else the engine of harpe synthesize under Budget with Engine
// (engineSelector), with its own buffers per conversation.
type budgetStrategy struct {
	Budget engine.Budget
	Engine engine.Options
	Select Selector
}

// Name returns "budget".
func (budgetStrategy) Name() string { return "budget" }

// Baseline returns false.
func (budgetStrategy) Baseline() bool { return false }

// Start returns a conversation's state, with a selector of its own.
func (s budgetStrategy) Start() State {
	st := &budgetState{sel: s.Select, budget: s.Budget.Total, cfg: s}
	if fastBudget(s) {
		st.fast = &greedyBudget{avail: s.Budget.Available()}
	}
	return st
}

// withEdits is a strategy with edits applied to every window it chooses, in
// order: limit cuts tool results in the model's copy before the
// strategy chooses; clear and mask then replace old tool
// results by placeholders. An edit never removes a message, so a tool
// call and its (edited) result travel together.
type withEdits struct {
	Base  Strategy
	Edits []edit
	// Label names it in reports; "" gives base+edit+….
	Label string
}

// Name returns the label, or the base's and the edits' names joined by
// "+".
func (e withEdits) Name() string {
	if e.Label != "" {
		return e.Label
	}
	names := []string{e.Base.Name()}
	for _, x := range e.Edits {
		names = append(names, x.Name())
	}
	return strings.Join(names, "+")
}

// Baseline reports whether e has no edits and its base is a baseline.
func (e withEdits) Baseline() bool { return len(e.Edits) == 0 && e.Base.Baseline() }

// Start starts the base strategy; the replay starts the edits.
func (e withEdits) Start() State { return e.Base.Start() }
