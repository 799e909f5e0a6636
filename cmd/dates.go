package cmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/pkg/dates"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/spf13/cobra"
)

// datesOptions are the flags of harpe dates.
type datesOptions struct {
	saidOn string
	anchor string
	jsonl  bool
	format string
	output string
	files  []string
}

func newDatesCmd(a *app) *cobra.Command {
	opts := &datesOptions{}
	c := &cobra.Command{
		Use:   "dates [FILE…]",
		Short: "Write the calendar date next to relative date phrases",
		Long: `harpe dates copies text through and writes the calendar date next to each
relative phrase ("yesterday", "three weeks ago", "last weekend", "last
month"), counted from the day the text was said, so a model that sees a
remembered turn out of its conversation can still place it in time:

  yesterday (2023-05-19)   last week (2023-05-08 to 2023-05-14)
  last month (2023-04)     last year (2022)

Phrases that could mean more than one date ("next Friday", "in two weeks",
"this Friday") and vague ones ("a few days ago", "recently") are left as
they are, and so is a phrase already followed by a date: running the
command twice changes nothing the second time.

The day the text was said is --said-on YYYY-MM-DD, or --anchor with a
session timestamp in any format "harpe dates anchor" reads. With --jsonl the
input is context items and each item's "content" is dated by the item's own
"timestamp" (RFC 3339, another anchor format, or Unix seconds); --said-on or
--anchor then only dates items without a timestamp, and without them such
items pass through unchanged. Only "content" is rewritten; every other byte
of the line stays as it came in.

--format json writes, for each input, the spans found (byte offsets into the
input, and always full days: "date" is the first day, "end_date" the last)
and the annotated text.

A file named "anchor" must be given as ./anchor.
` + exitStatusHelp,
		Example: `  harpe dates --said-on 2023-05-20 notes.txt
  harpe dates --anchor '1:56 pm on 8 May, 2023' session.txt
  harpe dates --jsonl items.jsonl -o dated.jsonl
  harpe dates anchor '2023/05/20 (Sat) 02:21'`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.files = args
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runDates(a, opts)
		},
	}
	f := c.Flags()
	f.StringVar(&opts.saidOn, "said-on", "", "the day the text was said, as `YYYY-MM-DD`")
	f.StringVar(&opts.anchor, "anchor", "", "the day the text was said, from a session `TIMESTAMP` (see harpe dates anchor)")
	f.BoolVar(&opts.jsonl, "jsonl", false, "read context items and date each one's content by its own timestamp")
	f.StringVarP(&opts.format, "format", "f", "text", "output `FORMAT`: text (the annotated input) or json (spans and text)")
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	c.AddCommand(newDatesAnchorCmd(a))
	return c
}

// defaultDate returns the day given by --said-on or --anchor, nil when
// neither is given.
func (o *datesOptions) defaultDate() (*dates.Date, error) {
	const hint = "; accepted: YYYY-MM-DD such as 2023-05-20 (a session timestamp goes in --anchor)"
	switch {
	case o.saidOn != "" && o.anchor != "":
		return nil, usageErrorf("--said-on and --anchor: give one, not both")
	case o.saidOn != "":
		d, err := dates.ParseDay(o.saidOn)
		if err != nil {
			return nil, usageErrorf("--said-on: %v%s", err, hint)
		}
		return &d, nil
	case o.anchor != "":
		d, err := dates.ParseAnchor(o.anchor)
		if err != nil {
			return nil, usageErrorf("--anchor: %v", err)
		}
		return &d, nil
	}
	return nil, nil
}

