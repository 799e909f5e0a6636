package window

// Names the external tests and examples of this package use that the
// package does not export: the edits Parse builds, and the check of a
// replay's cost books.
type (
	MaskEdit      = maskEdit
	ClearEdit     = clearEdit
	TruncateEdit  = truncateEdit
	AutoClearEdit = autoClearEdit
)

var (
	CheckCost       = checkCost
	MaskPlaceholder = maskPlaceholder
)
