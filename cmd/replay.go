package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// replayOptions are the flags of harpe replay.
type replayOptions struct {
	strategies []string
	// chosen says, for the table, which strategies replay picked when
	// --strategy named none; "" when it named some.
	chosen          string
	windowChars     int
	head            int
	highWaterTokens int
	lowWaterChars   int
	summaryMaxChars int
	distillCmd      string
	toolResultLimit int
	tokenizer       string
	model           string
	contextWindow   int
	contextWindows  []int // --context-window with several limits
	budget          int
	policy          string
	format          string
	plot            string
	output          string
	inputFormat     string
	conversation    string
	totalsOnly      bool
	files           []string
	// showCall is --show-call N (showCallSet: given), showAs --show-as
	// (showAsGiven: on the command line, not from configuration).
	showCall    int
	showCallSet bool
	showAs      string
	showAsGiven bool
	cache       string
	cacheTTL    string
	plotMetric  string

	clearTrigger, clearKeep, clearAtLeast int
	clearExclude                          []string
	clearInputs                           bool
	maskKeep                              int
}

func newReplayCmd(a *app) *cobra.Command {
	o := &replayOptions{}
	c := &cobra.Command{
		Use:   "replay [FILE…]",
		Short: "Replay a transcript through context strategies, call by call",
		Long: `Replay reads a saved conversation (any transcript format harpe reads) and
replays it through one or more context strategies: at every model call (before
each assistant reply) it works out what the strategy would send, and reports
the messages kept, characters and tokens per call, the compactions, the calls
over the context window, and totals against full.

Strategies (--strategy, comma-separated to compare several):
  full         every retained message
  windowed     the newest whole turns within --window-chars; the active turn
               is always whole
  summarizing  a rolling summary plus recent turns; compacts before the next
               call after a call over --high-water-tokens, keeping the newest
               turns within --low-water-chars
  turn         only the active turn
  sliding      the first --head turns plus the newest within --window-chars
  budget       the synthesize engine over the history at each call, under
               --budget with --policy; the newest prompt is always kept, the
               rest of the active turn chosen message by message

  cheapest     the schedule of clears that costs least under the prompt cache,
               found offline for the whole session, every call kept within
               --context-window (else the model's window) where it can be;
               cheapest:keep=N (1), exclude=TOOLS, inputs; the report lists
               its plan, and every priced strategy's regret $ against it

Edits, added to any strategy with "+" (an edit alone applies to full):
  clear        clear old tool results as Anthropic's context editing does:
               once a call's input passes --clear-trigger tokens, results
               older than the newest --clear-keep become a placeholder
  clear:auto   clear when the clear pays under the prompt cache, deciding at
               each call from what came before (the break-even of
               docs/replay.md); keep=N (1), exclude, inputs
  mask         observation masking: results of tool calls older than the
               last --mask-keep calls that used tools become a placeholder
  limit        cut tool results past bytes=N (--tool-result-limit)
A setting can follow a name or an edit: windowed:chars=40000+clear:keep=5,
summarizing+mask:keep=10, clear:trigger=50000:at-least=20000:exclude=Read/Grep.

Without --strategy, replay compares full, clear and mask on agent loops (a
turn holds tool calls: most of their input is re-sent tool results) and
full, windowed, summarizing and turn on chats; the table says which.

Tokens: full sends the provider's recorded input tokens when the transcript
has them, else the tokenizer's count; other strategies send their counted
tokens plus the same call's overhead (recorded minus full's counted tokens,
over the uncut history).

Cost: where the calls name their model (or --model names one, or --cache is
given), every call is priced under the provider's prompt cache: the tokens
read from the cache, written to it and sent uncached, the recorded output,
and the price in US dollars; the totals add the saving against full in money.
The cache rule comes from each call's model (anthropic, openai, none) unless
--cache overrides it. For full, calls that record cache usage show the record
and the totals how often the modelled cache reads agree with it, and what the
records bill. Where a record reads less than modelled (an eviction, a routing
miss), the cache is cut to what the record shows for every strategy, so full
costs what was billed and each saving is measured against it. Prices come
from the embedded genai-prices snapshot (--prices FILE reads a newer
data.json), at each call's date and size. --model prices only the calls
that name no model; --price-as MODEL prices every call as if sent to MODEL,
its cache rule included. A call without a price shows "unpriced", is named
under the table and in "unpriced_models", with a note on stderr.

Aborted turns are dropped from the context once they end. Every strategy
follows the harness's own compactions: from one on, the retained history is the
harness's summary and what follows. The transcript is only read.
` + exitStatusHelp,
		Example: `  harpe replay session.jsonl --strategy full,windowed,summarizing
  harpe replay session.jsonl --strategy windowed --window-chars 40000 --format json
  harpe replay session.jsonl --strategy summarizing --distill-cmd 'my-summarizer'
  harpe replay session.jsonl --strategy full,windowed+clear,mask,summarizing+mask
  harpe replay session.jsonl --plot tokens.svg
  harpe replay session.jsonl --strategy full,clear,mask --totals --cache anthropic
  harpe replay session.jsonl --plot cost.svg --plot-metric cost`,
		RunE: func(c *cobra.Command, args []string) error {
			o.files = args
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
			o.showAsGiven = a.cmdLine["show-as"]
			if err := checkShowCall(o, c.Flags().Changed("strategy")); err != nil {
				return err
			}
			if o.cache != "" && !containsString(cacheRules, o.cache) {
				return usageErrorf("--cache: unknown cache rule %q; valid: %s", o.cache, strings.Join(cacheRules, ", "))
			}
			if !containsString(cacheTTLs, o.cacheTTL) {
				return usageErrorf("--cache-ttl: unknown TTL %q; valid: %s", o.cacheTTL, strings.Join(cacheTTLs, ", "))
			}
			if !containsString(plotMetrics, o.plotMetric) {
				return usageErrorf("--plot-metric: unknown metric %q; valid: %s", o.plotMetric, strings.Join(plotMetrics, ", "))
			}
			return runReplay(a, o)
		},
	}
	f := c.Flags()
	f.StringSliceVar(&o.strategies, "strategy", nil, "`SPECS` of the strategies to replay, comma-separated: "+strategyNames()+", each with +edits (default: full,clear,mask for agent sessions, full,windowed,summarizing,turn for chats)")
	f.IntVar(&o.windowChars, "window-chars", window.DefaultWindowChars, "character budget of windowed and sliding")
	f.IntVar(&o.head, "head", window.DefaultHead, "turns sliding always keeps from the start")
	f.IntVar(&o.highWaterTokens, "high-water-tokens", window.DefaultHighWaterTokens, "summarizing compacts after a call over this many input tokens")
	f.IntVar(&o.lowWaterChars, "low-water-chars", window.DefaultLowWaterChars, "characters of recent turns summarizing keeps when it compacts")
	f.IntVar(&o.summaryMaxChars, "summary-max-chars", window.DefaultSummaryMaxChars, "bound on the rolling summary")
	f.StringVar(&o.distillCmd, "distill-cmd", "", "shell `CMD` that writes the summary: older turns as JSON on stdin, summary on stdout (default: built-in extractive summary)")
	f.IntVar(&o.toolResultLimit, "tool-result-limit", 0, "cut tool results longer than `BYTES` in the model's copy (0: no limit)")
	f.StringVarP(&o.tokenizer, "tokenizer", "t", "estimate", "tokenizer: "+strings.Join(tokenize.Names(), ", ")+tokenizerHelp)
	f.Var(windowList{&o.contextWindow, &o.contextWindows}, "context-window", "flag calls over this many `TOKENS` (0: none); several, comma-separated, replay each")
	f.StringVarP(&o.model, "model", "m", "", "take --context-window and --tokenizer from model `NAME` (harpe models), and price as it the calls that name no model (--price-as reprices every call)")
	f.IntVar(&o.budget, "budget", 0, "token budget of the budget strategy")
	f.StringVar(&o.policy, "policy", "lowest_priority", "selection policy of the budget strategy")
	f.StringVarP(&o.format, "format", "f", "", formatFlagHelp("table, json or jsonl"))
	f.StringVar(&o.plot, "plot", "", "also draw tokens (or --plot-metric cost) per call for each strategy as an SVG `FILE`, of the first session when there are several (a note names it)")
	f.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` (atomically) instead of stdout")
	f.StringVar(&o.inputFormat, "input-format", "", "transcript format (default: auto, detected): "+transcript.FormatList())
	f.StringVar(&o.conversation, "conversation", "", "replay only the conversation with this `ID` (ShareGPT and long-memory files hold several)")
	f.BoolVar(&o.totalsOnly, "totals", false, "table: only the totals, no row per call")
	f.IntVar(&o.showCall, "show-call", 0, "print what call `N` sent under the one --strategy (default full): readable, or with --format json the request body")
	f.StringVar(&o.showAs, "show-as", "", "request body of --show-call --format json: openai or anthropic (default: the transcript's own, else openai)")
	a.addPriceFlags(c, true)
	f.StringVar(&o.cache, "cache", "", "prompt-cache `RULE` for every call: "+strings.Join(cacheRules, ", ")+" (default: each call's model's)")
	f.StringVar(&o.cacheTTL, "cache-ttl", "5m", "Anthropic cache `TTL`: 5m, or 1h (written at the 1-hour price)")
	f.StringVar(&o.plotMetric, "plot-metric", "tokens", "what --plot draws per call: "+strings.Join(plotMetrics, ", "))
	f.IntVar(&o.clearTrigger, "clear-trigger", window.DefaultClearTrigger, "clear: input `TOKENS` past which a call clears old tool results")
	f.IntVar(&o.clearKeep, "clear-keep", window.DefaultClearKeep, "clear: newest tool results never cleared")
	f.IntVar(&o.clearAtLeast, "clear-at-least", 0, "clear: clear only when at least this many `TOKENS` are freed")
	f.StringSliceVar(&o.clearExclude, "clear-exclude", nil, "clear: `TOOLS` whose results are never cleared, comma-separated")
	f.BoolVar(&o.clearInputs, "clear-inputs", false, "clear: also clear the tool calls' arguments")
	f.IntVar(&o.maskKeep, "mask-keep", window.DefaultMaskKeep, "mask: tool-using calls whose results are sent verbatim")
	return c
}

// cacheRules are the values of --cache; plotMetrics those of
// --plot-metric.
var (
	cacheRules  = []string{string(prices.CacheAnthropic), string(prices.CacheOpenAI), string(prices.CacheNone)}
	cacheTTLs   = []string{"5m", "1h"}
	plotMetrics = []string{"tokens", "cost"}
)

// costOptions returns the pricing of a replay: each call is priced as its
// recorded model (else --model), under --cache when given. A transcript
// that names no model, replayed without --model or --cache, is not priced
// (see window.CostOptions).
func costOptions(o *replayOptions, cat *prices.Catalog) *window.CostOptions {
	ttl, err := cost.ParseTTL(o.cacheTTL)
	if err != nil {
		ttl = cost.AnthropicTTL // checked with the flags
	}
	return &window.CostOptions{Rule: prices.CacheRule(o.cache), Model: o.model, Catalog: cat, TTL: ttl}
}

// noteUnpriced writes one note on stderr for each model in results that
// has no prices, once per run of the command.
func (a *app) noteUnpriced(noted map[string]bool, results []window.Result) {
	for _, r := range results {
		if r.Totals.CostTotals == nil {
			continue
		}
		for _, m := range r.Totals.UnpricedModels {
			if !noted[m] {
				noted[m] = true
				fmt.Fprintf(a.io.Err, "harpe: note: no prices for model %q; its calls are priced at 0 (add them under models: in harpe.yaml)\n", m)
			}
		}
	}
}

// notePlotSession says on stderr which session --plot drew when the
// input held several (it draws the first), so the choice is not silent.
func (a *app) notePlotSession(n int, file, conversation string) {
	if n < 2 {
		return
	}
	name := escapeControl(file)
	if conversation != "" {
		name += " (conversation " + escapeControl(conversation) + ")"
	}
	fmt.Fprintf(a.io.Err, "harpe: note: --plot draws session 1 of %d, %s; name one file (or --conversation ID) to draw another\n", n, name)
}

func strategyNames() string {
	var names []string
	for _, s := range window.Strategies() {
		names = append(names, s.Name())
	}
	return strings.Join(names, ", ")
}

// replayed is one transcript's replay.
type replayed struct {
	file    string
	t       *transcript.Transcript
	results []window.Result
	// messages is the conversation's length where t was let go after
	// its replay (t then keeps only its ID, format and turns).
	messages int
}

// messageCount is the number of messages of the run's conversation.
func (r *replayed) messageCount() int {
	if r.t.Messages == nil {
		return r.messages
	}
	return len(r.t.Messages)
}

func runReplay(a *app, o *replayOptions) error {
	for _, f := range []struct {
		name string
		v    int
	}{{"--window-chars", o.windowChars}, {"--head", o.head}, {"--high-water-tokens", o.highWaterTokens},
		{"--low-water-chars", o.lowWaterChars}, {"--summary-max-chars", o.summaryMaxChars},
		{"--tool-result-limit", o.toolResultLimit}, {"--context-window", o.contextWindow}, {"--budget", o.budget},
		{"--clear-trigger", o.clearTrigger}, {"--clear-keep", o.clearKeep}, {"--clear-at-least", o.clearAtLeast},
		{"--mask-keep", o.maskKeep}} {
		if f.v < 0 {
			return usageErrorf("%s: must be a whole number ≥ 0, got %d", f.name, f.v)
		}
	}
	for _, n := range o.contextWindows {
		if n < 0 {
			return usageErrorf("--context-window: must be a whole number ≥ 0, got %d", n)
		}
	}
	if len(o.contextWindows) > 1 && o.showCallSet {
		return usageErrorf("--show-call takes one --context-window, not %d", len(o.contextWindows))
	}
	counter, err := tokenize.New(o.tokenizer)
	if err != nil {
		return usageErrorf("--tokenizer: %v", err)
	}
	if o.inputFormat == "auto" {
		o.inputFormat = "" // detect, as fit's --input-format auto does
	}
	if o.inputFormat != "" && !containsString(transcript.FormatNames(), o.inputFormat) {
		return usageErrorf("--input-format: unknown format %q; valid: %s", o.inputFormat, transcript.FormatList())
	}
	wopts := window.Options{
		WindowChars:     o.windowChars,
		Head:            o.head,
		HighWaterTokens: o.highWaterTokens,
		LowWaterChars:   o.lowWaterChars,
		SummaryMaxChars: o.summaryMaxChars,
		ToolResultLimit: o.toolResultLimit,
		Counter:         counter,
		Budget:          engine.Budget{Total: o.budget},
		Engine:          engine.Options{Policy: o.policy, Counter: counter},
		Clear: window.ClearEdit{Trigger: o.clearTrigger, Keep: o.clearKeep, ClearAtLeast: o.clearAtLeast,
			ExcludeTools: o.clearExclude, ClearInputs: o.clearInputs},
		Mask: window.MaskEdit{Keep: o.maskKeep},
	}
	if o.distillCmd != "" {
		wopts.Distill = a.distiller(o.distillCmd)
	}
	var strategies []window.Strategy
	parse := func() error {
		if strategies, err = parseStrategies(o, wopts); err != nil {
			return err
		}
		// After the flag and strategy checks, so that a refused value is
		// not first noted as ignored ("--head -1", "--strategy foo").
		a.noteUnusedFlags(strategyComponents(o.strategies), replayFlagUses)
		return nil
	}
	defaulted := len(o.strategies) == 0 // chosen once the transcripts are read
	if !defaulted {
		if err := parse(); err != nil {
			return err
		}
	}
	ropts := window.ReplayOptions{
		Options:       wopts,
		ContextWindow: o.contextWindow,
		Indices:       o.format != "table",
		Regret:        true,
	}
	if a.io.ErrIsTerminal {
		ropts.Progress = newReplayProgress(a.io.Err).report
	}

	cat, err := a.modelCatalog()
	if err != nil {
		return err
	}
	ropts.Cost = costOptions(o, cat)
	// Several window limits replay every session once per limit: not streamed.
	streamTotals := o.totalsOnly && o.distillCmd == "" && !o.showCallSet && o.plot == "" && len(o.contextWindows) < 2
	var runs []replayed
	if defaulted {
		// The defaults depend on what the sessions are: agent loops or
		// chats. Totals over many files are told apart by a quiet first
		// read of each file, holding one answer a file, so the replay
		// below can still stream; otherwise every input is read now.
		var agent []bool
		if streamTotals && !slices.Contains(o.files, "-") {
			agent, err = classifySessions(a, o)
		} else {
			runs, err = readReplayInputs(a, o)
			for _, r := range runs {
				agent = append(agent, window.IsAgentLoop(r.t))
			}
		}
		if err != nil {
			return err
		}
		if err := chooseDefaultStrategies(o, agent); err != nil {
			return err
		}
		if err := parse(); err != nil {
			return err
		}
	}
	if streamTotals && runs == nil {
		// Totals over many sessions: each file is replayed as it is read
		// and let go, a few at once, so memory holds a few transcripts
		// and every session's totals, not every session.
		runs, err := readAndReplayTotals(a, o, strategies, ropts)
		if err != nil {
			return err
		}
		if len(runs) > 1 {
			return replaySessionsTotals(a, o, runs, strategies, ropts)
		}
		if o.format == "table" {
			a.noteUnpriced(map[string]bool{}, runs[0].results)
			var out bytes.Buffer
			if err := writeReplay(&out, o, runs[0], false); err != nil {
				return err
			}
			return a.writeOutput(o.output, func(w io.Writer) error {
				_, err := w.Write(out.Bytes())
				return err
			})
		}
		// JSON of one session writes its calls: replayed again below.
	}
	// Every input is read before anything is replayed or written, so bad
	// input leaves stdout empty.
	if runs == nil {
		if runs, err = readReplayInputs(a, o); err != nil {
			return err
		}
	}
	if o.showCallSet {
		return runShowCall(a, o, runs, strategies, ropts)
	}
	if o.totalsOnly && len(runs) > 1 {
		return replaySessionsTotals(a, o, runs, strategies, ropts)
	}
	if o.format != "table" && o.distillCmd == "" && len(o.contextWindows) < 2 {
		return streamReplay(a, o, runs, strategies, ropts)
	}
	if err := replayRuns(a, o, runs, strategies, ropts); err != nil {
		return err
	}
	noted := map[string]bool{}
	for _, run := range runs {
		a.noteUnpriced(noted, run.results)
	}
	// Render everything before writing anything.
	out := tableBuffer{opts: a.tableOptions(false)}
	for i, run := range runs {
		if i > 0 && o.format == "table" {
			out.WriteByte('\n')
		}
		if err := writeReplay(&out, o, run, len(runs) > 1); err != nil {
			return err
		}
	}
	var plot bytes.Buffer
	if o.plot != "" && len(runs) > 0 {
		if err := plotReplay(&plot, o, runs[0]); err != nil {
			return err
		}
		a.notePlotSession(len(runs), runs[0].file, runs[0].t.ID)
	}
	if o.plot != "" {
		if err := a.stageFile(o.plot, func(w io.Writer) error {
			_, err := w.Write(plot.Bytes())
			return err
		}); err != nil {
			return err
		}
	}
	return a.writeOutput(o.output, func(w io.Writer) error {
		_, err := w.Write(out.Bytes())
		return err
	})
}

// parseStrategies builds the --strategy specs, each once.
func parseStrategies(o *replayOptions, wopts window.Options) ([]window.Strategy, error) {
	var strategies []window.Strategy
	seen := map[string]bool{}
	for _, spec := range o.strategies {
		spec = strings.TrimSpace(spec)
		if seen[spec] {
			continue
		}
		seen[spec] = true
		s, err := window.Parse(spec, wopts)
		var pe *window.PolicyError
		switch {
		case errors.Is(err, window.ErrNoBudget):
			return nil, usageErrorf("--budget: the budget strategy needs a budget of at least 1 token")
		case errors.As(err, &pe):
			return nil, usageErrorf("--policy: %v", pe.Err)
		case errors.Is(err, window.ErrNoLimit):
			return nil, usageErrorf("--strategy: limit: needs bytes=N with N ≥ 1 (or --tool-result-limit)")
		case err != nil:
			return nil, usageErrorf("--strategy: %v", err)
		}
		strategies = append(strategies, s)
	}
	if len(strategies) == 0 {
		return nil, usageErrorf("--strategy: no strategy given; valid: %s", strategyNames())
	}
	return strategies, nil
}

func containsStrategy(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// callLine is one --format jsonl line: a call with its strategy and the
// compaction before it.
type callLine struct {
	Strategy string `json:"strategy"`
	// File and Conversation name the session when the run reads several.
	File         string `json:"file,omitempty"`
	Conversation string `json:"conversation,omitempty"`
	window.Call
	Compaction *window.Event `json:"compaction,omitempty"`
}

func writeReplay(w io.Writer, o *replayOptions, run replayed, several bool) error {
	tj := window.TranscriptInfo{Format: string(run.t.Format), Messages: run.messageCount(), Turns: run.t.Turns, ID: run.t.ID}
	if several {
		tj.File = run.file
	}
	switch o.format {
	case "json":
		return writeJSON(w, window.Report{Transcript: tj, Strategies: run.results})
	case "jsonl":
		for _, r := range run.results {
			ev := 0
			for _, c := range r.Calls {
				cj := callLine{Strategy: r.Strategy, Call: c}
				if several {
					cj.File, cj.Conversation = run.file, run.t.ID
				}
				if ev < len(r.Events) && r.Events[ev].Call == c.Call {
					cj.Compaction = &r.Events[ev]
					ev++
				}
				if err := writeJSONLine(w, cj); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return writeReplayTable(w, o, tj, run.results)
}

// writeReplayTable writes one table of calls (one strategy) or a
// comparison of tokens per call (several), then the totals.
func writeReplayTable(w io.Writer, o *replayOptions, tj window.TranscriptInfo, results []window.Result) error {
	title := fmt.Sprintf("%s transcript: %s, %s", tj.Format, plural(tj.Messages, "message"), plural(tj.Turns, "turn"))
	if tj.ID != "" {
		title = "conversation " + escapeControl(tj.ID) + ": " + title
	}
	if tj.File != "" {
		title = escapeControl(tj.File) + ": " + title
	}
	fmt.Fprintln(w, title)
	if o.chosen != "" {
		fmt.Fprintln(w, o.chosen)
	}
	if len(results) == 0 || results[0].Totals.Calls == 0 {
		fmt.Fprintln(w, "no model calls")
	}
	if !o.totalsOnly && len(results) > 0 && len(results[0].Calls) > 0 {
		var header []string
		var rows [][]string
		if len(results) == 1 {
			r := results[0]
			header = []string{"turn", "call", "messages", "chars", "tokens", "full", "note"}
			priced := r.Totals.CostTotals != nil
			if priced {
				header = append(header, "cached", "cost $")
			}
			ev := 0
			for _, c := range r.Calls {
				note := ""
				if ev < len(r.Events) && r.Events[ev].Call == c.Call {
					note = "C"
					ev++
				}
				if c.OverWindow {
					note = strings.TrimSpace(note + " !")
				}
				if c.OverBudget {
					note = strings.TrimSpace(note + " B")
				}
				row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call),
					fmt.Sprintf("%d/%d", c.MessageCount, c.FullMessages), strconv.Itoa(c.Chars),
					strconv.Itoa(c.Tokens), strconv.Itoa(c.FullTokens), note}
				if priced && c.CallCost != nil {
					cell := usd(c.CostUSD)
					if slices.Contains(r.Totals.UnpricedModels, c.CallCost.Model) {
						cell = "unpriced"
					}
					row = append(row, strconv.Itoa(c.Cache.Read), cell)
				}
				rows = append(rows, row)
			}
		} else {
			// Tokens per call, one column per strategy (and full's, when
			// full is not one of them).
			withFull := !containsStrategy(strategiesOf(results), "full")
			header = []string{"turn", "call"}
			if withFull {
				header = append(header, "full")
			}
			for k, r := range results {
				header = append(header, shortName(r.Strategy, k))
			}
			evs := make([]int, len(results))
			for k, c := range results[0].Calls {
				row := []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call)}
				if withFull {
					row = append(row, strconv.Itoa(c.FullTokens))
				}
				for j, r := range results {
					rc := r.Calls[k]
					cell := strconv.Itoa(rc.Tokens)
					if evs[j] < len(r.Events) && r.Events[evs[j]].Call == rc.Call {
						cell += " C"
						evs[j]++
					}
					if rc.OverWindow {
						cell += " !"
					}
					if rc.OverBudget {
						cell += " B"
					}
					row = append(row, cell)
				}
				rows = append(rows, row)
			}
		}
		if err := renderTable(w, header, rows, nil); err != nil {
			return err
		}
		if len(results) > 1 {
			fmt.Fprint(w, "tokens per call; ")
		}
		legend := "C: compacted before this call, !: over the context window"
		if overBudget(results) {
			legend += ", B: over the budget"
		}
		fmt.Fprintln(w, legend)
		if len(results) == 1 && results[0].Totals.CostTotals != nil {
			fmt.Fprintln(w, "cached: tokens read from the prompt cache; cost $: the call's price")
		}
		for k, r := range results {
			if len(results) > 1 && shortName(r.Strategy, k) != r.Strategy && shortName(r.Strategy, k) != oldShort(r.Strategy) {
				fmt.Fprintf(w, "%s: %s\n", shortName(r.Strategy, k), r.Strategy)
			}
		}
		for _, r := range results {
			for _, e := range r.Events {
				line := fmt.Sprintf("%s compacted before call %d (turn %d): %d → %s, summary %s, folded messages %s",
					r.Strategy, e.Call, e.Turn, e.MessagesBefore, plural(e.MessagesAfter, "message"), plural(e.SummaryChars, "char"), ranges(e.Folded))
				// Wrapped at spaces to the table's width, continuation
				// lines indented: a real session's line is over 100 wide.
				to := tableOptionsOf(w)
				for i, l := range strings.Split(to.Wrap(line, to.Width-2), "\n") {
					if i > 0 {
						l = "  " + l
					}
					fmt.Fprintln(w, l)
				}
			}
		}
	}
	// Six columns, headers of at most 8 characters: the table helper
	// shares the 80 columns out and cuts longer headers. Every strategy
	// makes the same calls, so their number is in the last line.
	priced := len(results) > 0 && results[0].Totals.CostTotals != nil
	header := []string{"strategy", "sent", "saved", "max call", "compact.", "over win"}
	if priced {
		// Two more columns: the last three are cut to fit 80 columns,
		// with a legend under the table.
		header = []string{"strategy", "sent", "saved", "cost $", "$ saved", "regret $", "max", "C", "!"}
	}
	var rows [][]string
	for _, r := range results {
		t := r.Totals
		row := []string{string(r.Strategy), strconv.Itoa(t.TokensSent),
			strconv.FormatFloat(t.SavedRatio*100, 'f', 1, 64) + "%"}
		if priced {
			row = append(row, costCell(t), strconv.FormatFloat(t.SavedCostRatio*100, 'f', 1, 64)+"%", regretCell(t.CostTotals))
		}
		rows = append(rows, append(row, strconv.Itoa(t.MaxCallTokens),
			strconv.Itoa(t.Compactions), strconv.Itoa(t.OverWindowCalls)))
	}
	var full, calls int
	if len(results) > 0 {
		full, calls = results[0].Totals.TokensFull, results[0].Totals.Calls
	}
	if err := renderTable(w, header, rows, nil); err != nil {
		return err
	}
	costing := ""
	if priced {
		costing = ", costing $" + usd(results[0].Totals.FullCostUSD)
		fmt.Fprintln(w, "cost $: what the calls cost, output included; $ saved: against full's cost;")
		fmt.Fprintln(w, "regret $: cost $ minus the cheapest plan's; max: the largest call;")
		fmt.Fprintln(w, "C: compactions; !: calls over the context window")
	}
	writePlans(w, results)
	if _, err := fmt.Fprintf(w, "%s; full context would send %s in all%s\n", plural(calls, "call"), plural(full, "token"), costing); err != nil {
		return err
	}
	if len(results) > 0 {
		if left := replayUnpriced(results[0]); len(left) > 0 {
			io.WriteString(w, unpricedLine(left))
		}
	}
	for _, r := range results {
		if a := r.Totals.CostTotals; a != nil && a.Agreement != nil {
			fmt.Fprintf(w, "%s: modelled cache reads agree with the records on %d of %s (%.1f%%)\n",
				r.Strategy, a.Agreement.Agree, plural(a.Agreement.Calls, "call"), 100*float64(a.Agreement.Agree)/float64(a.Agreement.Calls))
			if a.RecordedCostUSD != nil {
				line := fmt.Sprintf("%s: the records bill $%s", r.Strategy, usd(*a.RecordedCostUSD))
				if a.EvictedCalls > 0 {
					line += fmt.Sprintf("; %s read less than modelled: every strategy is priced with the cache cut there", plural(a.EvictedCalls, "call"))
				}
				fmt.Fprintln(w, line)
			}
		}
	}
	if len(results) > 0 {
		if cal := results[0].Totals.Calibration; cal != nil && cal.Ratio != 1 {
			fmt.Fprintf(w, "sizes from the records: a front of %s; the counter gives %.3f× the recorded tokens of %s\n",
				plural(cal.Front, "token"), cal.Ratio, plural(cal.Messages, "message"))
		}
	}
	for _, r := range results {
		if n := r.Totals.OverBudgetCalls; n > 0 {
			fmt.Fprintf(w, "%s: %s over the budget (what it always keeps, the system part and the newest prompt, is alone over it)\n", r.Strategy, plural(n, "call"))
		}
	}
	return nil
}

// usd writes a price in US dollars with six decimals; usd4 with four.
func usd(x float64) string { return strconv.FormatFloat(x, 'f', 6, 64) }

// costCell is a strategy's cost in a table: "unpriced" when no call of
// it has a price.
func costCell(t window.Totals) string {
	if t.CostUSD == 0 && len(t.UnpricedModels) > 0 {
		return "unpriced"
	}
	return usd4(t.CostUSD)
}

// replayUnpriced returns the calls and tokens (sent and output) of r
// whose model has no price, by model.
func replayUnpriced(r window.Result) []cost.Unpriced {
	if r.Totals.CostTotals == nil || len(r.Totals.UnpricedModels) == 0 {
		return nil
	}
	var out []cost.Unpriced
	for _, c := range r.Calls {
		if c.CallCost == nil || !slices.Contains(r.Totals.UnpricedModels, c.CallCost.Model) {
			continue
		}
		out = cost.MergeUnpriced(out, []cost.Unpriced{{Model: c.CallCost.Model, Calls: 1, Tokens: c.Tokens + c.CallCost.OutputTokens}})
	}
	return out
}
func usd4(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func overBudget(results []window.Result) bool {
	for _, r := range results {
		if r.Totals.OverBudgetCalls > 0 {
			return true
		}
	}
	return false
}

func strategiesOf(results []window.Result) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r.Strategy
	}
	return out
}

// shortName is a strategy's name as a column header (at most 8
// characters): a longer one becomes "#k", k its place in --strategy, and a
// line under the table says which it is.
func shortName(name string, k int) string {
	if n := oldShort(name); len(n) <= 8 {
		return n
	}
	return "#" + strconv.Itoa(k+1)
}

func oldShort(name string) string {
	if name == "summarizing" {
		return "summ."
	}
	return name
}

// ranges writes increasing indices as "1-6, 9, 12-13".
func ranges(idx []int) string {
	var b strings.Builder
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && idx[j+1] == idx[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(idx[i]))
		if j > i {
			b.WriteString("-" + strconv.Itoa(idx[j]))
		}
		i = j + 1
	}
	return b.String()
}

// streamReplay writes --format json|jsonl as the calls are made, so memory
// does not grow with the calls: every input is read first (bad input
// stops the run before anything is written), then each transcript is
// replayed into the output. (With --distill-cmd the report is rendered
// whole first, so a failing command leaves nothing on stdout.)
func streamReplay(a *app, o *replayOptions, runs []replayed, strategies []window.Strategy, ropts window.ReplayOptions) error {
	var plotted []window.Result // tokens and cost per call of the first run, for --plot
	noted := map[string]bool{}
	err := a.writeOutput(o.output, func(w io.Writer) error {
		for i, run := range runs {
			tj := window.TranscriptInfo{Format: string(run.t.Format), Messages: len(run.t.Messages), Turns: run.t.Turns, ID: run.t.ID}
			if len(runs) > 1 {
				tj.File = run.file
			}
			js := &jsonStream{w: w, jsonl: o.format == "jsonl"}
			if len(runs) > 1 {
				js.file, js.conversation = run.file, run.t.ID
			}
			opts := ropts
			opts.OnCall = func(s string, c *window.Call, ev *window.Event) error {
				if i == 0 && o.plot != "" {
					if len(plotted) == 0 || plotted[len(plotted)-1].Totals.Calls >= 0 {
						plotted = append(plotted, window.Result{Strategy: s, Totals: window.Totals{Calls: -1}})
					}
					pc := window.Call{Tokens: c.Tokens, Call: c.Call}
					if c.CallCost != nil {
						pc.CallCost = &window.CallCost{CostUSD: c.CostUSD}
					}
					plotted[len(plotted)-1].Calls = append(plotted[len(plotted)-1].Calls, pc)
				}
				return js.call(s, c, ev)
			}
			opts.OnResult = func(r *window.Result) error {
				if i == 0 && o.plot != "" {
					if len(plotted) == 0 || plotted[len(plotted)-1].Totals.Calls >= 0 {
						plotted = append(plotted, window.Result{Strategy: r.Strategy})
					}
					plotted[len(plotted)-1].Totals = r.Totals
				}
				a.noteUnpriced(noted, []window.Result{*r})
				return js.result(r)
			}
			if err := js.begin(tj); err != nil {
				return err
			}
			if _, err := window.Replay(a.ctx, run.t, strategies, opts); err != nil {
				if a.ctx.Err() != nil {
					return err
				}
				return replayError(run.file, err)
			}
			if err := js.end(); err != nil {
				return err
			}
		}
		return nil
	})
	if ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil || o.plot == "" || len(runs) == 0 {
		return err
	}
	a.notePlotSession(len(runs), runs[0].file, runs[0].t.ID)
	return a.stageFile(o.plot, func(w io.Writer) error {
		return plotReplay(w, o, replayed{file: runs[0].file, t: runs[0].t, results: plotted})
	})
}

// jsonStream writes one transcript's report as writeJSON would write a
// window.Report (or, for jsonl, one call a line), a call at a time.
type jsonStream struct {
	w     io.Writer
	jsonl bool
	// file and conversation name the session in jsonl lines when the run
	// reads several.
	file, conversation string
	strategies         int  // strategies begun
	open               bool // a strategy's calls are being written
	calls              int  // calls written in the open strategy
}

// indented encodes v as writeJSON does, its lines after the first
// starting with prefix, without the final newline.
func indented(v any, prefix string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func (j *jsonStream) write(parts ...any) error {
	for _, p := range parts {
		var err error
		switch p := p.(type) {
		case string:
			_, err = io.WriteString(j.w, p)
		case []byte:
			_, err = j.w.Write(p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (j *jsonStream) begin(tj window.TranscriptInfo) error {
	if j.jsonl {
		return nil
	}
	b, err := indented(tj, "  ")
	if err != nil {
		return err
	}
	return j.write("{\n  \"transcript\": ", b, ",\n  \"strategies\": [")
}

func (j *jsonStream) openStrategy(name string) error {
	b, err := indented(name, "")
	if err != nil {
		return err
	}
	sep := ""
	if j.strategies > 0 {
		sep = ","
	}
	j.strategies++
	j.open, j.calls = true, 0
	return j.write(sep, "\n    {\n      \"strategy\": ", b, ",\n      \"calls\": [")
}

func (j *jsonStream) call(name string, c *window.Call, ev *window.Event) error {
	if j.jsonl {
		return writeJSONLine(j.w, callLine{Strategy: name, File: j.file, Conversation: j.conversation, Call: *c, Compaction: ev})
	}
	if !j.open {
		if err := j.openStrategy(name); err != nil {
			return err
		}
	}
	b, err := indented(c, "        ")
	if err != nil {
		return err
	}
	sep := ""
	if j.calls > 0 {
		sep = ","
	}
	j.calls++
	return j.write(sep, "\n        ", b)
}

func (j *jsonStream) result(r *window.Result) error {
	if j.jsonl {
		return nil
	}
	if !j.open {
		if err := j.openStrategy(r.Strategy); err != nil {
			return err
		}
	}
	closing := "]"
	if j.calls > 0 {
		closing = "\n      ]"
	}
	ev, err := indented(r.Events, "      ")
	if err != nil {
		return err
	}
	tot, err := indented(r.Totals, "      ")
	if err != nil {
		return err
	}
	j.open = false
	plan := []byte{}
	if len(r.Plan) > 0 {
		b, err := indented(r.Plan, "      ")
		if err != nil {
			return err
		}
		plan = append([]byte(",\n      \"plan\": "), b...)
	}
	return j.write(closing, ",\n      \"events\": ", ev, ",\n      \"totals\": ", tot, plan, "\n    }")
}

func (j *jsonStream) end() error {
	if j.jsonl {
		return nil
	}
	if j.strategies == 0 {
		return j.write("]\n}\n")
	}
	return j.write("\n  ]\n}\n")
}

// readReplayInputs reads every input (files and directories, in parallel,
// in argument order, as every transcript command reads them) and returns
// the conversations to replay, --conversation applied.
// classifySessions reads each input once, quietly, and says for each
// session whether it is an agent loop ([window.IsAgentLoop]), holding
// no transcript longer than it takes to read it.
func classifySessions(a *app, o *replayOptions) ([]bool, error) {
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true, quiet: true}, o.files, func(name string, r io.Reader) ([]bool, error) {
		ts, err := transcript.Read(r, name, transcript.Format(o.inputFormat))
		if err != nil {
			return nil, inputError(err)
		}
		var agent []bool
		for _, t := range ts {
			if o.conversation == "" || t.ID == o.conversation {
				agent = append(agent, window.IsAgentLoop(t))
			}
		}
		return agent, nil
	})
	if err != nil {
		return nil, err
	}
	var agent []bool
	for _, f := range files {
		agent = append(agent, f...)
	}
	return agent, nil
}

// chooseDefaultStrategies sets o.strategies to the defaults for sessions
// that are agent loops (any of agent) or chats, and o.chosen to the line
// the table shows about it.
func chooseDefaultStrategies(o *replayOptions, agent []bool) error {
	specs, isAgent := window.DefaultStrategiesFor(slices.Contains(agent, true))
	o.strategies = specs
	o.chosen = "default for chats: " + strings.Join(specs, ", ") + " (--strategy names others)"
	if isAgent {
		o.chosen = "default for agent loops: " + strings.Join(specs, ", ") + " (--strategy names others)"
	}
	return nil
}

func readReplayInputs(a *app, o *replayOptions) ([]replayed, error) {
	type inputFile struct {
		name string
		ts   []*transcript.Transcript
	}
	files, err := readTranscriptFiles(a, readRules{once: true, refuseEmpty: true}, o.files, func(name string, r io.Reader) (inputFile, error) {
		ts, err := transcript.Read(r, name, transcript.Format(o.inputFormat))
		if err != nil {
			return inputFile{}, inputError(err)
		}
		return inputFile{name, ts}, nil
	})
	if err != nil {
		return nil, err
	}
	var runs []replayed
	for _, f := range files {
		a.warnTranscripts(f.ts)
		for _, t := range f.ts {
			if o.conversation == "" || t.ID == o.conversation {
				runs = append(runs, replayed{file: f.name, t: t})
			}
		}
	}
	if o.conversation != "" && len(runs) == 0 {
		return nil, usageErrorf("--conversation: no conversation with id %q", o.conversation)
	}
	return runs, nil
}

// strategyComponents splits --strategy specs into the names they use,
// strategies and edits alike ("windowed:chars=9+clear" → windowed, clear),
// for the notes on flags no chosen strategy or edit reads.
func strategyComponents(specs []string) []string {
	var out []string
	for _, spec := range specs {
		for _, part := range strings.Split(spec, "+") {
			name, _, _ := strings.Cut(strings.TrimSpace(part), ":")
			out = append(out, name)
		}
	}
	return out
}
