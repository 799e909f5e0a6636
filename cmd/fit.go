package cmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	h := newHistoryCounter(counter, o.inputFormat)
	h.ctx = a.ctx
	// Transcripts are counted in parallel (files and directories, as
	// every transcript command reads them); items files are kept and read
	// in order afterwards, since ids must be unique across them.
	type part struct {
		name  string
		count transcriptCount
		items []byte
	}
	parts, err := readTranscriptFiles(a, readRules{}, o.files, func(name string, r io.Reader) (part, error) {
		items, count, err := h.transcriptTokens(name, r)
		return part{name, count, items}, err
	})
	if err != nil {
		return err
	}
	for _, p := range parts {
		a.warnTranscripts(p.count.ts)
		if h.tokens, err = engine.AddTokens(h.tokens, p.count.tokens, "the inputs' tokens"); err != nil {
			return inputError(fmt.Errorf("%s: %w", p.name, err))
		}
		if p.count.hasRecorded {
			if h.recorded, err = engine.AddTokens(h.recorded, p.count.recorded, "the recorded prompts"); err != nil {
				return inputError(fmt.Errorf("%s: %w", p.name, err))
			}
			h.hasRecorded = true
		}
		if p.items != nil {
			if err := h.addItems(p.name, bytes.NewReader(p.items)); err != nil {
				return autoItemsHint(err, h.format, p.name, p.items)
			}
		}
	}
	res := fitResult{Tokens: h.tokens, Threshold: o.threshold, Route: "retrieve"}
	if h.hasRecorded {
		counted, recorded := h.tokens, h.recorded
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

// historyCounter totals the tokens of a history given as one or more
// inputs, each items JSONL or a transcript.
type historyCounter struct {
	counter tokenize.Counter
	format  string // "auto", "items" or a transcript format
	items   *engine.ItemReader
	tokens  int
	// recorded sums the last recorded prompt of each conversation read;
	// hasRecorded says whether any records one.
	recorded    int
	hasRecorded bool
	ctx         context.Context // stops reading and counting items; nil is never
}

func newHistoryCounter(counter tokenize.Counter, format string) *historyCounter {
	return &historyCounter{counter: counter, format: format, items: engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})}
}

// transcriptCount is what one transcript input adds to a history: its
// billed tokens, the sum of each conversation's last recorded prompt size
// (hasRecorded when any records one), and the transcripts read (their
// warnings).
type transcriptCount struct {
	tokens      int
	recorded    int
	hasRecorded bool
	ts          []*transcript.Transcript
}

// transcriptTokens counts one input when it is a transcript; when it is
// items JSONL it returns its bytes instead, for [historyCounter.addItems].
func (h *historyCounter) transcriptTokens(name string, r io.Reader) ([]byte, transcriptCount, error) {
	var tc transcriptCount
	format := h.format
	if format == "auto" {
		br := bufio.NewReaderSize(r, 64<<10)
		first, err := firstNonBlankLine(br)
		if err != nil {
			return nil, tc, inputError(err)
		}
		r = io.MultiReader(bytes.NewReader(first), br)
		format = ""
		if looksLikeItem(first) {
			format = "items"
		}
	}
	if format == "items" {
		data, err := io.ReadAll(r)
		if err != nil {
			return nil, tc, inputError(fmt.Errorf("%s: %v", name, pathErr(err)))
		}
		if data == nil {
			data = []byte{}
		}
		return data, tc, nil
	}
	// transcript.CountBilledTranscripts's count, plus each conversation's
	// last recorded prompt size.
	var cur *transcript.Transcript
	last := map[*transcript.Transcript]int{}
	var order []*transcript.Transcript
	ctx := h.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ts, err := transcript.Scan(ctx, r, name, transcript.Format(format), func(t *transcript.Transcript, m *transcript.Message) error {
		if m.InputTokens != nil {
			if _, ok := last[t]; !ok {
				order = append(order, t)
			}
			last[t] = *m.InputTokens
		}
		if m.Aborted {
			return nil
		}
		if t != cur {
			cur = t
			tc.tokens += transcript.ReplyPriming
		}
		tc.tokens += transcript.MessageTokens(m, h.counter)
		return nil
	})
	if err != nil {
		return nil, tc, inputError(err)
	}
	for _, t := range ts {
		tc.tokens += transcript.ToolDefTokens(t.Tools, h.counter)
	}
	for _, t := range order {
		if tc.recorded, err = engine.AddTokens(tc.recorded, last[t], "the recorded prompts"); err != nil {
			return nil, tc, inputError(fmt.Errorf("%s: %w", name, err))
		}
		tc.hasRecorded = true
	}
	tc.ts = ts
	return nil, tc, nil
}

// addItems reads one items JSONL input and adds its tokens to the total.
func (h *historyCounter) addItems(name string, r io.Reader) error {
	before := len(h.items.Items())
	ctx := h.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := h.items.Read(ctx, r, name); err != nil {
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
