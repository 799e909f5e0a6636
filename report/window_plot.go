package report

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/svgplot"
	"github.com/harpe-dev/harpe/internal/termtext"
	"github.com/harpe-dev/harpe/pkg/window"
)

// ReplayPlotOptions say what [WriteReplayPlot] draws.
type ReplayPlotOptions struct {
	// Cost plots each call's cost in US dollars instead of its input
	// tokens.
	Cost bool
	// ContextWindow, when above 0, is drawn as a limit (token plots only).
	ContextWindow int
	// HighWater and Budget are the levels the summarizing and the budget
	// strategies work to, drawn on their lines (token plots only).
	HighWater, Budget int
}

// WriteReplayPlot draws r as an SVG picture: tokens per call (or the cost of
// each call), one line per strategy in r's order, with its compactions
// marked on the line, the levels the strategies work to, and the context
// window. The title names r's transcript, its file's name shortened to
// fit the picture.
func WriteReplayPlot(w io.Writer, r *Replay, o ReplayPlotOptions) error {
	tj := r.Transcript
	file := tj.File
	if len(file) > 48 {
		file = filepath.Base(file)
	}
	file = termtext.Escape(replayShortenMiddle(file, 36))
	what := fmt.Sprintf("%s transcript, %s", tj.Format, prose.Plural(tj.Turns, "turn"))
	if tj.ID != "" {
		what = "conversation " + termtext.Escape(tj.ID) + ", " + what
	}
	p := svgplot.Plot{
		Title:  fmt.Sprintf("Tokens per call: %s (%s)", file, what),
		XLabel: "model call",
		YLabel: "input tokens",
	}
	if o.Cost {
		p.Title = fmt.Sprintf("Cost per call: %s (%s)", file, what)
		p.YLabel = "US dollars"
	}
	if o.ContextWindow > 0 && !o.Cost {
		p.Limit = float64(o.ContextWindow)
		p.LimitLabel = fmt.Sprintf("context window %d", o.ContextWindow)
	}
	for i := range r.Strategies {
		p.Series = append(p.Series, replayPlotSeries(&r.Strategies[i], o))
	}
	return p.Write(w)
}

// plotSeries is one strategy's line: tokens (or dollars) per call, its
// events (compactions) marked before the call they precede, named by
// their kinds, and the level it works to, if it has one.
func replayPlotSeries(r *window.Result, o ReplayPlotOptions) svgplot.Series {
	s := svgplot.Series{Name: r.Strategy, Y: make([]float64, len(r.Calls))}
	var kinds []string // the events' kinds, in order of first appearance
	ev := 0
	for i, c := range r.Calls {
		s.Y[i] = float64(c.Tokens)
		if o.Cost {
			s.Y[i] = 0
			if c.CallCost != nil {
				s.Y[i] = c.CostUSD.Or(0) // an unpriced call plots at 0
			}
		}
		for ev < len(r.Events) && r.Events[ev].Call <= c.Call {
			if e := r.Events[ev]; e.Call == c.Call {
				s.Marks = append(s.Marks, svgplot.Mark{X: i + 1})
				if !slices.Contains(kinds, string(e.Kind)) {
					kinds = append(kinds, string(e.Kind))
				}
			}
			ev++
		}
	}
	s.MarkLabel = strings.Join(kinds, ", ")
	if o.Cost {
		return s // the levels are in tokens
	}
	base, _, _ := strings.Cut(strings.SplitN(r.Strategy, "+", 2)[0], ":")
	switch base {
	case "summarizing":
		s.Level = float64(o.HighWater)
		s.LevelLabel = fmt.Sprintf("high water %d", o.HighWater)
	case "budget":
		s.Level = float64(o.Budget)
		s.LevelLabel = fmt.Sprintf("budget %d", o.Budget)
	}
	return s
}

// shortenMiddle keeps at most n code points of s, taking out the middle
// for an ellipsis when it is longer: a session file's name
// ("rollout-2026-11-24T14-02-09-019ab6f2-….jsonl") keeps its start and its
// end, and the title stays within the picture.
func replayShortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
