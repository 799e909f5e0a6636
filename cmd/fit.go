package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/spf13/cobra"
)

// fitOptions are the flags of harpe fit.
type fitOptions struct {
	files        []string
	threshold    int
	thresholdSet bool
	quiet        bool
	tokenizer    string
	model        string
	inputFormat  string
	format       string
	output       string
}

// fitResult is what harpe fit reports.
type fitResult struct {
	Fits bool `json:"fits"`
	// Tokens is what the threshold is judged on: the counted size, or the
	// recorded one when the transcript records a larger prompt.
	Tokens int `json:"tokens"`
	// CountedTokens and RecordedTokens are given when a transcript records
	// usage: the size counted from the visible messages, and the prompt
	// the provider recorded for each conversation's last call (summed over
	// conversations), which includes what the transcript does not show
	// (system prompt, tool definitions).
	CountedTokens  *int   `json:"counted_tokens,omitempty"`
	RecordedTokens *int   `json:"recorded_tokens,omitempty"`
	Threshold      int    `json:"threshold"`
	Route          string `json:"route"` // "whole" or "retrieve"
}

func newFitCmd(a *app) *cobra.Command {
	var o fitOptions
	c := &cobra.Command{
		Use:   "fit --threshold N [FILE...]",
		Short: "Say whether a history fits whole under a token threshold",
		Long: `Count a history (items JSONL or a saved transcript, from the files or
standard input) and say whether it fits whole under --threshold tokens, so it
can go to the model as it is ("route": "whole"), or needs retrieval and a
budget ("route": "retrieve"). A history fits when its tokens are at most the
threshold.

Items: every item counts, "token_count" when given, else its content counted
with --tokenizer (` + strings.Join(tokenize.Names(), ", ") + `).
Transcripts: counted as a chat API bills them (every message's text, role and
name, tool calls and results, and the per-message framing; see harpe count
--transcript). A transcript that records usage also gives the recorded prompt
of its last call ("recorded_tokens", beside "counted_tokens"), which includes
the system prompt and tool definitions the file does not show; the threshold
is judged on the larger. Several files count as one history; a directory
stands for every transcript under it (walked as harpe transcript walks it).

--input-format auto (the default) reads a file whose first line is a JSON
object with a string "content" and no "type" as items JSONL, and anything
else as a transcript in the format it detects. Name the format to override:
items, or one of ` + transcript.FormatList() + `. (An
OpenAI chat JSONL file of {"role","content"} lines reads as items under
auto; --input-format openai bills it as chat messages.)

Examples:
  harpe fit --threshold 100000 chat.jsonl
  harpe fit --threshold 100000 -q chat.jsonl && echo "send it whole"
` + strings.Replace(exitStatusHelp, "\n  2 ", "\n  1    the history does not fit (0: it fits)\n  2 ", 1),
		RunE: func(c *cobra.Command, args []string) error {
			a.ctx = a.readContext()
			o.files = args
			if err := a.applyModel(c, o.model, ""); err != nil {
				return err
			}
			o.thresholdSet = c.Flags().Changed("threshold")
			return runFit(a, &o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.threshold, "threshold", 0, "most tokens `N` to send whole (required)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing; answer by exit status")
	f.StringVarP(&o.tokenizer, "tokenizer", "t", "estimate", "count tokens with `NAME`: "+strings.Join(tokenize.Names(), ", ")+tokenizerHelp)
	f.StringVarP(&o.model, "model", "m", "", "count with the tokenizer of model `NAME` (harpe models)")
	f.StringVar(&o.inputFormat, "input-format", "auto", "read the history as `FORMAT`: auto, items or a transcript format")
	f.StringVarP(&o.format, "format", "f", "", formatFlagHelp("table, json or yaml"))
	f.StringVarP(&o.output, "output", "o", "", "write to `FILE` atomically, not stdout")
	return c
}

func runFit(a *app, o *fitOptions) error {
	if !o.thresholdSet {
		return usageErrorf("--threshold: required: no threshold, no routing")
	}
	if o.threshold < 0 {
		return usageErrorf("--threshold: must be ≥ 0, got %d", o.threshold)
	}
	counter, err := tokenize.New(o.tokenizer)
	if err != nil {
		return usageErrorf("--tokenizer: %v", err)
	}
	o.format = a.reportFormat(o.format, toStdout(o.output))
	if err := checkFormat(o.format, "json", "yaml", "table"); err != nil {
		return err
	}
	if valid := append([]string{"auto", "items"}, transcript.FormatNames()...); !slices.Contains(valid, o.inputFormat) {
		return usageErrorf("--input-format: unknown format %q; valid: %s", o.inputFormat, strings.Join(valid, ", "))
	}
	// Transcripts are counted in parallel (files and directories, as
	// every transcript command reads them); items files are kept and read
	// in order afterwards, since ids must be unique across them.
	type part struct {
		name  string
		count transcript.HistoryCount
		items []byte
	}
	parts, err := readTranscriptFiles(a, readRules{}, o.files, func(name string, r io.Reader) (part, error) {
		items, count, err := countHistoryInput(a.ctx, name, r, o.inputFormat, counter)
		return part{name, count, items}, inputError(err)
	})
	if err != nil {
		return err
	}
	var h transcript.HistoryCount
	items := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	for _, p := range parts {
		a.warnTranscripts(p.count.Transcripts)
		if err := h.Add(p.count); err != nil {
			return inputError(fmt.Errorf("%s: %w", p.name, err))
		}
		if p.items != nil {
			if err := addItems(a.ctx, &h, items, counter, p.name, p.items); err != nil {
				return autoItemsHint(err, o.inputFormat, p.name, p.items)
			}
		}
	}
	res := fitResult{Tokens: h.Tokens, Threshold: o.threshold, Route: "retrieve"}
	if h.HasRecorded {
		counted, recorded := h.Tokens, h.Recorded
		res.CountedTokens, res.RecordedTokens = &counted, &recorded
		res.Tokens = max(counted, recorded)
	}
	res.Fits = res.Tokens <= o.threshold
	if res.Fits {
		res.Route = "whole"
	}
	if !o.quiet {
		err := a.writeOutput(o.output, func(w io.Writer) error {
			if o.format == "table" && res.RecordedTokens != nil {
				return renderTable(w, []string{"FITS", "TOKENS", "COUNTED", "RECORDED", "THRESHOLD", "ROUTE"},
					[][]string{{strconv.FormatBool(res.Fits), strconv.Itoa(res.Tokens), strconv.Itoa(*res.CountedTokens),
						strconv.Itoa(*res.RecordedTokens), strconv.Itoa(res.Threshold), res.Route}}, nil)
			}
			if o.format == "table" {
				return renderTable(w, []string{"FITS", "TOKENS", "THRESHOLD", "ROUTE"},
					[][]string{{strconv.FormatBool(res.Fits), strconv.Itoa(res.Tokens), strconv.Itoa(res.Threshold), res.Route}}, nil)
			}
			return writeFormatted(w, o.format, res)
		})
		if err != nil {
			return err
		}
	}
	if !res.Fits {
		return errNegative
	}
	return nil
}

// addItems reads one items JSONL input into items and adds its tokens to
// h's.
func addItems(ctx context.Context, h *transcript.HistoryCount, items *engine.ItemReader, c tokenize.Counter, name string, data []byte) error {
	before := len(items.Items())
	if err := items.Read(ctx, bytes.NewReader(data), name); err != nil {
		return inputError(err)
	}
	for _, it := range items.Items()[before:] {
		n, err := engine.ItemTokens(ctx, c, &it)
		if err != nil {
			return err
		}
		if h.Tokens, err = engine.AddTokens(h.Tokens, n, "the items' token counts"); err != nil {
			return inputError(fmt.Errorf("%s:%d: %w", name, it.Line, err))
		}
	}
	return nil
}

// countHistoryInput counts one input when it is a transcript; when it is
// items JSONL (format "items", or "auto" and its first line looks like an
// item) it returns its bytes instead, for [addItems].
func countHistoryInput(ctx context.Context, name string, r io.Reader, format string, c tokenize.Counter) ([]byte, transcript.HistoryCount, error) {
	if format == "auto" {
		br := bufio.NewReaderSize(r, 64<<10)
		first, err := transcript.ReadHead(br)
		if err != nil {
			return nil, transcript.HistoryCount{}, err
		}
		r = io.MultiReader(bytes.NewReader(first), br)
		format = ""
		if transcript.LooksLikeItems(first) {
			format = "items"
		}
	}
	if format != "items" {
		count, err := transcript.CountHistory(ctx, r, name, transcript.Format(format), c)
		return nil, count, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, transcript.HistoryCount{}, fmt.Errorf("%s: %v", name, pathErr(err))
	}
	if data == nil {
		data = []byte{}
	}
	return data, transcript.HistoryCount{}, nil
}

// autoItemsHint adds a next step to an items error of an input that
// --input-format auto took for items (its first line looked like one)
// when the input reads whole as a transcript: an OpenAI chat JSONL file
// whose first message has a string content, say.
// Anything but a bad-input error (an interrupt, say) is returned as it is.
func autoItemsHint(err error, format, name string, data []byte) error {
	var ee *exitError
	if format != "auto" || !errors.As(err, &ee) || ee.code != ExitUsage || ee.err == nil {
		return err
	}
	ts, terr := transcript.Read(bytes.NewReader(data), name, "")
	if terr != nil || len(ts) == 0 {
		return err
	}
	code, inner := ee.code, ee.err
	f := ts[0].Format
	return &exitError{code: code, err: fmt.Errorf("%w (read as items, since its first line looks like one; --input-format %s reads it as a transcript)", inner, f)}
}
