package cmd

import (
	"io"
	"path/filepath"
	"strings"

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

// plotReplay draws run's replay as --plot and --plot-metric ask.
func plotReplay(w io.Writer, o replayOut, run replayed) error {
	rep := window.Report{Transcript: run.info(true), Strategies: run.results}
	return rep.WritePlot(w, window.PlotOptions{Cost: o.plotMetric == "cost",
		ContextWindow: o.contextWindow, HighWater: o.highWater, Budget: o.budget})
}
