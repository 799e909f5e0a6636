package window

// Names the external tests and examples of this package use that the
// package does not export: the edits Parse builds, and the check of a
// replay's cost books.
type (
	MaskEdit      = maskEdit
	ClearEdit     = clearEdit
	TruncateEdit  = truncateEdit
	AutoClearEdit = autoClearEdit
	Name          = named
	Edited        = withEdits
	Edit          = edit
	PolicyError   = policyError
)

// The built-in strategies by name, built with the options of the replay.
const (
	Full        = named("full")
	Windowed    = named("windowed")
	Summarizing = named("summarizing")
	TurnOnly    = named("turn")
	Sliding     = named("sliding")
	Budget      = named("budget")
)

var (
	ErrNoBudget     = errNoBudget
	EngineSelector  = engineSelector
	CheckCost       = checkCost
	MaskPlaceholder = maskPlaceholder
)
