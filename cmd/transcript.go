package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/pkg/cost"
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
A file with several conversations (ShareGPT, long-memory) gives one listing each;
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
	f.StringVarP(&opts.format, "format", "f", "json", "output `FORMAT`: json or table")
	f.StringVar(&opts.inputFormat, "input-format", "", "read the input as `FORMAT` instead of detecting it ("+strings.Join(transcript.Formats(), ", ")+")")
	f.StringVar(&opts.conversation, "conversation", "", "list only the conversation with this `ID` (ShareGPT and long-memory files hold several)")
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	return c
}

func runTranscript(a *app, opts *transcriptOptions) error {
	// Scan keeps no message texts: the listings are built as messages
	// settle, so a large transcript costs its listing, not its text.
	var all []*transcript.Transcript
	var listings []*transcript.Listing
	err := a.eachInput(opts.args, func(name string, r io.Reader) error {
		byT := map[*transcript.Transcript]*transcript.Listing{}
		n := 0
		ts, err := transcript.Scan(r, name, opts.inputFormat, func(t *transcript.Transcript, m *transcript.Message) error {
			l := byT[t]
			if l == nil {
				l = &transcript.Listing{}
				byT[t] = l
			}
			l.Add(m)
			if n++; n%100000 == 0 && a.io.ErrIsTerminal {
				fmt.Fprintf(a.io.Err, "\rharpe: %s: %d messages read", name, n)
			}
			return a.ctx.Err()
		})
		if n >= 100000 && a.io.ErrIsTerminal {
			fmt.Fprint(a.io.Err, "\r\033[K") // clear the progress line
		}
		if err != nil {
			return inputError(err)
		}
		for _, t := range ts {
			l := byT[t]
			if l == nil {
				l = &transcript.Listing{}
			}
			l.SetHeader(t)
			if err := a.priceListing(l); err != nil {
				return err
			}
			all = append(all, t)
			listings = append(listings, l)
		}
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
		i := slices.Index(all, t)
		listings = listings[i : i+1]
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return writeTranscriptTables(w, listings)
		}
		return writeListingsJSON(w, listings)
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
			title += " conversation " + escapeControl(l.Conversation)
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
			fmt.Fprintf(w, "unpaired: message %d, %s: %s\n", u.Message, what, escapeControl(u.ToolCallID))
		}
		if len(l.Skipped) > 0 {
			kinds := make([]string, 0, len(l.Skipped))
			for k := range l.Skipped {
				kinds = append(kinds, k)
			}
			slices.Sort(kinds)
			for i, k := range kinds {
				kinds[i] = fmt.Sprintf("%s %d", escapeControl(k), l.Skipped[k])
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

// writeListingsJSON writes what writeJSON would write for one listing (or
// an array of several), byte for byte, but encodes the messages one at a
// time instead of building the whole document in memory first.
func writeListingsJSON(w io.Writer, ls []*transcript.Listing) error {
	if len(ls) == 1 {
		return writeListingJSON(w, ls[0], "", "\n")
	}
	if len(ls) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	io.WriteString(w, "[\n")
	for i, l := range ls {
		end := ",\n"
		if i == len(ls)-1 {
			end = "\n"
		}
		io.WriteString(w, "  ")
		if err := writeListingJSON(w, l, "  ", end); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]\n")
	return err
}

// writeListingJSON writes l as a json.Encoder indenting with prefix and two
// spaces would (the first line without the prefix), then end.
func writeListingJSON(w io.Writer, l *transcript.Listing, prefix, end string) error {
	head := *l
	head.Messages = nil
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(&head); err != nil {
		return err
	}
	doc := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	// A key inside a JSON string would have its quotes escaped, so the
	// first match is the field itself.
	marker := []byte(`"messages": null`)
	at := bytes.Index(doc, marker)
	if at < 0 {
		return fmt.Errorf("listing: no messages field")
	}
	if _, err := w.Write(doc[:at]); err != nil {
		return err
	}
	io.WriteString(w, `"messages": `)
	if len(l.Messages) == 0 {
		io.WriteString(w, "[]")
	} else {
		io.WriteString(w, "[\n")
		inner := prefix + "    "
		var mb bytes.Buffer
		menc := json.NewEncoder(&mb)
		menc.SetEscapeHTML(false)
		menc.SetIndent(inner, "  ")
		for i := range l.Messages {
			mb.Reset()
			if err := menc.Encode(&l.Messages[i]); err != nil {
				return err
			}
			io.WriteString(w, inner)
			w.Write(bytes.TrimSuffix(mb.Bytes(), []byte("\n")))
			if i < len(l.Messages)-1 {
				io.WriteString(w, ",\n")
			} else {
				io.WriteString(w, "\n")
			}
		}
		io.WriteString(w, prefix+"  ]")
	}
	if _, err := w.Write(doc[at+len(marker):]); err != nil {
		return err
	}
	_, err := io.WriteString(w, end)
	return err
}

// priceListing sets the cost of l's recorded usage (issue 12), with a note
// on stderr for each model that has no prices.
func (a *app) priceListing(l *transcript.Listing) error {
	if l.Recorded == nil {
		return nil
	}
	cat, err := a.modelCatalog()
	if err != nil {
		return err
	}
	usd, unpriced, ok := cost.ListingCost(l, cat)
	if !ok {
		return nil
	}
	l.CostUSD, l.UnpricedModels = &usd, unpriced
	for _, m := range unpriced {
		fmt.Fprintf(a.io.Err, "harpe: note: no prices for model %q; its calls are priced at 0 (add them under models: in harpe.yaml)\n", m)
	}
	return nil
}
