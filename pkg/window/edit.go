package window

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// edit changes how messages a strategy kept are sent, without dropping
// any: see clear, mask and limit. A placeholder is
// used only where it is smaller (in tokens) than what it replaces, so an
// edit never makes a call cost more.
type edit interface {
	// Name is how a strategy spec writes the edit ("clear", "mask",
	// "limit").
	Name() string
	start() editState
}

// editState is one conversation's edit: apply marks what it edits at a
// call (tokens is the call's input tokens so far: counted window, earlier
// edits applied, plus the unseen overhead); abort forgets results past the
// first n, dropped with an aborted turn whose first position was start.
type editState interface {
	apply(c *conversation, sel *Selection, tokens int)
	abort(n, start int)
}

// Defaults of the edits, as [DefaultOptions] sets them. Anthropic's
// context editing documentation (clear_tool_uses_20250919, read
// 2026-12-01 at https://docs.claude.com/en/docs/build-with-claude/context-editing)
// gives a trigger of 100,000 input tokens and keeps 3 tool uses; the
// masking window of 10 is the one "The Complexity Trap" (Lindenbauer et
// al., JetBrains, arXiv 2508.21433, 2025) found best for SWE-agent.
const (
	defaultClearTrigger = 100000
	defaultClearKeep    = 3
	defaultMaskKeep     = 10
)

// clearedPlaceholder replaces a tool result clear cleared.
const clearedPlaceholder = "[tool result cleared]"

// clearedInput replaces a tool call's arguments when [clearEdit.ClearInputs]
// is set.
const clearedInput = "{}"

// ClearSettings are the settings of the clear edits (clear and
// clear:auto) that a spec does not write; [ClearSettings.resolve] gives
// the clear edit they make.
//
// Its tags describe the settings for [Settings] ("clear"), each with the
// flag a front end gives it ([Setting.Flag]).
type ClearSettings struct {
	// Trigger: nil is 100,000; 0 clears at every call
	// that has a result to clear.
	Trigger *int "setting:\"trigger\" option:\"Clear.Trigger\" flag:\"clear-trigger\" usage:\"clear: input `TOKENS` past which a call clears old tool results\" doc:\"input tokens of a call past which old tool results are cleared\""
	// Keep: nil is 3; 0 keeps no result whole.
	// clear:auto does not read it: its keep is 1 (cheapest's default)
	// unless its spec writes one.
	Keep *int `setting:"keep" option:"Clear.Keep" flag:"clear-keep" usage:"clear: newest tool results never cleared" doc:"newest tool results never cleared"`
	// ClearAtLeast: nil and 0 alike clear whatever frees any tokens.
	ClearAtLeast *int     "setting:\"at-least\" option:\"Clear.ClearAtLeast\" flag:\"clear-at-least\" usage:\"clear: clear only when at least this many `TOKENS` are freed\" doc:\"clear only when at least this many tokens are freed\""
	ExcludeTools []string "setting:\"exclude\" option:\"Clear.ExcludeTools\" flag:\"clear-exclude\" usage:\"clear: `TOOLS` whose results are never cleared, comma-separated\" doc:\"tools whose results are never cleared\""
	ClearInputs  bool     `setting:"inputs" option:"Clear.ClearInputs" flag:"clear-inputs" usage:"clear: also clear the tool calls' arguments" doc:"also clear the tool calls' arguments"`
}

func init() {
	describeEdit("clear", func(o Options) ClearSettings { return o.Clear })
	describeEdit("mask", func(o Options) MaskSettings { return o.Mask })
}

// resolve returns the clear edit of s, its defaults filled in.
func (s ClearSettings) resolve() clearEdit {
	return clearEdit{Trigger: orDefault(s.Trigger, defaultClearTrigger), Keep: orDefault(s.Keep, defaultClearKeep),
		ClearAtLeast: orDefault(s.ClearAtLeast, 0), ExcludeTools: s.ExcludeTools, ClearInputs: s.ClearInputs}
}

// MaskSettings are the settings of the mask edit that a spec does not
// write.
type MaskSettings struct {
	// Keep: nil is 10; 0 masks every result.
	Keep *int `setting:"keep" option:"Mask.Keep" flag:"mask-keep" usage:"mask: tool-using calls whose results are sent verbatim" doc:"tool-using calls whose results are sent verbatim"`
}

// resolve returns the mask edit of s, its default filled in.
func (s MaskSettings) resolve() maskEdit { return maskEdit{Keep: orDefault(s.Keep, defaultMaskKeep)} }

