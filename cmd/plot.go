package cmd

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/svgplot"
	"github.com/harpe-dev/harpe/pkg/window"
)

// checkPlotFile refuses a --plot name whose extension promises another
// format than the SVG harpe draws (out.png would hold SVG text). A name
// without an extension, or ending in .svg in any letter case, is fine.
func checkPlotFile(path string) error {
	if path == "" {
		return nil
	}
	ext := filepath.Ext(path)
	if ext == "" || strings.EqualFold(ext, ".svg") {
		return nil
	}
	return usageErrorf("--plot: %s: harpe draws SVG only; name the file %s.svg (convert it with rsvg-convert or a browser if you need %s)",
		path, strings.TrimSuffix(path, ext), strings.ToUpper(strings.TrimPrefix(ext, ".")))
}

// plotReplay draws tokens per call (or, with --plot-metric cost, the
// cost of each call in US dollars), one line per strategy in the order
// given, with its compactions marked on the line, the high-water mark of
// summarizing and the budget of the budget strategy as levels, and the
// context window when one is set (token plots only). The title names the
// file.
func plotReplay(w io.Writer, o replayOut, run replayed) error {
	file := run.file
	if len(file) > 48 {
		file = filepath.Base(file)
	}
	file = escapeControl(shortenMiddle(file, 36))
	what := fmt.Sprintf("%s transcript, %s", run.t.Format, plural(run.t.Turns, "turn"))
	if run.t.ID != "" {
		what = "conversation " + escapeControl(run.t.ID) + ", " + what
	}
	p := svgplot.Plot{
		Title:  fmt.Sprintf("Tokens per call: %s (%s)", file, what),
		XLabel: "model call",
		YLabel: "input tokens",
	}
	byCost := o.plotMetric == "cost"
	if byCost {
		p.Title = fmt.Sprintf("Cost per call: %s (%s)", file, what)
		p.YLabel = "US dollars"
	}
	if o.contextWindow > 0 && !byCost {
		p.Limit = float64(o.contextWindow)
		p.LimitLabel = fmt.Sprintf("context window %d", o.contextWindow)
	}
	for _, r := range run.results {
		p.Series = append(p.Series, replaySeries(o, r))
	}
	return p.Write(w)
}

// replaySeries is one strategy's line: tokens per call, its events
// (compactions) marked before the call they precede, named by their kinds,
// and the level it works to, if it has one.
func replaySeries(o replayOut, r window.Result) svgplot.Series {
	s := svgplot.Series{Name: string(r.Strategy), Y: make([]float64, len(r.Calls))}
	var kinds []string // the events' kinds, in order of first appearance
	ev := 0
	byCost := o.plotMetric == "cost"
	for i, c := range r.Calls {
		s.Y[i] = float64(c.Tokens)
		if byCost {
			s.Y[i] = 0
			if c.CallCost != nil {
				s.Y[i] = c.CostUSD
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
	base, _, _ := strings.Cut(strings.SplitN(r.Strategy, "+", 2)[0], ":")
	if byCost {
		return s // the levels are in tokens
	}
	switch window.Name(base) {
	case window.Summarizing:
		s.Level = float64(o.highWater)
		s.LevelLabel = fmt.Sprintf("high water %d", o.highWater)
	case window.Budget:
		s.Level = float64(o.budget)
		s.LevelLabel = fmt.Sprintf("budget %d", o.budget)
	}
	return s
}

// shortenMiddle keeps at most n code points of s, taking out the middle
// for an ellipsis when it is longer: a session file's name
// ("rollout-2026-11-24T14-02-09-019ab6f2-….jsonl") keeps its start and its
// end, and the title stays within the picture.
func shortenMiddle(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 3 {
		return s
	}
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
