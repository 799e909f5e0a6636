package cmd

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/harpe-dev/harpe/report"
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

// plotReplay draws rep, a session's replay, as --plot and --plot-metric
// ask.
func plotReplay(w io.Writer, o replayOut, rep report.Replay) error {
	return report.WriteReplayPlot(w, &rep, report.ReplayPlotOptions{Cost: o.plotMetric == "cost",
		ContextWindow: o.contextWindow, HighWater: o.highWater, Budget: o.budget})
}

// notePlotSession says on stderr which session --plot drew when the
// input held several (it draws the first), so the choice is not silent.
func (a *app) notePlotSession(n int, file, conversation string) {
	if n < 2 {
		return
	}
	name := escapeControl(file)
	if conversation != "" {
		name += " (conversation " + escapeControl(conversation) + ")"
	}
	fmt.Fprintf(a.io.Err, "harpe: note: --plot draws session 1 of %d, %s; name one file (or --conversation ID) to draw another\n", n, name)
}
