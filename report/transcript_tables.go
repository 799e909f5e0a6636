package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/internal/termtext"

	"github.com/harpe-dev/harpe/pkg/usage"
)

// WriteTranscriptListings writes listings for people, as `harpe transcript
// --messages` does: for each, a summary line, one row a message (the records
// of one streamed response, which Claude Code writes one per content block,
// joined) and the unpaired calls and skipped records below. The JSON
// ([usage.Listing]) keeps one entry a record and the ids the table only
// counts. o.Width is the number of columns the tables are made to fit (below
// 80, 0 included, they fit 80); o.EastAsian counts East Asian ambiguous-width
// characters as two columns, as terminals in a CJK locale show them.
func WriteTranscriptListings(out io.Writer, ls []*usage.Listing, o table.Options) error {
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
		msgs := transcriptJoinCalls(l.Messages)
		fmt.Fprintf(w, "%s: %s, %s, %d unpaired, %s\n", title, prose.Plural(len(msgs), "message"),
			prose.Plural(l.Turns, "turn"), len(l.Unpaired), prose.Plural(len(l.Compactions), "compaction"))
		if err := transcriptMessageTable(w, l, msgs, o); err != nil {
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

// transcriptMessageTable writes the table of l's messages, joined as msgs, a
// row each, with the total of their characters.
func transcriptMessageTable(w io.Writer, l *usage.Listing, msgs []transcriptJoinedMessage, o table.Options) error {
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

// transcriptJoinedMessage is one row of the message table: a listing message,
// or the records of one streamed response joined (chars and tool calls summed,
// the first record's input), Index to last.
type transcriptJoinedMessage struct {
	usage.ListingMessage
	last int
}

// transcriptJoinCalls joins consecutive messages that share a non-empty Call.
func transcriptJoinCalls(ms []usage.ListingMessage) []transcriptJoinedMessage {
	out := make([]transcriptJoinedMessage, 0, len(ms))
	for _, m := range ms {
		if n := len(out); n > 0 && m.Call != "" && out[n-1].Call == m.Call && out[n-1].Aborted == m.Aborted {
			j := &out[n-1]
			j.Chars += m.Chars
			j.ToolCalls = append(slices.Clip(j.ToolCalls), m.ToolCalls...)
			j.last = m.Index
			continue
		}
		out = append(out, transcriptJoinedMessage{ListingMessage: m, last: m.Index})
	}
	return out
}

// unpricedLine is the line a table writes under a cost that leaves out
// the calls of models without prices ([prose.Unpriced]).
func unpricedLine(us []usage.UnpricedCalls) string {
	calls, tokens := 0, 0
	models := make([]string, 0, len(us))
	for _, u := range us {
		calls, tokens = calls+u.Calls, tokens+u.Tokens
		models = append(models, u.Model)
	}
	return prose.Unpriced(calls, tokens, models)
}
