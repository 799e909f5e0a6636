package window

import (
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window/summary"
)

// The harness presets: strategies that compact as a coding agent's own
// harness does, so a session can be replayed under its harness's policy
// at another context window. docs/replay.md gives the sources of every
// constant below, with the date they were read.
const (
	// Claude Code's auto-compact: threshold = window − min(max output,
	// 20,000) − 13,000, on the latest usage plus an estimate of what
	// was added since.
	defaultClaudeCodeWindow  = 200000
	defaultClaudeCodeReserve = 20000
	defaultClaudeCodeBuffer  = 13000
	// Claude Code's time-based microcompact: when the newest message
	// comes 60 minutes or more after the latest reply (the prompt cache
	// is cold), the results of its file and shell tools are cleared,
	// save the newest 5.
	defaultMicroGapMinutes = 60
	defaultMicroKeep       = 5
	// Codex's auto-compact: model_auto_compact_token_limit, by default
	// 90% of the model's window (272,000 tokens for the GPT-5 family);
	// a compaction keeps the newest user messages up to 20,000 tokens.
	defaultCodexWindow        = 272000
	defaultCodexPercent       = 90
	defaultCodexUserMsgTokens = 20000
)

// microTools are the tools whose results Claude Code's time-based
// microcompact clears (its compactable tools), as the transcripts name
// them.
var microTools = []string{"Read", "Bash", "Grep", "Glob", "WebSearch", "WebFetch", "Edit", "Write"}

// harnessStrategy compacts as a harness does: before a call whose
// estimated input reaches Threshold, everything retained is folded into
// a summary (written by Distill, cut to SummaryMaxChars, as summarizing
// writes its own), and the window restarts from the summary plus the
// messages the harness keeps: the newest prompt (claude-code), or the
// newest user messages up to KeepUserTokens (codex).
//
// The estimate is the input tokens observed at the previous call plus
// what the history gained since: the replies at their measured size,
// the rest (tool results, prompts) at a token per 4 characters, as both
// harnesses count between two responses. With no call observed yet (the
// first, or the first after a harness compaction) it is the window
// itself. [Parse] fills in the presets' defaults; the zero value of a
// setting is taken as it is.
type harnessStrategy struct {
	// Preset is "claude-code" or "codex".
	Preset string
	// Window is the context window; 0 takes the replay's
	// ([ReplayOptions.ContextWindow]), else the preset's default.
	Window int
	// Reserve and Buffer (claude-code): the threshold is Window −
	// Reserve − Buffer; with Percent above 0 (Claude Code's
	// CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), Percent% of Window − Reserve
	// when that is lower. Percent and Limit (codex): the threshold is
	// Percent% of Window, or Limit when set and lower.
	Reserve, Buffer int
	Percent, Limit  int
	// KeepUserTokens (codex): the newest user messages kept verbatim at
	// a compaction, up to this many tokens.
	KeepUserTokens  int
	SummaryMaxChars int
	Distill         summary.Distiller
}

// Name returns the preset.
func (s harnessStrategy) Name() string { return s.Preset }

// Baseline returns false.
func (harnessStrategy) Baseline() bool { return false }

// window returns the context window the threshold is worked from.
func (s harnessStrategy) window() int {
	if s.Window > 0 {
		return s.Window
	}
	if s.Preset == "codex" {
		return defaultCodexWindow
	}
	return defaultClaudeCodeWindow
}

// claudeCodeSettings are the claude-code preset's settings.
type claudeCodeSettings struct {
	Window  int               `setting:"window" doc:"context window in tokens (0: the replay's context window, else 200000)"`
	Reserve int               `setting:"reserve" doc:"tokens reserved for the reply"`
	Buffer  int               `setting:"buffer" doc:"further tokens below the window where it compacts"`
	Percent int               `setting:"percent" doc:"compact at this percentage of window − reserve when lower, at most 100 (0: off)"`
	Max     int               `setting:"max" option:"Summarizing.SummaryMaxChars" flag:"summary-max-chars" doc:"bound on the summary in characters"`
	Distill summary.Distiller `option:"Summarizing.Distill" doc:"writes the summary (nil: Extractive)"`
}

