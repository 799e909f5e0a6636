package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/harpe-dev/harpe/internal/prose"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
	"github.com/harpe-dev/harpe/report"
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
	verbose      bool
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
among them): every file there that is a transcript is read, and the report
names the files skipped and why. A path that does not exist is named on
stderr and the others are read (exit status 1). With no path and standard
input a terminal, every harness directory present is read (harpe formats
lists them). A half-written last line (a session still being written) is
skipped with a warning; so is a broken line of a session log (cut short by
a crash), counted in the report (--strict: an error). --verbose lists each
session's records that are not messages, by type.

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
			if !slices.Contains(usage.SummaryGroupings, opts.by) {
				return usageErrorf("--by: unknown grouping %q; valid: day, project, model", opts.by)
			}
			if a.cmdLine["tokenizer"] && !opts.breakdown && (opts.emit != "" || !opts.messages || opts.format == "table") {
				// The summary and the table show recorded usage or
				// characters and --emit items writes no token_count: said
				// once rather than silently ignored.
				fmt.Fprintln(a.io.Err, "harpe: note: --tokenizer is ignored: only the JSON listing and --breakdown count tokens")
			}
			if len(args) == 0 && a.io.InIsTerminal {
				var err error
				if args, err = a.harnessPaths(); err != nil {
					return err
				}
			}
			opts.args = args
			a.ctx = a.readContext()
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
	a.addStrictLinesFlag(c)
	f.BoolVarP(&opts.verbose, "verbose", "v", false, "also list on stderr, for each session, the records read that are not messages, by type (record types harpe does not know among them), and every warning (else a warning said of more than 3 files or lines is counted after the third)")
	return c
}

// build is what the flags ask to build of each conversation.
func (o *transcriptOptions) build() usage.Build {
	switch {
	case o.breakdown:
		return usage.BuildBreakdown
	case o.emit != "":
		return usage.BuildItems
	case o.messages:
		return usage.BuildListing
	}
	return usage.BuildSummary
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
		if err := got.Select(opts.conversation); err != nil {
			return usageErrorf("--conversation: %v", err)
		}
	}
	switch co.Build {
	case usage.BuildSummary:
		return a.writeTranscriptSummary(opts, got.Summaries)
	case usage.BuildItems:
		if got.Aborted > 0 {
			fmt.Fprintf(a.io.Err, "harpe: left out %s of aborted turns (not context)\n", plural(got.Aborted, "message"))
		}
		return a.writeOutput(opts.output, func(w io.Writer) error { return transcript.WriteItems(w, got.Items) })
	case usage.BuildBreakdown:
		return a.writeTranscriptBreakdown(opts, got.Breakdowns)
	}
	note := a.unpricedNoter()
	for _, l := range got.Listings {
		note(l.UnpricedModels)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return report.WriteTranscriptListings(w, got.Listings, tableOptionsOf(w))
		}
		return report.WriteTranscriptListingsJSON(w, got.Listings)
	})
}

// transcriptCollectOptions are what runTranscript builds and with what
// it counts and prices (--emit items neither counts nor prices).
func (a *app) transcriptCollectOptions(opts *transcriptOptions) (usage.CollectOptions, error) {
	co := usage.CollectOptions{Format: transcript.Format(opts.inputFormat), Build: opts.build(), KeepSkipped: opts.verbose}
	counter, err := tokenize.New(opts.tokenizer)
	if err != nil {
		return co, usageErrorf("--tokenizer: %v", err)
	}
	co.Counter = counter
	if co.Build != usage.BuildItems {
		cat, err := a.modelCatalog()
		if err != nil {
			return co, err
		}
		co.Catalog = cat
	}
	return co, nil
}

