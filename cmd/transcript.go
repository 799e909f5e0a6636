package cmd

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/spf13/cobra"
)

// transcriptOptions are the flags of `harpe transcript`.
type transcriptOptions struct {
	format       string
	inputFormat  string
	conversation string
	output       string
	tokenizer    string
	emit         string
	breakdown    bool
	messages     bool
	by           string
	args         []string
}

func newTranscriptCmd(a *app) *cobra.Command {
	opts := &transcriptOptions{}
	c := &cobra.Command{
		Use:   "transcript [FILE|DIR…]",
		Short: "Summarize saved conversations: one line a session, or every message",
		Long: `transcript reads saved conversations and writes one line per session: when
it started (UTC), the project (the working directory the session recorded,
else the file's directory), the harness and the models that answered, the
calls, the recorded input, cache read, cache write and output tokens, and
what they cost at list prices; sorted by start time, with a total row.
--by day, project or model groups the same figures (days in UTC, each call
counted on its own day). The table writes tokens as 17.2M or 738k; the JSON
has the exact figures. Point it at ~/.claude/projects or ~/.codex/sessions:
  harpe transcript ~/.claude/projects ~/.codex/sessions --by day

--messages lists, instead, what harpe made of each conversation: each
message's role, turn, size, tokens, tool calls (ids and tool names) and
provider usage, the turn count, tool calls without a result (and results
without a call), and the records that are not messages, counted by kind.
In the table the records of one streamed response (Claude Code writes one
per content block) are one message; the JSON keeps one entry a record.

Formats, detected from the content (--input-format names one): ` + transcript.FormatList() + `.
A file with several conversations (ShareGPT, long-memory) gives one listing each;
--conversation ID picks one. Several files are read in parallel and listed
in the order given; a directory is walked recursively in sorted order (the
layouts of ~/.claude/projects, subagent files included, and ~/.codex/sessions
among them): every file there that is a transcript is read, and stderr says
how many files were skipped and why. A half-written last line (a session
still being written) is skipped with a warning; everything before it is read.

--messages --format json writes the listing other tools check a replay
against (each listing names its "file"). chars counts the Unicode code
points of the text plus each tool call's name and arguments; tokens is what
the message costs in a chat request (harpe count --transcript's rule) with
--tokenizer.

--breakdown writes, instead, each session's tokens by category (system, user,
assistant, thinking, tool calls, tool results by tool name) and their totals.

--emit items writes the conversations as context items (JSONL), ready for
harpe synthesize:
  harpe transcript session.jsonl --emit items | harpe synthesize --budget 8000
` + exitStatusHelp,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.format = a.reportFormat(opts.format, toStdout(opts.output) && opts.emit == "")
			if err := checkFormat(opts.format, "json", "table"); err != nil {
				return err
			}
			if opts.inputFormat == "auto" {
				opts.inputFormat = "" // detect, as fit's --input-format auto does
			}
			if opts.inputFormat != "" && !slices.Contains(transcript.FormatNames(), opts.inputFormat) {
				return usageErrorf("--input-format: unknown format %q; valid: %s", opts.inputFormat, transcript.FormatList())
			}
			if opts.emit != "" && opts.emit != "items" {
				return usageErrorf("--emit: unknown value %q; valid: items", opts.emit)
			}
			if opts.emit != "" && opts.breakdown {
				return usageErrorf("--emit and --breakdown: choose one")
			}
			if opts.messages && (opts.emit != "" || opts.breakdown) {
				return usageErrorf("--messages and --%s: choose one", map[bool]string{true: "breakdown", false: "emit"}[opts.breakdown])
			}
			if opts.by != "" && (opts.messages || opts.emit != "" || opts.breakdown) {
				return usageErrorf("--by groups the session summary; it does not go with --messages, --breakdown or --emit")
			}
			if opts.by == "" {
				opts.by = "session"
			}
			if !slices.Contains(transcript.SummaryGroupings, opts.by) {
				return usageErrorf("--by: unknown grouping %q; valid: day, project, model", opts.by)
			}
			if a.cmdLine["tokenizer"] && !opts.breakdown && (opts.emit != "" || !opts.messages || opts.format == "table") {
				// The summary and the table show recorded usage or
				// characters and --emit items writes no token_count: said
				// once rather than silently ignored.
				fmt.Fprintln(a.io.Err, "harpe: note: --tokenizer is ignored: only the JSON listing and --breakdown count tokens")
			}
			opts.args = args
			return runTranscript(a, opts)
		},
	}
	f := c.Flags()
	f.StringVarP(&opts.format, "format", "f", "", formatFlagHelp("table or json"))
	f.StringVar(&opts.inputFormat, "input-format", "", "read the input as `FORMAT` instead of detecting it (auto: detect; "+transcript.FormatList()+")")
	f.StringVar(&opts.conversation, "conversation", "", "list only the conversation with this `ID` (ShareGPT and long-memory files hold several)")
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	f.StringVarP(&opts.tokenizer, "tokenizer", "t", "estimate", "count message tokens with `NAME`: "+strings.Join(tokenize.Names(), ", ")+tokenizerHelp)
	f.StringVar(&opts.emit, "emit", "", "write the conversations as `items` JSONL for harpe synthesize instead of a listing")
	f.BoolVar(&opts.breakdown, "breakdown", false, "write each session's tokens by category and tool, and their totals")
	a.addPriceFlags(c, true)
	f.BoolVar(&opts.messages, "messages", false, "list every message (role, turn, size, tools, usage) instead of one line per session")
	f.StringVar(&opts.by, "by", "", "group the session summary by `KEY`: day, project or model")
	return c
}

