package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/harpe-dev/harpe/internal/progress"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// countOptions are the flags of harpe count.
type countOptions struct {
	tokenizers []string // --tokenizer, in the order given
	model      string
	format     string
	jsonl      bool
	transcript bool
	// inputFormat names the transcript format for --transcript ("" detects).
	inputFormat string
	output      string
	// maxUnbroken is --max-unbroken in MiB: the most text without a place
	// to cut it that is held.
	maxUnbroken int
	// maxWhole is --max-whole in MiB: the most text held for a counter
	// that counts a text whole.
	maxWhole int
}

func newCountCmd(a *app) *cobra.Command {
	opts := &countOptions{}
	c := &cobra.Command{
		Use:   "count [FILE...]",
		Short: "Count the tokens of files, as wc counts words",
		Long: `Count the tokens of each FILE (standard input when there is none, or for
"-") and print "<tokens> <file>" a line, then "<total> total" when there are
several; for standard input alone, just the number. Files are read as they
are and counted in parallel; the output keeps the order given. Standard
input is counted as it streams, in bounded memory: a tokenizer.json is
streamed when its layout can be cut (Llama 3, Qwen, gpt-oss, GPT-2,
BERT/WordPiece); one that counts a text whole (Metaspace/Unigram,
SentencePiece) holds at most --max-whole MiB (16), past which the count
is an error.

--tokenizer picks the counter: estimate (the default, the same rule in
every build), o200k_base or cl100k_base (exact, as OpenAI's tiktoken counts
them, special-token text counted as plain text), or a Hugging Face
tokenizer.json: a path, or hf:ORG/NAME from the Hugging Face cache (exact,
as the tokenizers library counts without special tokens added; harpe never
downloads). Several, comma-separated, count at once and show each count's
ratio to the last one, so the estimate's error is visible:

  harpe count --tokenizer estimate,o200k_base notes.md

--model NAME uses that model's tokenizer (harpe models lists them); an
explicit --tokenizer beats it.

--jsonl reads context items (one JSON object a line), counts each item's
"content" and writes the items back with "token_count" set, every other
byte as it came in.

--transcript counts each input as a saved conversation (any format harpe
transcript reads, detected from the content or named with --input-format)
the way a chat API bills it: every message's text, role and name, each tool
call's name and arguments, tool results, 765 tokens per image, 3 framing
tokens per message (1 more with a name, 3 per tool call) and 3 to prime the
reply, per conversation, plus each tool definition the transcript records
(3 + name + description + schema). Aborted turns are left out, and so is
recorded thinking: providers drop earlier turns' thinking from the prompt
(harpe transcript --breakdown counts it as its own category, so its visible
total is this count plus the thinking, minus the 3 priming tokens). With
--transcript a FILE may be a directory: every transcript under it is
counted (harpe transcript --help says how directories are walked).
` + exitStatusHelp,
		RunE: func(c *cobra.Command, args []string) error {
			a.ctx = a.readContext()
			if err := a.applyModel(c, opts.model, ""); err != nil {
				return err
			}
			return runCount(a, opts, args)
		},
	}
	f := c.Flags()
	f.StringSliceVarP(&opts.tokenizers, "tokenizer", "t", []string{"estimate"}, "counter `NAME`s, comma-separated: "+strings.Join(tokenize.Names(), ", ")+tokenizerHelp)
	f.StringVarP(&opts.model, "model", "m", "", "count with the tokenizer of model `NAME`")
	f.StringVarP(&opts.format, "format", "f", "text", "output `FORMAT`: text, json or table")
	f.BoolVar(&opts.jsonl, "jsonl", false, "read JSONL items and write them back with token_count set")
	f.StringVarP(&opts.output, "output", "o", "", "write to `FILE` (atomically) instead of standard output")
	f.BoolVar(&opts.transcript, "transcript", false, "count each input as a transcript, as a chat API bills it")
	f.IntVar(&opts.maxUnbroken, "max-unbroken", tokenize.DefaultMaxUnbroken>>20, "hold at most `MIB` MiB of text with no place to cut it (one token piece)")
	f.IntVar(&opts.maxWhole, "max-whole", tokenize.DefaultMaxWhole>>20, "hold at most `MIB` MiB of text for a tokenizer.json that counts a text whole (Unigram, SentencePiece layouts)")
	f.StringVar(&opts.inputFormat, "input-format", "", "with --transcript, the transcript `FORMAT` (detected when empty or auto)")
	return c
}