// clearEdit clears old tool results as Anthropic's context editing
// (clear_tool_uses_20250919) does. The rule harpe implements, where the
// provider's documentation leaves room:
//   - at a call whose input tokens (the window as it would be sent, with
//     what is already cleared, plus the unseen overhead) exceed Trigger,
//     the clearing fires;
//   - the candidates are the tool results held, oldest first, save the
//     newest Keep (counted over every tool, excluded ones included),
//     those of a tool in ExcludeTools, and those already cleared;
//   - with ClearAtLeast 0 every candidate is cleared; otherwise the oldest
//     candidates are cleared until the tokens they free in this call's
//     window reach ClearAtLeast, and when all of them together would free
//     less, nothing is cleared at this call;
//   - a cleared result is sent as "[tool result cleared]" from then on (the
//     cleared set only grows within a conversation), and with ClearInputs
//     its call's arguments as "{}";
//   - the result stays where it was, after its call.
type clearEdit struct {
	Trigger      int
	Keep         int
	ClearAtLeast int
	ExcludeTools []string
	ClearInputs  bool
}

// Name returns "clear".
func (clearEdit) Name() string { return "clear" }

func (e clearEdit) start() editState { return &clearState{cfg: e} }

type clearState struct {
	cfg  clearEdit
	next int // results[:next] were decided
}

func (s *clearState) abort(n, _ int) { s.next = min(s.next, n) }

func (s *clearState) apply(c *conversation, sel *Selection, tokens int) {
	if tokens <= s.cfg.Trigger {
		return
	}
	limit := len(c.results) - max(0, s.cfg.Keep)
	var batch []int
	freed, stop := 0, s.next
	for i := s.next; i < limit; i++ {
		stop = i + 1
		p := c.results[i]
		if p < c.h.reset || !replaceable(c.sent[p]) || slices.Contains(s.cfg.ExcludeTools, c.h.toolName(p)) {
			continue
		}
		e := c.h.At(p)
		_, now := c.sentSize(p)
		dt := countText(c.counter, clearedPlaceholder) - now
		if dt >= 0 {
			continue
		}
		batch = append(batch, p)
		if sel.contains(p) {
			freed -= dt
			if s.cfg.ClearInputs {
				if cp, ok := c.h.callOf(p); ok {
					freed -= min(0, c.inputSaving(cp, e.Message.ToolCallID))
				}
			}
		}
		if s.cfg.ClearAtLeast > 0 && freed >= s.cfg.ClearAtLeast {
			break
		}
	}
	if len(batch) == 0 || freed < s.cfg.ClearAtLeast {
		return
	}
	for _, p := range batch {
		e := c.h.At(p)
		c.set(p, sentCleared, utf8.RuneCountInString(clearedPlaceholder), countText(c.counter, clearedPlaceholder))
		if s.cfg.ClearInputs {
			if cp, ok := c.h.callOf(p); ok {
				if dt := c.inputSaving(cp, e.Message.ToolCallID); dt < 0 {
					c.edit(cp, sentCleared, c.inputCharSaving(cp, e.Message.ToolCallID), dt)
				}
			}
		}
	}
	s.next = stop
}

// maskEdit is observation masking ("The Complexity Trap", arXiv
// 2508.21433): the results of the tool calls made at the Keep most recent
// model calls that called tools are sent verbatim; older results are sent
// as a placeholder ([maskPlaceholder]) saying what was omitted.
type maskEdit struct{ Keep int }

// Name returns "mask".
func (maskEdit) Name() string { return "mask" }

func (e maskEdit) start() editState { return &maskState{cfg: e} }

type maskState struct {
	cfg  maskEdit
	next int
}

func (s *maskState) abort(n, _ int) { s.next = min(s.next, n) }

func (s *maskState) apply(c *conversation, _ *Selection, _ int) {
	target := c.toolCalls - max(0, s.cfg.Keep) // results of tool-using calls before it are masked
	for s.next < len(c.results) && c.resCall[s.next] < target {
		p := c.results[s.next]
		s.next++
		if p < c.h.reset || !replaceable(c.sent[p]) {
			continue
		}
		ph := maskPlaceholder(c.h.toolName(p), c.original(p))
		if _, now := c.sentSize(p); countText(c.counter, ph) < now {
			c.set(p, sentMasked, utf8.RuneCountInString(ph), countText(c.counter, ph))
		}
	}
}