func claudeCodeFrom(o Options) claudeCodeSettings {
	return claudeCodeSettings{Reserve: defaultClaudeCodeReserve, Buffer: defaultClaudeCodeBuffer,
		Max: o.Summarizing.resolve().SummaryMaxChars, Distill: o.Summarizing.Distill}
}

func (p claudeCodeSettings) build(Options) (Strategy, error) {
	return harnessStrategy{Preset: "claude-code", Window: p.Window, Reserve: p.Reserve, Buffer: p.Buffer,
		Percent: p.Percent, SummaryMaxChars: p.Max, Distill: p.Distill}.check()
}

// codexSettings are the codex preset's settings.
type codexSettings struct {
	Window  int               `setting:"window" doc:"context window in tokens (0: the replay's context window, else 272000)"`
	Percent int               `setting:"percent" doc:"compact at this percentage of the window, at most 100"`
	Limit   int               `setting:"limit" doc:"compact at this many tokens when lower (0: off)"`
	User    int               `setting:"user" doc:"tokens of the newest user messages kept at a compaction"`
	Max     int               `setting:"max" option:"Summarizing.SummaryMaxChars" flag:"summary-max-chars" doc:"bound on the summary in characters"`
	Distill summary.Distiller `option:"Summarizing.Distill" doc:"writes the summary (nil: Extractive)"`
}

func codexFrom(o Options) codexSettings {
	return codexSettings{Percent: defaultCodexPercent, User: defaultCodexUserMsgTokens,
		Max: o.Summarizing.resolve().SummaryMaxChars, Distill: o.Summarizing.Distill}
}

func (p codexSettings) build(Options) (Strategy, error) {
	return harnessStrategy{Preset: "codex", Window: p.Window, Percent: p.Percent, Limit: p.Limit,
		KeepUserTokens: p.User, SummaryMaxChars: p.Max, Distill: p.Distill}.check()
}

// check returns s, or the error of a percentage over 100.
func (s harnessStrategy) check() (Strategy, error) {
	if s.Percent > 100 {
		return nil, fmt.Errorf("percent=%d: want at most 100", s.Percent)
	}
	return s, nil
}

// Threshold returns the estimated input tokens at which the strategy
// compacts.
func (s harnessStrategy) Threshold() int {
	w := s.window()
	if s.Preset == "codex" {
		t := w * s.Percent / 100
		if s.Limit > 0 {
			t = min(t, s.Limit)
		}
		return t
	}
	t := w - s.Reserve - s.Buffer
	if s.Percent > 0 {
		t = min(t, (w-s.Reserve)*s.Percent/100)
	}
	return t
}

// Start returns a conversation's state.
func (s harnessStrategy) Start() State { return &harnessState{cfg: s} }

// atWindow returns s with its window set to n when its spec set none.
func (s harnessStrategy) atWindow(n int) Strategy {
	if s.Window == 0 && n > 0 {
		s.Window = n
	}
	return s
}

// withContextWindow gives a strategy that reads the replay's context
// window (a harness preset) that window.
func withContextWindow(s Strategy, n int) Strategy {
	switch x := s.(type) {
	case harnessStrategy:
		return x.atWindow(n)
	case withEdits:
		if h, ok := x.Base.(harnessStrategy); ok {
			x.Base = h.atWindow(n)
			return x
		}
	}
	return s
}

type harnessState struct {
	cfg harnessStrategy
	// fold: positions before it are in the summary, save keep.
	fold int
	keep []int
	// summary is the harness's summary so far.
	summary                   string
	summaryChars, summaryToks int
	// observed is the input tokens of the previous call (seen: there is
	// one); lastLen the history's length at that call.
	observed int
	seen     bool
	lastLen  int
	resets   int
}