// build is what the flags ask to build of each conversation.
func (o *transcriptOptions) build() transcript.Build {
	switch {
	case o.breakdown:
		return transcript.BuildBreakdown
	case o.emit != "":
		return transcript.BuildItems
	case o.messages:
		return transcript.BuildListing
	}
	return transcript.BuildSummary
}

func runTranscript(a *app, opts *transcriptOptions) error {
	co, err := a.transcriptCollectOptions(opts)
	if err != nil {
		return err
	}
	got, err := a.collectTranscripts(opts.args, co)
	if err != nil {
		return err
	}
	if opts.conversation != "" {
		t, err := transcript.Select(got.Transcripts, opts.conversation)
		if err != nil {
			return usageErrorf("--conversation: %v", err)
		}
		got.Only(slices.Index(got.Transcripts, t))
	}
	switch co.Build {
	case transcript.BuildSummary:
		return a.writeTranscriptSummary(opts, got.Summaries)
	case transcript.BuildItems:
		if got.Aborted > 0 {
			fmt.Fprintf(a.io.Err, "harpe: left out %s of aborted turns (not context)\n", plural(got.Aborted, "message"))
		}
		return a.writeOutput(opts.output, func(w io.Writer) error { return writeItems(w, got.Items) })
	case transcript.BuildBreakdown:
		return a.writeTranscriptBreakdown(opts, got.Breakdowns)
	}
	note := a.unpricedNoter()
	for _, l := range got.Listings {
		note(l.UnpricedModels)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return writeTranscriptTables(w, got.Listings)
		}
		return transcript.WriteListingsJSON(w, got.Listings)
	})
}

// transcriptCollectOptions are what runTranscript builds and with what
// it counts and prices (--emit items neither counts nor prices).
func (a *app) transcriptCollectOptions(opts *transcriptOptions) (transcript.CollectOptions, error) {
	co := transcript.CollectOptions{Format: transcript.Format(opts.inputFormat), Build: opts.build()}
	counter, err := tokenize.New(opts.tokenizer)
	if err != nil {
		return co, usageErrorf("--tokenizer: %v", err)
	}
	co.Counter = counter
	if co.Build != transcript.BuildItems {
		cat, err := a.modelCatalog()
		if err != nil {
			return co, err
		}
		co.Pricer = cost.RecordedPricer(cat)
	}
	return co, nil
}

// collectTranscripts reads every input and builds what co asks of each
// conversation, with a progress line on a terminal's stderr for large
// ones and each file's warnings; the conversations come in input order.
func (a *app) collectTranscripts(args []string, co transcript.CollectOptions) (*transcript.Collected, error) {
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, args, func(name string, r io.Reader) (*transcript.Collected, error) {
		o := co
		progress := false
		if a.io.ErrIsTerminal {
			o.Progress = func(n int) {
				progress = true
				fmt.Fprintf(a.io.Err, "\rharpe: %s: %d messages read", name, n)
			}
		}
		got, err := transcript.Collect(a.ctx, r, name, o)
		if progress {
			fmt.Fprint(a.io.Err, "\r\033[K") // clear the progress line
		}
		if err != nil {
			return nil, inputError(err)
		}
		return got, nil
	})
	if err != nil {
		return nil, err
	}
	all := &transcript.Collected{}
	for _, f := range files {
		a.warnTranscripts(f.Transcripts)
		all.Append(f)
	}
	return all, nil
}

