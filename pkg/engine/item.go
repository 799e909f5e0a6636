package engine

import (
	"fmt"
	"time"
)

// Item is one context item: one line of the items JSONL format.
//
// Optional numbers are pointers: nil means the field was absent (or null).
type Item struct {
	// ID is unique within the input; the reader gives "L<line>" when the
	// line has none.
	ID string
	// Content is the text; it is what gets counted and rendered.
	Content string
	// Priority: lower is more important; 0 is always kept. The reader fills
	// in ReadOptions.DefaultPriority when the line has none.
	Priority int
	// Pinned items are always kept.
	Pinned bool
	// TokenCount, when set, is trusted as the item's size and the content
	// is not counted again.
	TokenCount *int
	// Timestamp is when the item was said or produced.
	Timestamp *time.Time
	// Relevance is a score for the relevance and optimising policies.
	Relevance *float64
	// Utility is an explicit value for the optimising policies (≥ 0).
	Utility *float64
	// Confidential items are withheld when the destination is remote.
	Confidential bool
	// Dimension is the source kind (system, goal, history, tool,
	// retrieval, …); "invariant" is always kept.
	Dimension string
	// Group names the items that are kept or dropped together.
	Group string
	// Role is carried through (user, assistant, tool, system).
	Role string
	// Source names where the item came from (a context provider: "policy",
	// "memory", …) and Description says what it holds: a rendered block
	// is named by its source, else its id, and described so
	// ([RenderBlocks]).
	Source      string
	Description string
	// MaxChars, when set, caps the item's block when rendered
	// ([RenderBlocks]), in place of the per-source and default caps.
	MaxChars *int
	// Line is the 1-based line number within the input the item came from
	// (0 for items built in code).
	Line int
	// File names the input the item came from, as the reader was given
	// it ("" for items built in code); messages name it with Line.
	File string
	// Raw is the input line byte for byte, without its line ending. The
	// reader's strings (ID, Content, …) may share its memory: treat it as
	// read-only.
	Raw []byte
}

// DimensionInvariant is the dimension whose items are always kept.
const DimensionInvariant = "invariant"

// alwaysKeptReason says why an item is always kept, or "" when it is not.
// When several rules apply the first of pinned, priority_zero, invariant
// is named.
func (it *Item) alwaysKeptReason() Reason {
	switch {
	case it.Pinned:
		return ReasonPinned
	case it.Priority == 0:
		return ReasonPriorityZero
	case it.Dimension == DimensionInvariant:
		return ReasonInvariant
	}
	return ""
}

// LineError is a bad input line: it names the input, the line and, for JSON
// syntax errors, the column (1-based, in bytes). Its text reads
// "items.jsonl:17: \"priority\" must be a whole number ≥ 0, got -3".
type LineError struct {
	Name string // the input's name ("items.jsonl", "stdin")
	Line int    // 1-based line number within the input
	Col  int    // 1-based byte column, 0 when not about one place
	Msg  string // what is wrong, lowercase, no trailing period
}

func (e *LineError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
}

// Skipped is a line that [ReadOptions.SkipInvalid] left out, listed in the
// report so nothing is dropped silently.
type Skipped struct {
	// Line is the 1-based line number within its input.
	Line int `json:"line"`
	// Error is the full message, starting with "name:line:".
	Error string `json:"error"`
}
