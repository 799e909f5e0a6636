package cmd

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/report"
	"github.com/spf13/cobra"
)

// synthesizeOptions are the flags of harpe synthesize.
type synthesizeOptions struct {
	files []string

	budget          int
	budgetSet       bool // --budget came from a flag, HARPE_* or harpe.yaml
	reserveOutput   int
	reserveTools    int
	safetyMargin    string
	policy          string
	defaultPriority int
	destination     string
	caps            []string
	strict          bool
	skipInvalid     bool
	tokenizer       string
	model           string
	emit            string
	blocks          bool
	maxChars        int
	maxCharsSet     bool
	maxCharsSource  []string
	report          string
	format          string
	output          string

	dpCells  int
	alpha    float64
	alphaSet bool
	sinks    int
	sinksSet bool
	halfLife float64
}

func newSynthesizeCmd(a *app) *cobra.Command {
	var o synthesizeOptions
	c := &cobra.Command{
		Use:   "synthesize [FILE...]",
		Short: "Choose the context items that fit a token budget",
		Long: `Read context items (JSONL, one object a line) from the files, or standard
input, and choose which of them go into one model call under a token budget.

Order of work: confidential items are withheld (--destination remote, the
default); items without "token_count" are counted with --tokenizer; pinned
items, priority-0 items, items of dimension "invariant" and the rest of their
groups are always kept; then --policy fills the room left, taking each
candidate that still fits. Items sharing a "group" are kept or dropped
together.

Budget: available = --budget - --reserve-output - --reserve-tools -
--safety-margin. When the always-kept items alone need more, the ceiling
grows into the safety margin just enough to hold them; beyond that the report
says over_budget (and --strict refuses, exit status 3).

Policies (--policy): ` + strings.Join(engine.PolicyNames(), ", ") + `.
lowest_priority (the default) takes priority ascending, newer first among
equals; recency, newest first; input_order, first come first served;
relevance, relevance descending, then priority, then newer. The optimising
policies use --dp-cells, --alpha, --sinks and --half-life.

Tokenizers (--tokenizer): ` + strings.Join(tokenize.Names(), ", ") + `.

Output (--emit): report (default; --format json|yaml|table), kept or dropped
(the items' input lines, byte for byte, in input order), rendered (the kept
contents in input order, separated by a blank line). --report FILE saves
the report to FILE as well.

Blocks (--blocks, with --emit rendered): each kept item as a delimited
block, <context name="SOURCE" description="DESCRIPTION">, its content,
</context>; the name is the item's "source", else its id. A block's
content is cut to --max-chars characters (default 4000; 0: no cap), or
--max-chars-source SOURCE=N for the items of a source, or the item's own
"max_chars", and ends in "…[cut: showing K of N characters]", the marker
within the cap. The report's "cut" lists the items cut; a note on stderr
names them.

Destinations (--destination): remote, the default, withholds items marked
confidential; local keeps them.

Caps (--cap DIM=N or DIM=N%, repeatable): the selected items of dimension
DIM may take at most N tokens, or N% of the available budget; always-kept
items do not count.

Examples:
  harpe synthesize --budget 2048 --reserve-output 512 items.jsonl
  harpe synthesize --budget 8000 --cap retrieval=40% --emit kept items.jsonl
  harpe synthesize --budget 4096 --format table < items.jsonl
` + strings.Replace(exitStatusHelp, "\n  130", "\n  3    --strict refused: the always-kept items alone exceed the budget\n  130", 1),
		RunE: func(c *cobra.Command, args []string) error {
			o.files = args
			if err := a.applyModel(c, o.model, "budget"); err != nil {
				return err
			}
			f := c.Flags()
			o.budgetSet = f.Changed("budget")
			o.alphaSet = f.Changed("alpha")
			o.sinksSet = f.Changed("sinks")
			o.maxCharsSet = f.Changed("max-chars") || f.Changed("max-chars-source")
			return runSynthesize(a, &o)
		},
	}
	f := c.Flags()
	f.IntVar(&o.budget, "budget", 0, "total token budget `N` (required)")
	f.IntVar(&o.reserveOutput, "reserve-output", 0, "tokens `N` set aside for the reply")
	f.IntVar(&o.reserveTools, "reserve-tools", 0, "tokens `N` set aside for tools")
	f.StringVar(&o.safetyMargin, "safety-margin", "0", "spare tokens: `N` or N% of --budget")
	f.StringVar(&o.policy, "policy", engine.DefaultPolicy, "selection `POLICY`")
	f.IntVar(&o.defaultPriority, "default-priority", 10, "priority `N` of items without one")
	f.StringVar(&o.destination, "destination", string(engine.DestinationRemote), "`DEST`: remote or local")
	f.StringArrayVar(&o.caps, "cap", nil, "cap a dimension: `DIM=N` or DIM=N% (repeatable)")
	f.BoolVar(&o.strict, "strict", false, "refuse (exit 3) when always-kept items overflow")
	f.BoolVar(&o.skipInvalid, "skip-invalid", false, "skip bad lines, listing them in the report")
	f.StringVarP(&o.tokenizer, "tokenizer", "t", "estimate", "count tokens with `NAME`: "+strings.Join(tokenize.Names(), ", ")+tokenizerHelp)
	f.StringVarP(&o.model, "model", "m", "", "take --budget (the context window) and --tokenizer from model `NAME` (harpe models)")
	f.StringVar(&o.emit, "emit", "report", "`WHAT` to write, see above")
	f.BoolVar(&o.blocks, "blocks", false, "--emit rendered: each item as a <context> block, cut to --max-chars")
	f.IntVar(&o.maxChars, "max-chars", engine.DefaultMaxChars, "--blocks: cap of a block's content in characters `N` (0: none)")
	f.StringArrayVar(&o.maxCharsSource, "max-chars-source", nil, "--blocks: cap of the blocks of a source: `SOURCE=N` (repeatable)")
	f.StringVar(&o.report, "report", "", "also save the report to `FILE`")
	f.StringVarP(&o.format, "format", "f", "", formatFlagHelp("table, json or yaml"))
	f.StringVarP(&o.output, "output", "o", "", "write to `FILE` atomically, not stdout")
	f.IntVar(&o.dpCells, "dp-cells", engine.DefaultDPCells, "knapsack: exact DP cell limit `N`")
	f.Float64Var(&o.alpha, "alpha", engine.DefaultAlpha, "duo_attention: relevance weight `A`")
	f.IntVar(&o.sinks, "sinks", engine.DefaultSinks, "duo_attention: `N` sink items")
	f.Float64Var(&o.halfLife, "half-life", engine.DefaultHalfLife, "duo_attention: half-life `H` in ranks")
	return c
}

