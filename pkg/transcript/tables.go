package transcript

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/termtext"
)

// TableOptions say how the tables of a report for people are drawn:
// Width is the number of columns they are made to fit (below 80, 0
// included, they fit 80), and EastAsian counts East Asian ambiguous-width
// characters as two columns, as terminals in a CJK locale show them.
// engine's report table takes the same type, and window's tables these
// two fields with more.
type TableOptions = table.Options

// WriteListingTables writes listings for people: for each, a summary
// line, one row a message (the records of one streamed response, which
// Claude Code writes one per content block, joined) and the unpaired
// calls and skipped records below. The JSON ([Listing]) keeps one entry a
// record and the ids the table only counts.
func WriteListingTables(out io.Writer, ls []*Listing, o TableOptions) error {
	w := &prose.Sticky{W: out}
	files := map[string]bool{}
	for _, l := range ls {
		files[l.File] = true
	}
	for i, l := range ls {
		if i > 0 {
			fmt.Fprintln(w)
		}
		// "harpe transcript", not a bare "harpe:" that reads as an error
		// line; replay's title names the format the same way.
		title := l.Format + " transcript"
		if len(files) > 1 {
			title = l.File + ": " + title // several files: say which
		}
		if l.Conversation != "" {
			title += ", conversation " + termtext.Escape(l.Conversation)
		}
		msgs := joinCalls(l.Messages)
		fmt.Fprintf(w, "%s: %s, %s, %d unpaired, %s\n", title, prose.Plural(len(msgs), "message"),
			prose.Plural(l.Turns, "turn"), len(l.Unpaired), prose.Plural(len(l.Compactions), "compaction"))
		if err := writeMessageTable(w, l, msgs, o); err != nil {
			return err
		}
		for _, u := range l.Unpaired {
			what := "call without a result"
			if u.Kind == "result" {
				what = "result without a call"
			}
			fmt.Fprintf(w, "unpaired: message %d, %s: %s\n", u.Message, what, termtext.Escape(u.ToolCallID))
		}
		if len(l.Skipped) > 0 {
			kinds := make([]string, 0, len(l.Skipped))
			for k := range l.Skipped {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			for i, k := range kinds {
				kinds[i] = fmt.Sprintf("%s %d", termtext.Escape(k), l.Skipped[k])
			}
			prose.List(w, "skipped: ", kinds)
		}
	}
	return w.Err
}

// writeMessageTable writes the table of l's messages, joined as msgs, a
// row each, with the total of their characters.
func writeMessageTable(w io.Writer, l *Listing, msgs []joinedMessage, o TableOptions) error {
	rows := make([][]string, 0, len(msgs))
	chars := 0
	for _, jm := range msgs {
		m := jm.ListingMessage
		chars += m.Chars
		// Ids are long; the table shows counts, the JSON the ids.
		tools := ""
		switch n := len(m.ToolCalls); {
		case n == 1:
			tools = "1 call"
		case n > 1:
			tools = fmt.Sprintf("%d calls", n)
		case m.ToolCallID != nil:
			tools = "result"
		}
		in := ""
		if m.InputTokens != nil {
			in = strconv.Itoa(*m.InputTokens)
		}
		var notes []string
		if m.Aborted {
			notes = append(notes, "aborted")
		}
		switch {
		case slices.Contains(l.Compactions, m.Index):
			notes = append(notes, "summary") // a compaction summary (and meta)
		case m.Meta:
			notes = append(notes, "meta")
		}
		index := strconv.Itoa(m.Index)
		if jm.last > m.Index {
			index = fmt.Sprintf("%d-%d", m.Index, jm.last)
		}
		rows = append(rows, []string{index, strconv.Itoa(m.Turn), m.Role,
			strconv.Itoa(m.Chars), in, tools, strings.Join(notes, " ")})
	}
	footer := []string{"", "", "total", strconv.Itoa(chars), "", "", ""}
	return table.Render(w, o.AtLeastMin(), []string{"#", "turn", "role", "chars", "input", "tool", "notes"}, rows, footer)
}

// joinedMessage is one row of the message table: a listing message, or
// the records of one streamed response joined (chars and tool calls
// summed, the first record's input), Index to last.
type joinedMessage struct {
	ListingMessage
	last int
}

// joinCalls joins consecutive messages that share a non-empty Call.
func joinCalls(ms []ListingMessage) []joinedMessage {
	out := make([]joinedMessage, 0, len(ms))
	for _, m := range ms {
		if n := len(out); n > 0 && m.Call != "" && out[n-1].Call == m.Call && out[n-1].Aborted == m.Aborted {
			j := &out[n-1]
			j.Chars += m.Chars
			j.ToolCalls = append(slices.Clip(j.ToolCalls), m.ToolCalls...)
			j.last = m.Index
			continue
		}
		out = append(out, joinedMessage{ListingMessage: m, last: m.Index})
	}
	return out
}

// UnpricedLine is the line a table writes under a cost that leaves out
// the calls of models without prices:
//
//	unpriced: 6 calls, 66116 tokens of "mystery-1": not in the cost
func UnpricedLine(us []UnpricedCalls) string {
	calls, tokens := 0, 0
	names := make([]string, 0, len(us))
	for _, u := range us {
		calls, tokens = calls+u.Calls, tokens+u.Tokens
		names = append(names, strconv.Quote(u.Model))
	}
	return fmt.Sprintf("unpriced: %s, %d tokens of %s: not in the cost\n",
		prose.Plural(calls, "call"), tokens, strings.Join(names, ", "))
}