// collectTranscripts reads every input and builds what co asks of each
// conversation, with a progress line on a terminal's stderr for large
// ones and each file's warnings; the conversations come in input order.
func (a *app) collectTranscripts(args []string, co usage.CollectOptions) (*usage.Collected, error) {
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, args, func(name string, r io.Reader) (*usage.Collected, error) {
		o := co
		progress := false
		if a.io.ErrIsTerminal {
			o.Progress = func(n int) {
				progress = true
				fmt.Fprintf(a.io.Err, "\rharpe: %s: %d messages read", name, n)
			}
		}
		got, err := usage.Collect(a.ctx, r, name, o)
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
	all := &usage.Collected{}
	var warnings []*transcript.Error
	for _, f := range files {
		warnings = append(warnings, f.Warnings...) // a summary keeps no transcripts
		all.Append(f)
	}
	a.writeWarnings(warnings, co.KeepSkipped)
	a.leftOut.broken, a.leftOut.at = all.BrokenLines, all.BrokenAt
	a.writeSkippedRecords(all.Skipped)
	return all, nil
}

// writeTranscriptSummary sums the sessions by --by and writes the
// summary, with a note for each model that has no price.
func (a *app) writeTranscriptSummary(opts *transcriptOptions, sessions usage.SessionSummaries) error {
	sum, err := usage.NewSummary(sessions, opts.by)
	if err != nil {
		return inputError(err)
	}
	a.addLeftOut(sum)
	note := a.unpricedNoter()
	for i := range sum.Sessions.Len() {
		note(sum.Sessions.At(i).UnpricedModels)
	}
	for _, g := range sum.Groups {
		note(g.UnpricedModels)
	}
	note(sum.Totals.UnpricedModels)
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return report.WriteTranscriptSummary(w, sum)
		}
		return report.WriteTranscriptSummaryJSON(w, sum)
	})
}

// writeTranscriptBreakdown sums the sessions' breakdowns and writes them,
// with a note for each model that has no price.
func (a *app) writeTranscriptBreakdown(opts *transcriptOptions, sessions []*usage.SessionBreakdown) error {
	note := a.unpricedNoter()
	for _, s := range sessions {
		note(s.UnpricedModels)
	}
	b, err := usage.NewBreakdown(sessions)
	if err != nil {
		return inputError(err)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "table" {
			return report.WriteTranscriptBreakdown(w, b, tableOptionsOf(w))
		}
		return report.WriteTranscriptBreakdownJSON(w, b)
	})
}

// plural is [prose.Plural], for the commands' own messages.
func plural(n int, word string) string { return prose.Plural(n, word) }

// unpricedNoter returns a function that notes on stderr, once per model,
// each model that has no prices.
func (a *app) unpricedNoter() func(models []string) {
	noted := map[string]bool{}
	return func(models []string) { noteNoPrices(a.io.Err, noted, models) }
}

// noteNoPrices notes on w each of models that has no prices, once per
// run of the command (noted).
func noteNoPrices(w io.Writer, noted map[string]bool, models []string) {
	for _, m := range models {
		if !noted[m] {
			noted[m] = true
			fmt.Fprintf(w, "harpe: note: no prices for model %q; its calls are left out of every cost, which reads unpriced, never $0 (add them under models: in harpe.yaml)\n", m)
		}
	}
}

// warnSame is how many warnings that say the same thing with other
// figures are written before the rest are counted in one line.
const warnSame = 3

// writeWarnings writes the readers' warnings on stderr, in order: all of
// them with --verbose (all); else, of the warnings that say the same
// thing of different files or lines (the same text once the file and
// every number are taken out: "48 of 63 responses …" and "3 of 5 …"),
// the first warnSame, then one line saying how many more there are and
// in how many files. A directory of hundreds of sessions written by one
// harness version otherwise gives hundreds of lines of one warning.
func (a *app) writeWarnings(ws []*transcript.Error, all bool) {
	type group struct {
		first, n int
		files    map[string]bool
	}
	groups := map[string]*group{}
	var order []string
	for i, w := range ws {
		k := warningKind(w)
		g := groups[k]
		if g == nil {
			g = &group{first: i, files: map[string]bool{}}
			groups[k] = g
			order = append(order, k)
		}
		g.n++
		if all || g.n <= warnSame {
			fmt.Fprintf(a.io.Err, "harpe: warning: %s\n", escapeControl(w.Error()))
			continue
		}
		g.files[w.Name] = true
	}
	for _, k := range order {
		g := groups[k]
		if all || g.n <= warnSame {
			continue
		}
		fmt.Fprintf(a.io.Err, "harpe: warning: %d more like the first of %s, in %s (harpe transcript --verbose writes each)\n",
			g.n-warnSame, escapeControl(ws[g.first].Name), prose.Plural(len(g.files), "file"))
	}
}

// warningKind is a warning's text with every run of digits made one "#":
// warnings of one kind about other files, lines and counts share it.
func warningKind(w *transcript.Error) string {
	msg := []byte(w.Err.Error())
	out := msg[:0]
	for i := 0; i < len(msg); i++ {
		if msg[i] >= '0' && msg[i] <= '9' {
			if len(out) == 0 || out[len(out)-1] != '#' {
				out = append(out, '#')
			}
			continue
		}
		out = append(out, msg[i])
	}
	return w.Path + "\x00" + string(out)
}