// synthesizePlan is the validated form of the flags.
type synthesizePlan struct {
	budget  engine.Budget
	engine  engine.Options
	read    engine.ReadOptions
	counter tokenize.Counter
	// blocks, when set, are the options of --blocks.
	blocks *engine.BlockOptions
}

// planSynthesize validates the flags. A model preset (--model, added
// later) fills in the total and the tokenizer where the flags left them
// unset, before this runs.
func planSynthesize(o *synthesizeOptions) (*synthesizePlan, error) {
	if !o.budgetSet {
		return nil, usageErrorf("--budget: required (a flag, HARPE_BUDGET or budget: in harpe.yaml)")
	}
	s := engine.DefaultSettings()
	s.Total, s.ReserveOutput, s.ReserveTools, s.SafetyMargin = o.budget, o.reserveOutput, o.reserveTools, o.safetyMargin
	s.DefaultPriority, s.Caps = o.defaultPriority, o.caps
	s.Options = engine.Options{Policy: o.policy, Destination: engine.Destination(o.destination), Strict: o.strict,
		DPCells: o.dpCells, HalfLife: o.halfLife}
	if o.alphaSet {
		s.Options.Alpha = &o.alpha
	}
	if o.sinksSet {
		s.Options.Sinks = &o.sinks
	}
	budget, opts, err := s.Check()
	if err != nil {
		return nil, synthesizeSettingError(err)
	}
	p := &synthesizePlan{budget: budget, engine: opts,
		read: engine.ReadOptions{DefaultPriority: o.defaultPriority, SkipInvalid: o.skipInvalid}}
	if p.counter, err = tokenize.New(o.tokenizer); err != nil {
		return nil, usageErrorf("--tokenizer: %v", err)
	}
	p.engine.Counter = p.counter
	switch o.emit {
	case "report", "kept", "dropped", "rendered":
	default:
		return nil, usageErrorf("--emit: unknown value %q; valid: report, kept, dropped, rendered", o.emit)
	}
	if err := checkFormat(o.format, "json", "yaml", "table"); err != nil {
		return nil, err
	}
	if p.blocks, err = planBlocks(o); err != nil {
		return nil, err
	}
	return p, nil
}

// planBlocks validates --blocks, --max-chars and --max-chars-source.
func planBlocks(o *synthesizeOptions) (*engine.BlockOptions, error) {
	if !o.blocks {
		if o.maxCharsSet {
			return nil, usageErrorf("--max-chars and --max-chars-source cap the blocks of --blocks")
		}
		return nil, nil
	}
	if o.emit != "rendered" {
		return nil, usageErrorf("--blocks: only with --emit rendered")
	}
	if o.maxChars < 0 {
		return nil, usageErrorf("--max-chars: %d is below 0", o.maxChars)
	}
	b := &engine.BlockOptions{MaxChars: o.maxChars}
	if o.maxChars == 0 {
		b.MaxChars = -1 // no cap
	}
	for _, v := range o.maxCharsSource {
		src, n, ok := strings.Cut(v, "=")
		src = strings.TrimSpace(src)
		k, err := strconv.Atoi(strings.TrimSpace(n))
		if !ok || src == "" || err != nil || k < 0 {
			return nil, usageErrorf("--max-chars-source: %q is not SOURCE=N (N a whole number ≥ 0)", v)
		}
		if b.SourceMaxChars == nil {
			b.SourceMaxChars = map[string]int{}
		}
		b.SourceMaxChars[src] = k
	}
	return b, nil
}

