package cmd

import (
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/spf13/cobra"
)

// fitOptions are the flags of harpe fit.
type fitOptions struct {
	files        []string
	threshold    int
	thresholdSet bool
	quiet        bool
	tokenizer    string
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
		Long: `Count a history (items JSONL, from the files or standard input) and say
whether it fits whole under --threshold tokens, so it can go to the model as
it is ("route": "whole"), or needs retrieval and a budget ("route":
"retrieve"). A history fits when its tokens are at most the threshold.

Every item counts: "token_count" when given, else its content counted with
--tokenizer (` + strings.Join(tokenize.Names(), ", ") + `). Several files count
as one history.

Examples:
  harpe fit --threshold 100000 chat.jsonl
  harpe fit --threshold 100000 -q chat.jsonl && echo "send it whole"
` + strings.Replace(exitStatusHelp, "\n  2 ", "\n  1    the history does not fit (0: it fits)\n  2 ", 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.files = args
			o.thresholdSet = c.Flags().Changed("threshold")
			return runFit(a, &o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.threshold, "threshold", 0, "most tokens `N` to send whole (required)")
	f.BoolVarP(&o.quiet, "quiet", "q", false, "print nothing; answer by exit status")
	f.StringVar(&o.tokenizer, "tokenizer", "estimate", "count tokens with `NAME`")
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
	h := newHistoryCounter(counter)
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
// inputs. Items JSONL is the one format so far; transcript formats add a
// branch in add.
type historyCounter struct {
	counter tokenize.Counter
	items   *engine.ItemReader
	tokens  int
}

func newHistoryCounter(counter tokenize.Counter) *historyCounter {
	return &historyCounter{counter: counter, items: engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})}
}

// add reads one input and adds its tokens to the total.
func (h *historyCounter) add(name string, r io.Reader) error {
	before := len(h.items.Items())
	if err := h.items.Read(r, name); err != nil {
		return inputError(err)
	}
	for _, it := range h.items.Items()[before:] {
		if it.TokenCount != nil {
			h.tokens += *it.TokenCount
		} else {
			h.tokens += h.counter.Count(it.Content)
		}
	}
	return nil
}