// fileCount is one input's counts, one per counter.
type fileCount struct {
	tokenize.FileCount
	read []*transcript.Transcript // --transcript: what was read, for its warnings
}

func runCount(a *app, opts *countOptions, args []string) error {
	if err := checkFormat(opts.format, "text", "json", "table"); err != nil {
		return err
	}
	counters, err := a.countCounters(opts)
	if err != nil {
		return err
	}
	if opts.jsonl {
		if len(counters) != 1 {
			return usageErrorf("--jsonl: sets one token_count, so it takes one tokenizer, got %d", len(counters))
		}
		if opts.format != "text" {
			return usageErrorf("--format: --jsonl writes JSONL items, not a %s report", opts.format)
		}
		if opts.transcript {
			return usageErrorf("--jsonl: cannot be used with --transcript")
		}
		return a.countJSONL(opts, args, counters[0])
	}
	if opts.inputFormat == "auto" {
		opts.inputFormat = "" // detect, as fit's --input-format auto does
	}
	if opts.inputFormat != "" && !slices.Contains(transcript.FormatNames(), opts.inputFormat) {
		return usageErrorf("--input-format: unknown format %q; valid: %s", opts.inputFormat, transcript.FormatList())
	}
	if opts.inputFormat != "" && !opts.transcript {
		if a.cmdLine["input-format"] {
			return usageErrorf("--input-format: goes with --transcript")
		}
		// From HARPE_INPUT_FORMAT or harpe.yaml, meant for the transcript
		// commands: plain files have no format to name.
		opts.inputFormat = ""
	}
	var results []fileCount
	if opts.transcript {
		// Files and directories, as every transcript command reads them.
		results, err = readTranscriptFiles(a, readRules{once: true}, args, func(name string, r io.Reader) (fileCount, error) {
			fc := fileCount{FileCount: tokenize.FileCount{Name: name}}
			var err error
			fc.Bytes, fc.Counts, fc.read, err = transcript.CountBilledEach(a.ctx, r, name, transcript.Format(opts.inputFormat), counters)
			return fc, inputError(err)
		})
		for _, fc := range results {
			a.warnTranscripts(fc.read)
		}
	} else {
		if opts.maxUnbroken < 1 || opts.maxUnbroken > 1<<20 {
			return usageErrorf("--max-unbroken: must be between 1 and 1048576 (MiB), got %d", opts.maxUnbroken)
		}
		if opts.maxWhole < 1 || opts.maxWhole > 1<<20 {
			return usageErrorf("--max-whole: must be between 1 and 1048576 (MiB), got %d", opts.maxWhole)
		}
		results, err = a.countInputs(args, counters, tokenize.StreamOptions{Workers: 1, MaxUnbroken: opts.maxUnbroken << 20, MaxWhole: opts.maxWhole << 20})
	}
	if err != nil {
		return err
	}
	rep := tokenize.Report{}
	for _, c := range counters {
		rep.Counters = append(rep.Counters, c.Name())
	}
	for _, r := range results {
		rep.Files = append(rep.Files, r.FileCount)
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		switch opts.format {
		case "json":
			return writeJSON(w, rep)
		case "table":
			header, rows, footer := rep.Table()
			return renderTable(w, header, rows, footer)
		}
		return rep.WriteText(w, len(args) == 0 || len(args) == 1 && args[0] == "-")
	})
}

