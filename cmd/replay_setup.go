package cmd

import (
	"errors"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/internal/progress"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

// replayJob is a replay's flags checked and parsed, once: what to read,
// the strategies and the replay's options, and the output settings.
type replayJob struct {
	files        []string
	inputFormat  transcript.Format // "" detects
	conversation string
	// strategies are parsed from --strategy; nil until the defaults are
	// chosen when it named none.
	strategies []window.Strategy
	ropts      window.ReplayOptions
	// limits are several --context-window limits, each replayed; nil for
	// one (in ropts.ContextWindow).
	limits  []int
	distill bool // --distill-cmd: the user's command runs at each compaction
	// showCall is --show-call N (0: not given), showAs --show-as.
	showCall int
	showAs   string
	out      replayOut
	// warnings are the readers' (a half-written last line skipped),
	// written once the report is (writeWarnings).
	warnings []*transcript.Error
}

// replayOut are what a replay's writers read: the output's form and its
// place, and what the plot and the table's head line show.
type replayOut struct {
	format string // table, json or jsonl
	output string // -o, "" for stdout
	// chosen says which strategies replay picked when --strategy named
	// none; "" when it named some.
	chosen     string
	totalsOnly bool
	plot       string
	plotMetric string
	// contextWindow, highWater and budget are the plot's levels.
	contextWindow, highWater, budget int
}

// checkReplayFlags checks the flags that need no parse of the
// strategies, in the order a user reads them, and settles --format.
func checkReplayFlags(a *app, c *cobra.Command, o *replayOptions) error {
	if err := checkPlotFile(o.plot); err != nil {
		return err
	}
	if err := a.applyModel(c, o.model, "context-window"); err != nil {
		return err
	}
	o.format = a.reportFormat(o.format, toStdout(o.output))
	if err := checkFormat(o.format, "table", "json", "jsonl"); err != nil {
		return err
	}
	o.showCallSet = c.Flags().Changed("show-call")
	o.cacheTTLSet = c.Flags().Changed("cache-ttl")
	o.showAsGiven = a.cmdLine["show-as"]
	if err := checkShowCall(o, c.Flags().Changed("strategy")); err != nil {
		return err
	}
	if _, err := prices.ParseCacheRule(o.cache); err != nil {
		return usageErrorf("--cache: %v", err)
	}
	if _, err := cost.ParseTTL(o.cacheTTL); err != nil {
		return usageErrorf("--cache-ttl: %v", err)
	}
	if !slices.Contains(plotMetrics, o.plotMetric) {
		return usageErrorf("--plot-metric: unknown metric %q; valid: %s", o.plotMetric, strings.Join(plotMetrics, ", "))
	}
	return nil
}

// newReplayJob checks the settings (window.ReplayOptions.Check names the
// first out of range), builds the counter and the replay's options, and
// parses --strategy when it names strategies.
func newReplayJob(a *app, o *replayOptions) (*replayJob, error) {
	job := &replayJob{files: o.files, inputFormat: transcript.Format(o.inputFormat), conversation: o.conversation,
		distill: o.distillCmd != "", showAs: o.showAs,
		out: replayOut{format: o.format, output: o.output, totalsOnly: o.totalsOnly, plot: o.plot,
			plotMetric: o.plotMetric, contextWindow: o.contextWindow, budget: o.budget}}
	if o.showCallSet {
		job.showCall = o.showCall
	}
	opts, err := replayWindowOptions(o)
	if err != nil {
		return nil, err
	}
	job.ropts = window.ReplayOptions{Options: opts, ContextWindow: o.contextWindow,
		Indices: o.format != "table", Regret: true}
	if h := opts.Summarizing.HighWaterTokens; h != nil {
		job.out.highWater = *h
	}
	if err := job.ropts.Check(); err != nil {
		return nil, replaySettingError(err)
	}
	for _, n := range o.contextWindows {
		if n < 0 {
			return nil, usageErrorf("--context-window: must be a whole number ≥ 0, got %d", n)
		}
	}
	if len(o.contextWindows) > 1 {
		if o.showCallSet {
			return nil, usageErrorf("--show-call takes one --context-window, not %d", len(o.contextWindows))
		}
		job.limits = o.contextWindows
	}
	counter, err := tokenize.New(o.tokenizer)
	if err != nil {
		return nil, usageErrorf("--tokenizer: %v", err)
	}
	job.ropts.Counter, job.ropts.Engine.Counter = counter, counter
	if job.inputFormat == "auto" {
		job.inputFormat = "" // detect, as fit's --input-format auto does
	}
	if job.inputFormat != "" && !slices.Contains(transcript.Formats(), job.inputFormat) {
		return nil, usageErrorf("--input-format: unknown format %q; valid: %s", job.inputFormat, transcript.FormatList())
	}
	if o.distillCmd != "" {
		job.ropts.Summarizing.Distill = a.distiller(o.distillCmd)
	}
	if len(o.strategies) > 0 {
		if err := job.parse(a, o.strategies); err != nil {
			return nil, err
		}
	}
	if a.io.ErrIsTerminal {
		job.ropts.Progress = progress.NewReplay(a.io.Err).Report
	}
	cat, err := a.modelCatalog()
	if err != nil {
		return nil, err
	}
	job.ropts.Cost = costOptions(o, cat)
	return job, nil
}

// replayWindowOptions are the strategies' settings from the flags: every
// one set, since each flag has its default (a nil setting would be the
// same); those of the registry's settings by setDefaults.
func replayWindowOptions(o *replayOptions) (window.Options, error) {
	opts := window.Options{
		ToolResultLimit: o.toolResultLimit,
		Budget:          engine.Budget{Total: o.budget},
		Engine:          engine.Options{Policy: o.policy},
	}
	return opts, setDefaults(&opts, o.settings)
}

// parse builds the strategies of specs (window.ParseAll), then notes the
// flags given that none of them reads: after the checks, so that a
// refused value is not first noted as ignored ("--head -1", "--strategy
// foo").
func (job *replayJob) parse(a *app, specs []string) error {
	strategies, err := window.ParseAll(specs, job.ropts)
	if err != nil {
		return replaySettingError(err)
	}
	job.strategies = strategies
	a.noteUnusedFlags(window.Components(strategies), replayFlagUses())
	return nil
}

// optionFlags are the flags of window.ReplayOptions' settings that no
// registered setting carries, by the name a window.SettingError gives
// (those of the registry's settings come from it: settingFlagOf).
var optionFlags = map[string]string{
	"ToolResultLimit": "tool-result-limit", "ContextWindow": "context-window", "Budget": "budget",
	"Engine.Policy": "policy", "Strategy": "strategy",
}

// replaySettingError is a usage error naming the flag of the setting a
// window.SettingError names.
func replaySettingError(err error) error {
	if errors.Is(err, window.ErrNoLimit) {
		return usageErrorf("--strategy: limit: needs bytes=N with N ≥ 1 (or --tool-result-limit)")
	}
	var se *window.SettingError
	if errors.As(err, &se) {
		flag, ok := optionFlags[se.Setting]
		if !ok {
			flag, ok = settingFlagOf(se.Setting)
		}
		if ok {
			return usageErrorf("--%s: %v", flag, se.Err)
		}
	}
	return usageErrorf("--strategy: %v", err)
}

// costOptions returns the pricing of a replay: each call is priced as its
// recorded model (else --model), under --cache when given. A transcript
// that names no model, replayed without --model or --cache, is not priced
// (see window.CostOptions).
func costOptions(o *replayOptions, cat *prices.Catalog) *window.CostOptions {
	ttl, err := cost.ParseTTL(o.cacheTTL)
	if err != nil {
		ttl = cost.AnthropicTTL // checked with the flags
	}
	if !o.cacheTTLSet {
		ttl = 0 // the TTL the records write with, else 5 minutes
	}
	return &window.CostOptions{Rule: prices.CacheRule(o.cache), Model: o.model, Catalog: cat, TTL: ttl}
}

// chooseDefaults chooses the strategies when --strategy named none: the
// defaults for agent loops when any session is one, else for chats
// (defaultStrategiesFor). The sessions are told apart by a quiet
// first read of the inputs up to the first agent loop, so that the
// replay can still stream; standard input, which cannot be read twice,
// is held for it (spool.Hold: past a few MiB in a temporary file, and
// read from its start on each pass), and --show-call's one session is
// read whole now and returned.
func (job *replayJob) chooseDefaults(a *app) ([]sessions.Session, error) {
	var held []sessions.Session
	var agent bool
	var err error
	if job.showCall > 0 {
		held, err = job.heldSessions(a)
		agent = slices.ContainsFunc(held, func(s sessions.Session) bool { return isAgentLoop(s.Transcript) })
	} else {
		if len(job.files) == 0 || slices.Contains(job.files, "-") {
			if err := a.holdStdin(); err != nil {
				return nil, err
			}
		}
		agent, err = job.anyAgentLoop(a)
	}
	if err != nil {
		return nil, err
	}
	specs, isAgent := defaultStrategiesFor(agent)
	job.out.chosen = "default for chats: " + strings.Join(specs, ", ") + " (--strategy names others)"
	if isAgent {
		job.out.chosen = "default for agent loops: " + strings.Join(specs, ", ") + " (--strategy names others)"
	}
	return held, job.parse(a, specs)
}
