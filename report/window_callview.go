package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/termtext"
	"github.com/harpe-dev/harpe/pkg/window"
)

// WriteReplayCallText writes v for people, the call of the transcript
// read from file: a heading with the call's size, then each message sent
// with its index, role, how it was sent and its tokens, and its text
// indented below (tool calls as "→ NAME ID ARGUMENTS"), control
// characters escaped.
func WriteReplayCallText(out io.Writer, v *window.CallView, file string) error {
	w := &prose.Sticky{W: out}
	c := v.Call
	fmt.Fprintf(w, "%s: call %d (turn %d) under %s: %s, %s, %s",
		termtext.Escape(file), c.Call, c.Turn, termtext.Escape(v.Strategy),
		prose.Plural(len(v.Messages), "message"), prose.Plural(c.Chars, "char"), prose.Plural(c.Tokens, "token"))
	if over := c.Tokens - c.Counted; c.Recorded && over != 0 {
		fmt.Fprintf(w, " (%d counted + %d unseen overhead)", c.Counted, over)
	}
	fmt.Fprintf(w, "; full sends %s\n", prose.Plural(c.FullTokens, "token"))
	for _, m := range v.Messages {
		where := "[" + strconv.Itoa(m.Index) + "]"
		if m.Index < 0 {
			where = "[summary]"
		}
		role := m.Role
		if m.InSystem && m.Index >= 0 {
			role += " (system part)"
		}
		line := fmt.Sprintf("\n%s %s, %s, %s", where, role, m.Sent, prose.Plural(m.Tokens, "token"))
		if m.Message.ToolCallID != "" {
			line += ", answers " + termtext.Escape(m.Message.ToolCallID)
		}
		fmt.Fprintln(w, line)
		callWriteIndented(w, m.Message.Text)
		for _, tc := range m.Message.ToolCalls {
			callWriteIndented(w, "→ "+tc.Name+" "+tc.ID+" "+tc.Arguments)
		}
		if m.Message.Images > 0 {
			callWriteIndented(w, "("+prose.Plural(m.Message.Images, "image")+", not shown)")
		}
	}
	if len(v.Messages) == 0 {
		fmt.Fprintln(w, "\n(nothing sent)")
	}
	return w.Err
}

// writeIndented writes text a line at a time, indented by 4 spaces,
// control characters escaped; nothing for "".
func callWriteIndented(w io.Writer, text string) {
	if text == "" {
		return
	}
	for _, line := range strings.Split(text, "\n") {
		fmt.Fprintln(w, "    "+termtext.Escape(line))
	}
}
