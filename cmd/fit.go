package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	Fits      bool   `json:"fits"`
	Tokens    int    `json:"tokens"`
	Threshold int    `json:"threshold"`
	Route     string `json:"route"` // "whole" or "retrieve"
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
--transcript). Several files count as one history.

--input-format auto (the default) reads a file whose first line is a JSON
object with a string "content" and no "type" as items JSONL, and anything
else as a transcript in the format it detects. Name the format to override:
items, or one of ` + strings.Join(transcript.Formats(), ", ") + `. (An
OpenAI chat JSONL file of {"role","content"} lines reads as items under
auto; --input-format openai bills it as chat messages.)

Examples:
  harpe fit --threshold 100000 chat.jsonl
  harpe fit --threshold 100000 -q chat.jsonl && echo "send it whole"
` + strings.Replace(exitStatusHelp, "\n  2 ", "\n  1    the history does not fit (0: it fits)\n  2 ", 1),
		RunE: func(c *cobra.Command, args []string) error {
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
	f.StringVar(&o.tokenizer, "tokenizer", "estimate", "count tokens with `NAME`")
	f.StringVar(&o.model, "model", "", "count with the tokenizer of model `NAME` (harpe models)")
	f.StringVar(&o.inputFormat, "input-format", "auto", "read the history as `FORMAT`: auto, items or a transcript format")
	f.StringVar(&o.format, "format", "json", "output `FORMAT`: json, yaml or table")
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
	if err := checkFormat(o.format, "json", "yaml", "table"); err != nil {
		return err
	}
	if valid := append([]string{"auto", "items"}, transcript.Formats()...); !slices.Contains(valid, o.inputFormat) {
		return usageErrorf("--input-format: unknown format %q; valid: %s", o.inputFormat, strings.Join(valid, ", "))
	}
	h := newHistoryCounter(counter, o.inputFormat)
	h.ctx = a.ctx
	err = a.eachInput(o.files, func(name string, r io.Reader) error {
		return h.add(name, r)
	})
	if err != nil {
		return err
	}
	res := fitResult{Tokens: h.tokens, Threshold: o.threshold, Fits: h.tokens <= o.threshold, Route: "retrieve"}
	if res.Fits {
		res.Route = "whole"
	}
	if !o.quiet {
		err := a.writeOutput(o.output, func(w io.Writer) error {
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

// historyCounter totals the tokens of a history given as one or more
// inputs, each items JSONL or a transcript.
type historyCounter struct {
	counter tokenize.Counter
	format  string // "auto", "items" or a transcript format
	items   *engine.ItemReader
	tokens  int
	ctx     context.Context // stops reading and counting items; nil is never
}

func newHistoryCounter(counter tokenize.Counter, format string) *historyCounter {
	return &historyCounter{counter: counter, format: format, items: engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})}
}

// add reads one input and adds its tokens to the total.
func (h *historyCounter) add(name string, r io.Reader) error {
	format := h.format
	if format == "auto" {
		br := bufio.NewReaderSize(r, 64<<10)
		first, err := firstNonBlankLine(br)
		if err != nil {
			return inputError(err)
		}
		r = io.MultiReader(bytes.NewReader(first), br)
		format = ""
		if looksLikeItem(first) {
			format = "items"
		}
	}
	if format != "items" {
		n, err := transcript.CountBilled(r, name, format, h.counter)
		if err != nil {
			return inputError(err)
		}
		if h.tokens, err = engine.AddTokens(h.tokens, n, "the inputs' tokens"); err != nil {
			return inputError(fmt.Errorf("%s: %w", name, err))
		}
		return nil
	}
	before := len(h.items.Items())
	ctx := h.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := h.items.ReadContext(ctx, r, name); err != nil {
		return inputError(err)
	}
	for _, it := range h.items.Items()[before:] {
		n := 0
		var err error
		if it.TokenCount != nil {
			n = *it.TokenCount
		} else if n, err = tokenize.CountContext(ctx, h.counter, it.Content); err != nil {
			return err
		}
		if h.tokens, err = engine.AddTokens(h.tokens, n, "the items' token counts"); err != nil {
			return inputError(fmt.Errorf("%s:%d: %w", name, it.Line, err))
		}
	}
	return nil
}

// firstNonBlankLine reads br up to and including the first line that is not
// blank, returning everything it read.
func firstNonBlankLine(br *bufio.Reader) ([]byte, error) {
	var read []byte
	for {
		line, err := br.ReadBytes('\n')
		read = append(read, line...)
		if len(bytes.TrimSpace(line)) > 0 || err == io.EOF {
			return read, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// looksLikeItem reports whether the last line of head is an items JSONL
// line: a JSON object with a string "content" and no "type" (every JSONL
// transcript format that has "content" at the top level also has "type").
func looksLikeItem(head []byte) bool {
	line := bytes.TrimSpace(head[bytes.LastIndexByte(bytes.TrimRight(head, "\r\n"), '\n')+1:])
	line = bytes.TrimPrefix(line, []byte(utf8BOM)) // the item reader skips it too
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	var probe struct {
		Content json.RawMessage `json:"content"`
		Type    json.RawMessage `json:"type"`
	}
	if json.Unmarshal(line, &probe) != nil {
		return false
	}
	return len(probe.Content) > 0 && probe.Content[0] == '"' && probe.Type == nil
}
