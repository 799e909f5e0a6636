// Package summary is the rolling summary the summarizing strategy sends
// in place of older turns: what a [Distiller] that writes one is given,
// the error a replay returns when it fails, and [Extractive], the built-in
// one. A summary is a concept of its own: a caller plugs a model (or a
// shell command) in here without reaching into the strategies.
package summary

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// extractiveHeader is the first line of every summary [Extractive] writes,
// so a reader of the window knows no model wrote it.
const extractiveHeader = "[extractive summary by harpe, not written by a model: the opening words of each earlier prompt and reply]"

// extractiveLineChars bounds the text quoted from one message.
const extractiveLineChars = 160

// Extractive is the built-in [Distiller]: deterministic, no model. It keeps
// one line per folded user prompt and assistant reply, "turn N role: "
// followed by the first sentence of its text (at most 160 characters,
// whitespace collapsed), or the names of the tools an assistant called.
// Tool results are left out. The new lines follow the previous summary's;
// when the whole would pass req.MaxChars, the oldest lines go first, so
// the summary rolls and never grows past the bound.
func Extractive(req Request) (string, error) {
	var lines []string
	if prev, ok := strings.CutPrefix(req.Summary, extractiveHeader); ok {
		for l := range strings.SplitSeq(strings.TrimPrefix(prev, "\n"), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	} else if req.Summary != "" {
		lines = append(lines, oneLine(req.Summary, extractiveLineChars))
	}
	for _, m := range req.Messages {
		if l := extractLine(m); l != "" {
			lines = append(lines, l)
		}
	}
	// Drop the oldest lines until header + lines fit.
	total := utf8.RuneCountInString(extractiveHeader)
	for _, l := range lines {
		total += 1 + utf8.RuneCountInString(l)
	}
	first := 0
	for first < len(lines) && total > req.MaxChars {
		total -= 1 + utf8.RuneCountInString(lines[first])
		first++
	}
	var b strings.Builder
	b.WriteString(extractiveHeader)
	for _, l := range lines[first:] {
		b.WriteByte('\n')
		b.WriteString(l)
	}
	return cutChars(b.String(), req.MaxChars), nil
}

// extractLine is the summary line for one message, "" to leave it out.
func extractLine(m transcript.Message) string {
	if m.Role == transcript.RoleTool || m.ToolCallID != "" {
		return ""
	}
	prefix := "turn " + strconv.Itoa(m.Turn) + " " + string(m.Role) + ": "
	if t := oneLine(firstSentence(m.Text), extractiveLineChars); t != "" {
		return prefix + t
	}
	if len(m.ToolCalls) > 0 {
		names := make([]string, len(m.ToolCalls))
		for i, tc := range m.ToolCalls {
			names[i] = tc.Name
		}
		return prefix + "called " + strings.Join(names, ", ")
	}
	return ""
}

// firstSentence returns s up to and including the first '.', '!' or '?'
// that is followed by white space or the end.
func firstSentence(s string) string {
	for i, r := range s {
		if r == '.' || r == '!' || r == '?' {
			next := i + 1
			if next >= len(s) {
				return s
			}
			nr, _ := utf8.DecodeRuneInString(s[next:])
			if unicode.IsSpace(nr) {
				return s[:next]
			}
		}
		if i > 4*extractiveLineChars {
			return s[:i]
		}
	}
	return s
}

// oneLine collapses white space runs to one space, trims, and cuts to max
// code points, the last one "…", when longer.
func oneLine(s string, max int) string {
	t := strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(t) <= max {
		return t
	}
	return cutChars(t, max-1) + "…"
}

// Distiller folds older messages into a rolling summary. It returns the new
// summary, which replaces req.Summary; an error stops the replay.
type Distiller func(req Request) (string, error)

// Request is what a [Distiller] is given.
type Request struct {
	// Summary is the rolling summary so far ("" at the first compaction).
	Summary string
	// Messages are the messages being folded, as the model saw them.
	Messages []transcript.Message
	// MaxChars bounds the result; a longer one is cut.
	MaxChars int
}

// Error is a [Distiller]'s failure, as a replay returns it.
type Error struct{ Err error }

func (e *Error) Error() string { return "distill: " + e.Err.Error() }

// Unwrap returns the distiller's error.
func (e *Error) Unwrap() error { return e.Err }

// Fold folds req.Messages into req.Summary with d ([Extractive] when
// nil), the result cut to req.MaxChars code points; d's failure is an
// [*Error].
func Fold(d Distiller, req Request) (string, error) {
	if d == nil {
		d = Extractive
	}
	sum, err := d(req)
	if err != nil {
		return "", &Error{Err: err}
	}
	return cutChars(sum, req.MaxChars), nil
}

// cutChars keeps the first max code points of s.
func cutChars(s string, max int) string {
	n := 0
	for i := range s {
		if n == max {
			return s[:i]
		}
		n++
	}
	return s
}
