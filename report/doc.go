// Package report is the one home of harpe's presentation: every table
// for people, JSON stream, SVG plot and text view that harpe writes. The
// library under pkg/ works things out and returns them as values; it
// prints nothing and names no command-line flag or output format. This
// package draws those values, and both the command line (cmd/) and the
// browser playground (web/play) call it, so the two write the same
// bytes.
//
// The layers run main → cmd → report → pkg → internal: report imports
// pkg/* and internal/*, and nothing under pkg/ imports report.
//
// Files are named by what they present: window_*.go present the replays
// of package window (tables, the JSON report streamed call by call, the
// sessions of a replay over many, plots, a call's text view).
package report
