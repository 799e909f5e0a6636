package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/harpe-dev/harpe/internal/inputs"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
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
}

// planSynthesize validates the flags. A model preset (--model, added
// later) fills in the total and the tokenizer where the flags left them
// unset, before this runs.
func planSynthesize(o *synthesizeOptions) (*synthesizePlan, error) {
	if !o.budgetSet {
		return nil, usageErrorf("--budget: required (a flag, HARPE_BUDGET or budget: in harpe.yaml)")
	}
	for _, v := range []struct {
		flag string
		n    int
	}{{"--budget", o.budget}, {"--reserve-output", o.reserveOutput}, {"--reserve-tools", o.reserveTools}, {"--default-priority", o.defaultPriority}} {
		if v.n < 0 {
			return nil, usageErrorf("%s: must be ≥ 0, got %d", v.flag, v.n)
		}
	}
	margin, err := engine.ParseAmount(o.safetyMargin)
	if err != nil {
		return nil, usageErrorf("--safety-margin: %v", err)
	}
	p := &synthesizePlan{
		budget: engine.Budget{Total: o.budget, ReserveOutput: o.reserveOutput, ReserveTools: o.reserveTools,
			SafetyMargin: margin.Of(o.budget)},
		read: engine.ReadOptions{DefaultPriority: o.defaultPriority, SkipInvalid: o.skipInvalid},
	}
	if err := p.budget.Validate(); err != nil {
		return nil, usageErrorf("--budget: %v", err)
	}
	if _, err := engine.LookupPolicy(o.policy); err != nil {
		return nil, usageErrorf("--policy: %v", err)
	}
	if engine.Destination(o.destination) != engine.DestinationRemote && engine.Destination(o.destination) != engine.DestinationLocal {
		return nil, usageErrorf("--destination: unknown destination %q; valid: remote, local", o.destination)
	}
	if p.counter, err = tokenize.New(o.tokenizer); err != nil {
		return nil, usageErrorf("--tokenizer: %v", err)
	}
	switch o.emit {
	case "report", "kept", "dropped", "rendered":
	default:
		return nil, usageErrorf("--emit: unknown value %q; valid: report, kept, dropped, rendered", o.emit)
	}
	if err := checkFormat(o.format, "json", "yaml", "table"); err != nil {
		return nil, err
	}
	if o.dpCells < 1 {
		return nil, usageErrorf("--dp-cells: must be ≥ 1, got %d", o.dpCells)
	}
	if err := engine.CheckDPCells(o.dpCells); err != nil {
		return nil, usageErrorf("--dp-cells: %v", err)
	}
	if !(o.alpha >= 0 && o.alpha <= 1) {
		return nil, usageErrorf("--alpha: must be from 0 to 1, got %v", o.alpha)
	}
	if o.sinks < 0 {
		return nil, usageErrorf("--sinks: must be ≥ 0, got %d", o.sinks)
	}
	if !(o.halfLife > 0) || o.halfLife > 1e9 {
		return nil, usageErrorf("--half-life: must be > 0, got %v", o.halfLife)
	}
	p.engine = engine.Options{
		Policy: o.policy, Counter: p.counter, Destination: engine.Destination(o.destination), Strict: o.strict,
		DPCells: o.dpCells, HalfLife: o.halfLife,
	}
	if o.alphaSet {
		alpha := o.alpha
		p.engine.Alpha = &alpha
	}
	if o.sinksSet {
		sinks := o.sinks
		p.engine.Sinks = &sinks
	}
	seen := map[string]bool{}
	for _, s := range o.caps {
		cp, err := engine.ParseCap(s)
		if err != nil {
			return nil, usageErrorf("--cap: %v", err)
		}
		if seen[cp.Dimension] {
			return nil, usageErrorf("--cap: dimension %q capped twice", cp.Dimension)
		}
		seen[cp.Dimension] = true
		p.engine.Caps = append(p.engine.Caps, cp)
	}
	return p, nil
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
			return rep.WriteRendered(w, items)
		}
		return writeReport(w)
	})
}

// writeSynthesisReport writes the report as JSON, YAML or a table
// (engine.Report.WriteTable).
func writeSynthesisReport(w io.Writer, format string, rep *engine.Report) error {
	switch format {
	case "json":
		return rep.WriteJSON(w)
	case "yaml":
		return writeFormatted(w, format, rep)
	}
	o := tableOptionsOf(w)
	return rep.WriteTable(w, engine.TableOptions{Width: o.Width, EastAsian: o.EastAsian})
}