// countCounters resolves --tokenizer and --model to counters.
func (a *app) countCounters(opts *countOptions) ([]tokenize.Counter, error) {
	names := opts.tokenizers
	if len(names) == 0 {
		return nil, usageErrorf("--tokenizer: no tokenizer named; valid: %s", strings.Join(tokenize.Names(), ", "))
	}
	var counters []tokenize.Counter
	for _, n := range names {
		c, err := tokenize.New(strings.TrimSpace(n))
		if err != nil {
			return nil, usageErrorf("--tokenizer: %v", err)
		}
		counters = append(counters, c)
	}
	return counters, nil
}

// countInputs counts every input, files in parallel and standard input
// first, as it streams (see [inputs.Map]); the results keep the order of
// args. On errors, the first in that order is returned.
func (a *app) countInputs(args []string, counters []tokenize.Counter, opt tokenize.StreamOptions) ([]fileCount, error) {
	if len(args) == 0 {
		args = []string{inputs.Stdin}
	}
	if err := inputs.StdinOnce(args); err != nil {
		return nil, usageErrorf("%v", err)
	}
	ins := make([]inputs.Input, len(args))
	for i, arg := range args {
		ins[i].Path = arg
	}
	prog := progress.NewCounting(a.io.Err, a.io.ErrIsTerminal, len(args))
	if len(args) == 1 {
		// One input: its counting is what runs in parallel.
		opt.Workers, opt.Progress = runtime.GOMAXPROCS(0), prog.Bytes
	}
	results, errs := inputs.Map(a.ctx, ins, 0, func(in inputs.Input) (fileCount, error) {
		name, r := stdinName, a.io.In
		if in.Path != inputs.Stdin {
			f, err := os.Open(in.Path)
			if err != nil {
				return fileCount{}, inputError(fmt.Errorf("%s: %w", escapeControl(in.Path), pathErr(err)))
			}
			defer f.Close()
			name, r = in.Path, f
		}
		defer prog.FileDone()
		if len(args) == 1 {
			prog.SizeOf(r)
		}
		fc := fileCount{FileCount: tokenize.FileCount{Name: name}}
		var err error
		fc.Bytes, fc.Counts, err = tokenize.CountReader(a.ctx, inputs.Reader(a.ctx, r), counters, opt)
		if ue := (*tokenize.UnbrokenError)(nil); errors.As(err, &ue) {
			return fc, inputError(fmt.Errorf("%s: %v (--max-unbroken %d)", name, err, ue.Limit>>20))
		} else if we := (*tokenize.WholeTooLargeError)(nil); errors.As(err, &we) {
			return fc, inputError(fmt.Errorf("%s: %v (--max-whole %d)", name, err, we.Limit>>20))
		} else if err != nil {
			return fc, inputError(fmt.Errorf("%s: %v", name, pathErr(err)))
		}
		return fc, nil
	})
	prog.Finish()
	if err := a.ctx.Err(); err != nil {
		return nil, err // the inputs' errors are this one's
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}

// countJSONL counts each item's content and writes the items back with
// token_count set (replacing one already there), every other byte kept, in
// input order. Items are read and checked as synthesize reads them (see
// engine.ItemReader), and nothing is written until all of them are.
func (a *app) countJSONL(opts *countOptions, args []string, c tokenize.Counter) error {
	rd := engine.NewItemReader(engine.ReadOptions{DefaultPriority: 10})
	var out bytes.Buffer
	err := a.eachInput(args, func(name string, r io.Reader) error {
		return inputError(rd.Rewrite(a.ctx, r, name, &out, func(l engine.Line) ([]byte, error) {
			n, err := c.Count(a.ctx, l.Item.Content)
			if err != nil {
				return nil, err
			}
			updated, err := jsonl.SetField(l.Raw, "token_count", []byte(strconv.Itoa(n)))
			if err != nil {
				return nil, inputError(fmt.Errorf("%s:%d: %v", name, l.No, err))
			}
			return updated, nil
		}))
	})
	if err != nil {
		return err
	}
	return a.writeOutput(opts.output, func(w io.Writer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}