func (s *harnessState) Observe(tokens int) { s.observed, s.seen = tokens, true }

func (s *harnessState) Select(h *History) (Selection, error) {
	if h.resets != s.resets {
		// The harness compacted itself: its summary replaces ours, and
		// the usage seen before it is gone.
		s.resets = h.resets
		s.summary, s.summaryChars, s.summaryToks = "", 0, 0
		s.keep, s.seen = nil, false
	}
	// An aborted turn may have dropped positions past the fold and the
	// previous call.
	s.fold = min(s.fold, h.foldPos)
	s.keep = slices.DeleteFunc(s.keep, func(p int) bool { return p >= s.fold || p < h.reset })
	s.lastLen = min(s.lastLen, h.seenLen)
	var comp *Compaction
	if s.estimate(h) >= s.cfg.Threshold() {
		var err error
		if comp, err = s.compact(h); err != nil {
			return Selection{}, err
		}
	}
	s.lastLen, s.seen = h.Len(), false
	h.seenLen = h.Len()
	sel := Selection{Spans: s.spans(h), Compaction: comp}
	if s.summary != "" {
		sel.Summary, sel.SummaryChars, sel.SummaryToks = s.summary, s.summaryChars, s.summaryToks
	}
	return sel, nil
}

// spans are the kept messages one by one, then everything from the fold
// on.
func (s *harnessState) spans(h *History) []Span {
	out := make([]Span, 0, len(s.keep)+1)
	for _, p := range s.keep {
		out = append(out, Span{p, p + 1})
	}
	if lo := max(s.fold, h.reset); lo < h.Len() {
		out = append(out, Span{lo, h.Len()})
	}
	return out
}

// estimate is the input tokens the harness counts before this call.
func (s *harnessState) estimate(h *History) int {
	if !s.seen {
		_, t := h.systemSize()
		t += s.summaryToks
		for _, sp := range s.spans(h) {
			_, st := h.Size(sp.Lo, sp.Hi)
			t += st
		}
		return t
	}
	return s.observed + s.added(h)
}

// added estimates what the history gained since the previous call: the
// replies at their measured size (a transcript's recorded output is
// often a snapshot taken while the reply streamed), what followed them
// at a token per 4 characters (rounded), as both harnesses estimate it.
func (s *harnessState) added(h *History) int {
	sum := 0
	for p := s.lastLen; p < h.Len(); p++ {
		if e := h.At(p); e.Message.Role == transcript.RoleAssistant {
			sum += e.Tokens
		} else {
			sum += (e.Chars + 2) / 4
		}
	}
	return sum
}

// isPrompt reports whether position p holds a message the user typed.
func isPrompt(h *History, p int) bool {
	m := h.At(p).Message
	return m.Role == transcript.RoleUser && !m.Meta && m.ToolCallID == "" && !(h.resets > 0 && p == h.reset)
}

// resultsOf lists the positions before end of the results to the tool
// calls at position p.
func resultsOf(h *History, p, end int) []int {
	calls := h.At(p).Message.ToolCalls
	if len(calls) == 0 {
		return nil
	}
	var out []int
	for q := p + 1; q < end; q++ {
		if id := h.At(q).Message.ToolCallID; id != "" && slices.ContainsFunc(calls, func(tc transcript.ToolCall) bool { return tc.ID == id }) {
			out = append(out, q)
		}
	}
	return out
}