func runDates(a *app, opts *datesOptions) error {
	def, err := opts.defaultDate()
	if err != nil {
		return err
	}
	if opts.jsonl {
		return runDatesJSONL(a, opts, def)
	}
	if def == nil {
		return usageErrorf("--said-on: required: the day the text was said (YYYY-MM-DD), or --anchor TIMESTAMP, or --jsonl to date items by their timestamp")
	}
	var texts []dates.TextReport
	err = a.eachInput(opts.files, func(name string, r io.Reader) error {
		data, err := io.ReadAll(r)
		if err != nil {
			return inputError(fmt.Errorf("%s: %w", name, err))
		}
		text := string(data)
		if opts.format == "json" && !utf8.ValidString(text) {
			return inputError(fmt.Errorf("%s: %s; --format json needs UTF-8 text (the text format copies any bytes)", name, jsonl.UTF8Message(data, jsonl.InvalidUTF8(data))))
		}
		out, spans, err := dates.Annotate(a.ctx, text, *def)
		if err != nil {
			return err
		}
		texts = append(texts, dates.TextReport{File: name, SaidOn: def.String(), Spans: dates.ReportSpans(spans), Text: out})
		return nil
	})
	if err != nil {
		return err
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		for _, t := range texts {
			var err error
			if opts.format == "json" {
				err = writeJSON(w, t)
			} else {
				_, err = io.WriteString(w, t.Text)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

func runDatesJSONL(a *app, opts *datesOptions, def *dates.Date) error {
	var out bytes.Buffer
	var items []dates.ItemReport
	undated := 0 // items with no day to count from: nothing is dated in them
	// Items are read by the engine's reader, as every command reads them;
	// a "timestamp" string may also be any anchor format.
	rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10, Timestamp: dates.AnchorTime})
	err := a.eachInput(opts.files, func(name string, r io.Reader) error {
		return inputError(rd.Rewrite(a.ctx, r, name, &out, func(l engine.Line) ([]byte, error) {
			newLine, item, err := dateItem(a.ctx, l.Item, def)
			if err != nil {
				return nil, inputError(fmt.Errorf("%s:%d: %v", name, l.No, err))
			}
			item.File, item.Line = name, l.No
			if item.SaidOn == nil {
				undated++
			}
			items = append(items, item)
			return newLine, nil
		}))
	})
	if err != nil {
		return err
	}
	if undated > 0 {
		fmt.Fprintf(a.io.Err, "harpe: note: %s without a timestamp left undated (--said-on or --anchor gives them a day)\n", plural(undated, "item"))
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		if opts.format == "json" {
			if items == nil {
				items = []dates.ItemReport{}
			}
			return writeJSON(w, struct {
				Items []dates.ItemReport `json:"items"`
			}{items})
		}
		_, err := w.Write(out.Bytes())
		return err
	})
}

// dateItem dates the content of one item (see [dates.AnnotateItem]) and
// returns the line to write: the item's line itself when nothing changes.
func dateItem(ctx context.Context, it *engine.Item, def *dates.Date) ([]byte, dates.ItemReport, error) {
	annotated, item, err := dates.AnnotateItem(ctx, it.Content, it.Timestamp, def)
	if err != nil {
		return nil, item, err
	}
	item.ID = jsonl.String(it.ID)
	if len(item.Spans) == 0 {
		return it.Raw, item, nil
	}
	line, err := jsonl.SetField(it.Raw, "content", jsonl.String(annotated))
	return line, item, err
}

// datesAnchorOptions are the flags of harpe dates anchor.
type datesAnchorOptions struct {
	format string
	inputs []string
}

func newDatesAnchorCmd(a *app) *cobra.Command {
	opts := &datesAnchorOptions{}
	c := &cobra.Command{
		Use:   "anchor [TEXT…]",
		Short: "Print the calendar day each session timestamp names",
		Long: `harpe dates anchor prints the calendar day (YYYY-MM-DD) each session
timestamp names, one a line, in the timestamp's own offset:
2023-05-20T23:30:00-07:00 is 2023-05-20, not the next day it is in UTC. Unix
time, which has no offset, is read in UTC. With no TEXT, it reads one timestamp a line from
standard input (blank lines skipped).

Accepted formats, by example:
  ` + strings.Join(dates.AnchorFormats, "\n  ") + `

Month and weekday names may be full or short, in any letter case; a weekday
that does not match the date is an error. --format json writes
[{"input": "…", "date": "2023-05-20"}].
` + exitStatusHelp,
		Example: `  harpe dates anchor '2023/05/20 (Sat) 02:21' '1:56 pm on 8 May, 2023'`,
		Args:    cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			opts.inputs = args
			if err := checkFormat(opts.format, "text", "json"); err != nil {
				return err
			}
			return runDatesAnchor(a, opts)
		},
	}
	c.Flags().StringVarP(&opts.format, "format", "f", "text", "output `FORMAT`: text (one date a line) or json")
	return c
}

type anchorResult struct {
	Input string `json:"input"`
	Date  string `json:"date"`
}

func runDatesAnchor(a *app, opts *datesAnchorOptions) error {
	var results []anchorResult
	if len(opts.inputs) > 0 {
		for i, s := range opts.inputs {
			d, err := dates.ParseAnchor(s)
			if err != nil {
				return usageErrorf("anchor %d: %v", i+1, err)
			}
			results = append(results, anchorResult{s, d.String()})
		}
	} else {
		rd := jsonl.NewReader(a.io.In)
		for {
			line, n, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return inputError(fmt.Errorf("%s: %w", stdinName, err))
			}
			s := strings.TrimSpace(string(line))
			if s == "" {
				continue
			}
			d, err := dates.ParseAnchor(s)
			if err != nil {
				return inputError(fmt.Errorf("%s:%d: %v", stdinName, n, err))
			}
			results = append(results, anchorResult{s, d.String()})
		}
	}
	return a.writeOutput("", func(w io.Writer) error {
		if opts.format == "json" {
			if results == nil {
				results = []anchorResult{}
			}
			return writeJSON(w, results)
		}
		for _, r := range results {
			if _, err := fmt.Fprintln(w, r.Date); err != nil {
				return err
			}
		}
		return nil
	})
}
