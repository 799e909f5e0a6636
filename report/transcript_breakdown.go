package report

import (
	"fmt"
	"io"
	"strconv"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/table"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// WriteTranscriptBreakdown writes b for people, as `harpe transcript
// --breakdown` does: for each session, and then the totals when there are
// several, the tokens by category with their shares, the
// unseen overhead, the recorded usage and its cost, and the tools by
// result tokens. A session's recorded line names what its cost leaves
// out for want of a price; the totals' line adds those up.
func WriteTranscriptBreakdown(out io.Writer, b *usage.Breakdown, o table.Options) error {
	w := &prose.Sticky{W: out}
	var all []usage.UnpricedCalls
	for i, s := range b.Sessions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := s.File
		if s.Conversation != "" {
			title += " conversation " + s.Conversation
		}
		var left []usage.UnpricedCalls
		if len(s.UnpricedModels) > 0 {
			left = s.Unpriced()
		}
		all = usage.MergeUnpriced(all, left)
		sec := transcriptBreakdownSection{title, 1, s.Calls, s.VisibleTokens, s.Tokens, s.Tools, s.Recorded, s.CostUSD, left, s.Segments}
		if err := sec.write(w, o); err != nil {
			return err
		}
	}
	if len(b.Sessions) > 1 {
		fmt.Fprintln(w)
		t := b.Totals
		sec := transcriptBreakdownSection{fmt.Sprintf("total over %d sessions", t.Sessions), t.Sessions, t.Calls,
			t.VisibleTokens, t.Tokens, t.Tools, t.Recorded, t.CostUSD, all, nil}
		if err := sec.write(w, o); err != nil {
			return err
		}
	}
	return w.Err
}

// transcriptBreakdownSection is what one section of a breakdown's table shows:
// a session's figures or the totals'.
type transcriptBreakdownSection struct {
	title           string
	sessions, calls int
	visible         int
	tokens          usage.CategoryTokens
	tools           []usage.ToolTokens
	recorded        *usage.RecordedUsage
	dollars         *float64
	left            []usage.UnpricedCalls
	// segments are a session's (nil for the totals).
	segments []usage.SegmentBreakdown
}

// writeOverhead writes the unseen overhead: for a session, the sum that
// gives it (the last segment with a recorded prompt), after a table of
// the segments when the harness compacted; for the totals, the sessions'
// sum.
func (s *transcriptBreakdownSection) writeOverhead(w io.Writer, o table.Options) error {
	tk := s.tokens
	if s.segments == nil {
		over := "-"
		if tk.Overhead != nil {
			over = strconv.Itoa(*tk.Overhead)
		}
		fmt.Fprintf(w, "unseen overhead (the sessions' sum): %s\n", over)
		return nil
	}
	opt := func(n *int) string {
		if n == nil {
			return "-"
		}
		return strconv.Itoa(*n)
	}
	last := -1
	for i, g := range s.segments {
		if g.Tokens.Overhead != nil {
			last = i
		}
	}
	if len(s.segments) > 1 {
		fmt.Fprintf(w, "%s, split by the harness's compactions:\n", prose.Plural(len(s.segments), "segment"))
		rows := make([][]string, 0, len(s.segments))
		for i, g := range s.segments {
			rows = append(rows, []string{strconv.Itoa(i + 1), strconv.Itoa(g.FirstMessage), strconv.Itoa(g.Calls),
				strconv.Itoa(g.VisibleTokens), opt(g.LastPrompt), opt(g.SentVisible), opt(g.Tokens.Overhead)})
		}
		if err := table.Render(w, o.AtLeastMin(), []string{"segment", "from msg", "calls", "visible",
			"last prompt", "sent", "overhead"}, rows, nil); err != nil {
			return err
		}
	}
	if last < 0 {
		fmt.Fprintln(w, "unseen overhead: - (no call records its prompt)")
		return nil
	}
	g := s.segments[last]
	of := ""
	if len(s.segments) > 1 {
		of = fmt.Sprintf(" (segment %d of %d)", last+1, len(s.segments))
	}
	defs := ""
	if tk.ToolDefinitions > 0 {
		defs = fmt.Sprintf("\n    - %d tool definitions", tk.ToolDefinitions)
	}
	// Two lines: real sessions' figures are long.
	fmt.Fprintf(w, "unseen overhead%s: %d\n  = last recorded prompt %d - %d visible sent before it - %d to prime%s\n",
		of, *g.Tokens.Overhead, *g.LastPrompt, *g.SentVisible, transcript.ReplyPriming, defs)
	return nil
}

func (s *transcriptBreakdownSection) write(w io.Writer, o table.Options) error {
	tk, visible := s.tokens, s.visible
	fmt.Fprintf(w, "%s: %s, %d visible tokens\n", s.title, prose.Plural(s.calls, "call"), visible)
	pct := func(n int) string {
		if visible == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f%%", float64(n)*100/float64(visible))
	}
	var rows [][]string
	for _, c := range []struct {
		name string
		n    int
	}{{"system", tk.System}, {"user", tk.User}, {"assistant", tk.Assistant}, {"thinking", tk.Thinking},
		{"tool calls", tk.ToolCalls}, {"tool results", tk.ToolResults}, {"tool definitions", tk.ToolDefinitions}} {
		rows = append(rows, []string{c.name, strconv.Itoa(c.n), pct(c.n)})
	}
	footer := []string{"visible", strconv.Itoa(visible), pct(visible)}
	if err := table.Render(w, o.AtLeastMin(), []string{"category", "tokens", "share"}, rows, footer); err != nil {
		return err
	}
	if err := s.writeOverhead(w, o); err != nil {
		return err
	}
	if tk.Thinking > 0 {
		// count --transcript counts what a request would carry now:
		// providers drop earlier turns' thinking from the prompt.
		fmt.Fprintf(w, "count --transcript: %d (visible - thinking, not re-sent, + %d to prime)\n",
			visible-tk.Thinking+transcript.ReplyPriming*s.sessions, transcript.ReplyPriming*s.sessions)
	}
	if rec := s.recorded; rec != nil {
		// Wrapped before 80 columns: real sessions' sums are long.
		last := fmt.Sprintf("output %d", rec.Output)
		switch {
		case (s.dollars == nil || *s.dollars == 0) && len(s.left) > 0:
			last += "; unpriced"
		case s.dollars != nil:
			last += fmt.Sprintf("; $%s at list prices", prose.USD(*s.dollars))
		}
		prose.List(w, "recorded: ", []string{prose.Plural(rec.Calls, "call"), fmt.Sprintf("input %d", rec.Input),
			fmt.Sprintf("cache write %d", rec.CacheWrite), fmt.Sprintf("cache read %d", rec.CacheRead), last})
		if len(s.left) > 0 {
			fmt.Fprint(w, unpricedLine(s.left))
		}
	}
	if len(s.tools) == 0 {
		return nil
	}
	trows := make([][]string, 0, len(s.tools))
	for _, t := range s.tools {
		trows = append(trows, []string{t.Name, strconv.Itoa(t.Calls), strconv.Itoa(t.InputTokens),
			strconv.Itoa(t.ResultTokens), strconv.Itoa(t.MaxResultTokens)})
	}
	return table.Render(w, o.AtLeastMin(), []string{"tool", "calls", "input tokens", "result tokens", "max result"}, trows, nil)
}
