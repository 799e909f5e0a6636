package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/spf13/cobra"
)

// transcriptOptions are the flags of `harpe transcript`.
type transcriptOptions struct {
	format       string
	inputFormat  string
	conversation string
	output       string
	args         []string
}

func newTranscriptCmd(a *app) *cobra.Command {
	opts := &transcriptOptions{}
	c := &cobra.Command{
		Use:   "transcript [FILE…]",
		Short: "List the messages, turns and tool pairs read from a saved conversation",
		Long: `transcript reads a saved conversation and lists what harpe made of it: each
message's role, turn, size, tool calls and provider usage, the turn count,
tool calls without a result (and results without a call), and the records
that are not messages, counted by kind.

Formats, detected from the content (--input-format names one): ` + strings.Join(transcript.Formats(), ", ") + `.
A file with several conversations (ShareGPT) gives one listing each;
--conversation ID picks one. Several files are read in order.

--format json writes the listing other tools check a replay against;
--format table is for people. chars counts the Unicode code points of the
text plus each tool call's name and arguments.
` + exitStatusHelp,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if err := checkFormat(opts.format, "json", "table"); err != nil {
				return err
			}
			if opts.inputFormat != "" && !slices.Contains(transcript.Formats(), opts.inputFormat) {
				return usageErrorf("--input-format: unknown format %q; valid: %s", opts.inputFormat, strings.Join(transcript.Formats(), ", "))
			}
			opts.args = args
			return runTranscript(a, opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.format, "format", "json", "output `FORMAT`: json or table")
	f.StringVar(&opts.inputFormat, "input-format", "", "read the input as `FORMAT` instead of detecting it ("+strings.Join(transcript.Formats(), ", ")+")")
	f.StringVar(&opts.conversation, "conversation", "", "list only the conversation with this `ID` (ShareGPT files hold several)")
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}

func runTranscript(a *app, opts *transcriptOptions) error {
	var all []*transcript.Transcript
	err := a.eachInput(opts.args, func(name string, r io.Reader) error {
		ts, err := transcript.Read(r, name, opts.inputFormat)
		if err != nil {
			return inputError(err)
		}
		all = append(all, ts...)
		return nil
	})
	if err != nil {
		return err
	}
	if opts.conversation != "" {
		t, err := transcript.Select(all, opts.conversation)
		if err != nil {
			return usageErrorf("--conversation: %v", err)
		}
		all = []*transcript.Transcript{t}
	}
	listings := make([]*transcript.Listing, len(all))
	for i, t := range all {
		listings[i] = transcript.List(t)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return writeTranscriptTables(w, listings)
		}
		if len(listings) == 1 {
			return writeJSON(w, listings[0])
		}
		return writeJSON(w, listings)
	})
}

// writeTranscriptTables writes, for each listing, a summary line, one row a
// message and the unpaired calls and skipped records below.
func writeTranscriptTables(w io.Writer, ls []*transcript.Listing) error {
	for i, l := range ls {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := l.Format
		if l.Conversation != "" {
			title += " conversation " + l.Conversation
		}
		fmt.Fprintf(w, "%s: %s, %s, %d unpaired, %s\n", title, plural(len(l.Messages), "message"),
			plural(l.Turns, "turn"), len(l.Unpaired), plural(len(l.Compactions), "compaction"))
		rows := make([][]string, 0, len(l.Messages))
		chars := 0
		compacted := map[int]bool{}
		for _, c := range l.Compactions {
			compacted[c] = true
		}
		for _, m := range l.Messages {
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
				in = fmt.Sprint(*m.InputTokens)
			}
			var notes []string
			if m.Aborted {
				notes = append(notes, "aborted")
			}
			switch {
			case compacted[m.Index]:
				notes = append(notes, "summary") // a compaction summary (and meta)
			case m.Meta:
				notes = append(notes, "meta")
			}
			rows = append(rows, []string{fmt.Sprint(m.Index), fmt.Sprint(m.Turn), m.Role,
				fmt.Sprint(m.Chars), in, tools, strings.Join(notes, " ")})
		}
		footer := []string{"", "", "total", fmt.Sprint(chars), "", "", ""}
		if err := renderTable(w, []string{"#", "turn", "role", "chars", "input", "tool", "notes"}, rows, footer); err != nil {
			return err
		}
		for _, u := range l.Unpaired {
			what := "call without a result"
			if u.Kind == "result" {
				what = "result without a call"
			}
			fmt.Fprintf(w, "unpaired: message %d, %s: %s\n", u.Message, what, u.ToolCallID)
		}
		if len(l.Skipped) > 0 {
			kinds := make([]string, 0, len(l.Skipped))
			for k := range l.Skipped {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			for i, k := range kinds {
				kinds[i] = fmt.Sprintf("%s %d", k, l.Skipped[k])
			}
			writeWrapped(w, "skipped: ", kinds)
		}
	}
	return nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeWrapped writes prefix and the items joined by ", ", breaking lines
// before 80 columns; continuation lines are indented.
func writeWrapped(w io.Writer, prefix string, items []string) {
	line := prefix
	for i, it := range items {
		if i < len(items)-1 {
			it += ","
		}
		if len(line)+1+len(it) > 79 && len(line) > len(prefix) {
			fmt.Fprintln(w, line)
			line = strings.Repeat(" ", len(prefix)) + it
			continue
		}
		if len(line) > len(prefix) {
			line += " "
		}
		line += it
	}
	fmt.Fprintln(w, line)
}