// maskPlaceholder is what mask sends instead of an old tool result
// of the named tool ("" when unknown) whose text was text:
// "[output of grep omitted: 12 lines, 480 chars]".
func maskPlaceholder(tool, text string) string {
	lines := 0
	if text != "" {
		lines = strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	}
	what := "tool output"
	if tool != "" {
		what = "output of " + tool
	}
	unit := " lines, "
	if lines == 1 {
		unit = " line, "
	}
	return "[" + what + " omitted: " + strconv.Itoa(lines) + unit + strconv.Itoa(utf8.RuneCountInString(text)) + " chars]"
}

// replaceable reports whether a placeholder may replace a part sent so:
// whole or cut.
func replaceable(how string) bool { return how == "" || how == sentTruncated }

// truncateEdit cuts tool results longer than Bytes in the model's copy,
// back to a character boundary, followed by
// "…[truncated: showing K of N bytes]" (K the bytes kept, N the
// original length), where the cut text is smaller in tokens. Like every edit it applies to what the strategy chose: the
// strategy chooses on the uncut sizes.
type truncateEdit struct{ Bytes int }

// Name returns "limit".
func (truncateEdit) Name() string { return "limit" }

func (truncateEdit) start() editState { return nil }

func editNames() []string { return []string{"clear", "mask", "limit", "micro"} }

func isEditName(s string) bool { return slices.Contains(editNames(), s) }

func buildEdit(name string, o Options, p specParams) (edit, error) {
	var err error
	switch name {
	case "clear":
		if err := p.only("trigger", "keep", "at-least", "exclude", "inputs", "auto"); err != nil {
			return nil, err
		}
		if auto, err := p.Bool("auto", false); err != nil || auto {
			return buildAutoClear(o, p, err)
		}
		e := o.Clear.resolve()
		if e.Trigger, err = p.Int("trigger", e.Trigger); err != nil {
			return nil, err
		}
		if e.Keep, err = p.Int("keep", e.Keep); err != nil {
			return nil, err
		}
		if e.ClearAtLeast, err = p.Int("at-least", e.ClearAtLeast); err != nil {
			return nil, err
		}
		if v, ok := p["exclude"]; ok {
			e.ExcludeTools = nil
			for _, t := range strings.Split(v, "/") {
				if t = strings.TrimSpace(t); t != "" {
					e.ExcludeTools = append(e.ExcludeTools, t)
				}
			}
		}
		e.ClearInputs, err = p.Bool("inputs", e.ClearInputs)
		return e, err
	case "mask":
		if err := p.only("keep"); err != nil {
			return nil, err
		}
		e := o.Mask.resolve()
		e.Keep, err = p.Int("keep", e.Keep)
		return e, err
	case "limit":
		if err := p.only("bytes"); err != nil {
			return nil, err
		}
		e := truncateEdit{Bytes: o.ToolResultLimit}
		if e.Bytes, err = p.Int("bytes", e.Bytes); err != nil {
			return nil, err
		}
		if e.Bytes <= 0 {
			return nil, ErrNoLimit
		}
		return e, nil
	case "micro":
		if err := p.only("gap", "keep"); err != nil {
			return nil, err
		}
		gap, err := p.Int("gap", defaultMicroGapMinutes)
		if err != nil {
			return nil, err
		}
		e := microEdit{Gap: time.Duration(gap) * time.Minute, Tools: microTools}
		e.Keep, err = p.Int("keep", defaultMicroKeep)
		return e, err
	}
	return nil, fmt.Errorf("unknown edit %q", name)
}

// ErrNoLimit is the error of [Parse] for a limit edit given no bytes,
// neither in its spec nor in [Options.ToolResultLimit].
var ErrNoLimit = errors.New("needs bytes=N with N ≥ 1 (or Options.ToolResultLimit)")

// fenwick is a binary indexed tree of ints over positions 0..n-1.
type fenwick struct{ t []int }

func (f *fenwick) add(i, v int) {
	for i++; i < len(f.t); i += i & -i {
		f.t[i] += v
	}
}

// sum returns the sum over positions [0, i).
func (f *fenwick) sum(i int) int {
	s := 0
	for i = min(i, len(f.t)-1); i > 0; i -= i & -i {
		s += f.t[i]
	}
	return s
}

// grow makes room for n positions, rebuilding from raw.
func (f *fenwick) grow(n int, raw []int) {
	if n < len(f.t) {
		return
	}
	size := max(64, 2*len(f.t), n+1)
	f.t = make([]int, size)
	for i, v := range raw {
		if v != 0 {
			f.add(i, v)
		}
	}
}