// compact folds everything retained into the summary; it returns nil
// when there is nothing to fold.
func (s *harnessState) compact(h *History) (*Compaction, error) {
	from, end := max(s.fold, h.reset), h.Len()
	prompt := -1
	if h.isOpen() {
		prompt = h.RetainedStart(h.ActiveTurn())
	}
	var keep []int
	if s.cfg.Preset == "codex" {
		// The newest user messages that fit, newest first.
		budget := s.cfg.KeepUserTokens
		cands := append(slices.Clone(s.keep), make([]int, 0, end-from)...)
		for p := from; p < end; p++ {
			cands = append(cands, p)
		}
		for i := len(cands) - 1; i >= 0; i-- {
			p := cands[i]
			if !isPrompt(h, p) {
				continue
			}
			if t := h.At(p).Tokens; t <= budget {
				budget -= t
				keep = append(keep, p)
			} else {
				break
			}
		}
		slices.Reverse(keep)
	}
	if h.resets > 0 && prompt == h.reset {
		// The harness's own summary opens the active turn: the message
		// after it stands for the newest prompt.
		prompt++
	}
	if prompt >= h.reset && prompt < end {
		// Every window sends the newest prompt (with the results of a
		// tool call in it).
		for _, p := range append([]int{prompt}, resultsOf(h, prompt, end)...) {
			if !slices.Contains(keep, p) {
				keep = append(keep, p)
			}
		}
		slices.Sort(keep)
	}
	var folded []transcript.Message
	var idx []int
	fold := func(p int) {
		if _, kept := slices.BinarySearch(keep, p); !kept {
			folded = append(folded, *h.At(p).Message)
			idx = append(idx, h.At(p).Message.Index)
		}
	}
	for _, p := range s.keep {
		fold(p)
	}
	for p := from; p < end; p++ {
		fold(p)
	}
	if len(folded) == 0 {
		return nil, nil
	}
	sum, err := summary.Fold(s.cfg.Distill, summary.Request{Summary: s.summary, Messages: folded, MaxChars: s.cfg.SummaryMaxChars})
	if err != nil {
		return nil, err
	}
	sys := len(h.sys)
	before := sys + len(s.keep) + end - from
	s.summary = sum
	s.summaryChars = utf8.RuneCountInString(sum)
	s.summaryToks = countText(h.counter, sum)
	s.fold, s.keep = end, keep
	h.foldPos = end
	return &Compaction{
		MessagesBefore: before,
		MessagesAfter:  sys + len(keep),
		SummaryChars:   s.summaryChars,
		Folded:         idx,
	}, nil
}

// microEdit is Claude Code's time-based microcompact: at a call whose
// newest message comes Gap or more after the latest reply held (the
// provider's cache has gone cold meanwhile), the results of Tools held
// are cleared, save the newest Keep of them; a cleared result stays
// cleared. A result is cleared only where the placeholder is smaller.
type microEdit struct {
	Gap   time.Duration
	Keep  int
	Tools []string
}

// Name returns "micro".
func (microEdit) Name() string { return "micro" }

func (e microEdit) start() editState { return &microState{cfg: e} }

type microState struct{ cfg microEdit }

func (*microState) abort(int, int) {}

func (s *microState) apply(c *conversation, _ *Selection, _ int) {
	h := &c.h
	n := h.Len()
	if n == 0 {
		return
	}
	now := h.At(n - 1).Message.Timestamp
	var last time.Time
	for p := n - 1; p >= h.reset; p-- {
		if m := h.At(p).Message; m.Role == transcript.RoleAssistant {
			last = m.Timestamp
			break
		}
	}
	if now.IsZero() || last.IsZero() || now.Sub(last) < s.cfg.Gap {
		return
	}
	var cands []int
	for _, p := range c.results {
		if p >= h.reset && slices.Contains(s.cfg.Tools, h.toolName(p)) {
			cands = append(cands, p)
		}
	}
	cands = cands[:max(0, len(cands)-s.cfg.Keep)]
	ph := countText(c.counter, clearedPlaceholder)
	for _, p := range cands {
		if !replaceable(c.sent[p]) {
			continue
		}
		if _, now := c.sentSize(p); ph < now {
			c.set(p, sentCleared, utf8.RuneCountInString(clearedPlaceholder), ph)
		}
	}
}