// synthesizeFlags are the flags of engine.Settings' fields, by the name
// an engine.SettingError gives.
var synthesizeFlags = map[string]string{
	"Total": "budget", "ReserveOutput": "reserve-output", "ReserveTools": "reserve-tools",
	"DefaultPriority": "default-priority", "SafetyMargin": "safety-margin", "Budget": "budget", "Caps": "cap",
	"Policy": "policy", "Destination": "destination", "DPCells": "dp-cells", "Alpha": "alpha", "Sinks": "sinks",
	"HalfLife": "half-life",
}

// synthesizeSettingError is a usage error naming the flag of the setting
// an engine.SettingError names.
func synthesizeSettingError(err error) error {
	var se *engine.SettingError
	if errors.As(err, &se) {
		if flag, ok := synthesizeFlags[se.Setting]; ok {
			return usageErrorf("--%s: %v", flag, se.Err)
		}
	}
	return usageErrorf("%v", err)
}

func runSynthesize(a *app, o *synthesizeOptions) error {
	o.format = a.reportFormat(o.format, toStdout(o.output) && o.emit == "report")
	plan, err := planSynthesize(o)
	if err != nil {
		return err
	}
	// Notes on flags that do nothing here come after the flag checks, so
	// a refused value ("--dp-cells 0", "--policy foo") is an error alone.
	a.noteUnusedFlags([]string{o.policy}, synthesizeFlagUses)
	if a.cmdLine["format"] && o.emit != "report" && o.report == "" {
		// --format shapes the report, which --emit kept, dropped or
		// rendered writes only with --report FILE.
		fmt.Fprintf(a.io.Err, "harpe: note: --format is ignored: it shapes the report, and --emit %s writes items (add --report FILE to save the report too)\n", o.emit)
	}
	reader := engine.NewItemReader(plan.read)
	err = a.eachInput(o.files, func(name string, r io.Reader) error {
		head := &inputs.HeadReader{R: r}
		if err := reader.Read(a.ctx, head, name); err != nil {
			if hinted := transcriptHint(name, head.Head(), err); hinted != err {
				return inputError(hinted)
			}
			return inputError(plainTextHint(name, head.Head(), err, "To make one item of each line:\n  jq -Rc '{content: .}' FILE | harpe synthesize …"))
		}
		return nil
	})
	if err != nil {
		return err
	}
	items := reader.Items()
	rep, err := engine.Synthesize(a.ctx, items, plan.budget, plan.engine)
	var obe *engine.OverBudgetError
	if errors.As(err, &obe) {
		return strictError("--strict: %v", obe)
	}
	if err != nil {
		return inputError(err)
	}
	rep.Skipped = reader.Skipped()
	if plan.blocks != nil {
		if cuts := rep.Cuts(items, *plan.blocks); len(cuts) > 0 {
			var names []string
			for _, c := range cuts {
				names = append(names, fmt.Sprintf("%s (%d → %d characters)", c.ID, c.Chars, c.KeptChars))
			}
			fmt.Fprintf(a.io.Err, "harpe: note: %s cut to the cap: %s\n", plural(len(cuts), "block"), strings.Join(names, ", "))
		}
	}

	writeReport := func(w io.Writer) error { return writeSynthesisReport(w, o.format, rep) }
	if o.report != "" {
		if err := a.stageFile(o.report, writeReport); err != nil {
			return err
		}
	}
	return a.writeOutput(o.output, func(w io.Writer) error {
		switch o.emit {
		case "kept", "dropped":
			return rep.WriteLines(w, items, o.emit == "kept")
		case "rendered":
			if plan.blocks != nil {
				return rep.WriteBlocks(w, items, *plan.blocks)
			}
			return rep.WriteRendered(w, items)
		}
		return writeReport(w)
	})
}

// writeSynthesisReport writes the report as JSON, YAML or a table
// (report.WriteSynthesisTable).
func writeSynthesisReport(w io.Writer, format string, rep *engine.Report) error {
	switch format {
	case "json":
		return rep.WriteJSON(w)
	case "yaml":
		return writeFormatted(w, format, rep)
	}
	return report.WriteSynthesisTable(w, rep, tableOptionsOf(w))
}