// writeTranscriptSummary sums the sessions by --by and writes the
// summary, with a note for each model that has no price.
func (a *app) writeTranscriptSummary(opts *transcriptOptions, sessions []*transcript.SessionSummary) error {
	sum, err := transcript.NewSummary(sessions, opts.by)
	if err != nil {
		return inputError(err)
	}
	note := a.unpricedNoter()
	for _, s := range sum.Sessions {
		note(s.UnpricedModels)
	}
	for _, g := range sum.Groups {
		note(g.UnpricedModels)
	}
	note(sum.Totals.UnpricedModels)
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return writeSummaryTable(w, sum, sum.Unpriced())
		}
		return sum.WriteJSON(w)
	})
}

// writeTranscriptBreakdown sums the sessions' breakdowns and writes them,
// with a note for each model that has no price.
func (a *app) writeTranscriptBreakdown(opts *transcriptOptions, sessions []*transcript.SessionBreakdown) error {
	note := a.unpricedNoter()
	for _, s := range sessions {
		note(s.UnpricedModels)
	}
	b, err := transcript.NewBreakdown(sessions)
	if err != nil {
		return inputError(err)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return writeBreakdownTable(w, b)
		}
		return b.WriteJSON(w)
	})
}

// writeItems writes the items of each transcript as JSONL; with several
// transcripts, ids get the transcript's 1-based number as a prefix
// ("2.m5") so they stay unique in one stream.
func writeItems(w io.Writer, items [][]transcript.Item) error {
	for k, its := range items {
		for _, it := range its {
			if len(items) > 1 {
				it.ID = fmt.Sprintf("%d.%s", k+1, it.ID)
				if it.Group != "" {
					it.Group = fmt.Sprintf("%d.%s", k+1, it.Group)
				}
			}
			if err := writeJSONLine(w, it); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeTranscriptTables writes, for each listing, a summary line, one row a
// message and the unpaired calls and skipped records below.
func writeTranscriptTables(out io.Writer, ls []*transcript.Listing) error {
	w := &stickyWriter{w: out}
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
			title += ", conversation " + escapeControl(l.Conversation)
		}
		// A streamed response (Claude Code writes one record per content
		// block, sharing the call) is one message here.
		msgs := joinCalls(l.Messages)
		fmt.Fprintf(w, "%s: %s, %s, %d unpaired, %s\n", title, plural(len(msgs), "message"),
			plural(l.Turns, "turn"), len(l.Unpaired), plural(len(l.Compactions), "compaction"))
		rows := make([][]string, 0, len(msgs))
		chars := 0
		compacted := map[int]bool{}
		for _, c := range l.Compactions {
			compacted[c] = true
		}
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
			index := fmt.Sprint(m.Index)
			if jm.last > m.Index {
				index = fmt.Sprintf("%d-%d", m.Index, jm.last)
			}
			rows = append(rows, []string{index, fmt.Sprint(m.Turn), m.Role,
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
	return w.err
}

// stickyWriter keeps the first error of the writes through it, so a
// table writer checks once, at its end, what fmt.Fprintf would drop; its
// tables are drawn as the wrapped output's.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

func (s *stickyWriter) tableOptions() table.Options { return tableOptionsOf(s.w) }

// joinedMessage is one row of the message table: a listing message, or
// the records of one streamed response joined (chars and tool calls
// summed, the first record's input), Index to last.
type joinedMessage struct {
	transcript.ListingMessage
	last int
}

// joinCalls joins consecutive messages that share a non-empty Call.
func joinCalls(ms []transcript.ListingMessage) []joinedMessage {
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

// unpricedLine says what a cost leaves out: `unpriced: 6 calls, 66116
// tokens of "mystery-1": not in the cost`.
func unpricedLine(us []transcript.UnpricedCalls) string {
	calls, tokens := 0, 0
	names := make([]string, 0, len(us))
	for _, u := range us {
		calls, tokens = calls+u.Calls, tokens+u.Tokens
		names = append(names, strconv.Quote(u.Model))
	}
	return fmt.Sprintf("unpriced: %s, %d tokens of %s: not in the cost\n",
		plural(calls, "call"), tokens, strings.Join(names, ", "))
}

// writeBreakdownTable writes, for each session and then the totals, the
// tokens by category and the tools by result tokens.
func writeBreakdownTable(out io.Writer, b *transcript.Breakdown) error {
	w := &stickyWriter{w: out}
	section := func(title string, sessions, calls, visible int, tk transcript.CategoryTokens, tools []transcript.ToolTokens, rec *transcript.RecordedUsage, dollars *float64, left []transcript.UnpricedCalls) error {
		fmt.Fprintf(w, "%s: %s, %d visible tokens\n", title, plural(calls, "call"), visible)
		pct := func(n int) string {
			if visible == 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f%%", float64(n)*100/float64(visible))
		}
		rows := [][]string{
			{"system", fmt.Sprint(tk.System), pct(tk.System)},
			{"user", fmt.Sprint(tk.User), pct(tk.User)},
			{"assistant", fmt.Sprint(tk.Assistant), pct(tk.Assistant)},
			{"thinking", fmt.Sprint(tk.Thinking), pct(tk.Thinking)},
			{"tool calls", fmt.Sprint(tk.ToolCalls), pct(tk.ToolCalls)},
			{"tool results", fmt.Sprint(tk.ToolResults), pct(tk.ToolResults)},
			{"tool definitions", fmt.Sprint(tk.ToolDefinitions), pct(tk.ToolDefinitions)},
		}
		over := "-"
		if tk.Overhead != nil {
			over = fmt.Sprint(*tk.Overhead)
		}
		footer := []string{"visible", fmt.Sprint(visible), pct(visible)}
		if err := renderTable(w, []string{"category", "tokens", "share"}, rows, footer); err != nil {
			return err
		}
		fmt.Fprintf(w, "unseen overhead (last recorded prompt minus visible): %s\n", over)
		if tk.Thinking > 0 {
			// count --transcript counts what a request would carry now:
			// providers drop earlier turns' thinking from the prompt.
			fmt.Fprintf(w, "count --transcript: %d (visible - thinking, not re-sent, + %d to prime)\n",
				visible-tk.Thinking+3*sessions, 3*sessions)
		}
		if rec != nil {
			// Wrapped before 80 columns: real sessions' sums are long.
			last := fmt.Sprintf("output %d", rec.Output)
			switch {
			case dollars != nil && *dollars == 0 && len(left) > 0:
				last += "; unpriced"
			case dollars != nil:
				last += fmt.Sprintf("; $%s at list prices", usd(*dollars))
			}
			writeWrapped(w, "recorded: ", []string{plural(rec.Calls, "call"), fmt.Sprintf("input %d", rec.Input),
				fmt.Sprintf("cache write %d", rec.CacheWrite), fmt.Sprintf("cache read %d", rec.CacheRead), last})
			if len(left) > 0 {
				fmt.Fprint(w, unpricedLine(left))
			}
		}
		if len(tools) == 0 {
			return nil
		}
		trows := make([][]string, 0, len(tools))
		for _, t := range tools {
			trows = append(trows, []string{t.Name, fmt.Sprint(t.Calls), fmt.Sprint(t.InputTokens),
				fmt.Sprint(t.ResultTokens), fmt.Sprint(t.MaxResultTokens)})
		}
		return renderTable(w, []string{"tool", "calls", "input tokens", "result tokens", "max result"}, trows, nil)
	}
	// A session's line names what its cost leaves out when a model it
	// names has no price; the totals' line adds those up.
	var all []transcript.UnpricedCalls
	for i, s := range b.Sessions {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := s.File
		if s.Conversation != "" {
			title += " conversation " + s.Conversation
		}
		var left []transcript.UnpricedCalls
		if len(s.UnpricedModels) > 0 {
			left = s.Unpriced()
		}
		all = transcript.MergeUnpriced(all, left)
		if err := section(title, 1, s.Calls, s.VisibleTokens, s.Tokens, s.Tools, s.Recorded, s.CostUSD, left); err != nil {
			return err
		}
	}
	if len(b.Sessions) > 1 {
		fmt.Fprintln(w)
		t := b.Totals
		if err := section(fmt.Sprintf("total over %d sessions", t.Sessions), t.Sessions, t.Calls, t.VisibleTokens, t.Tokens, t.Tools, t.Recorded, t.CostUSD, all); err != nil {
			return err
		}
	}
	return w.err
}
