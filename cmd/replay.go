package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/pkg/window/sessions"
)

// replayOptions are the flags of harpe replay, as given: runReplay checks
// and parses them once into a replayJob (replay_setup.go).
type replayOptions struct {
	strategies []string
	// settings are the flags of the registry's settings (--window-chars,
	// --clear-keep: window.Setting.Flag).
	settings        []*settingFlag
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
	cacheTTLSet bool // --cache-ttl given: else the records' TTL (window.CostOptions.TTL)
	plotMetric  string
}

func newReplayCmd(a *app) *cobra.Command {
	o := &replayOptions{}
	c := &cobra.Command{
		Use:   "replay [FILE…]",
		Short: "Replay a transcript through context strategies, call by call",
		Long:  strings.Replace(replayHelp, "{{defaults}}", defaultStrategiesParagraph(), 1) + exitStatusHelp,
		Example: `  harpe replay session.jsonl --strategy full,windowed,summarizing
  harpe replay session.jsonl --strategy windowed --window-chars 40000 --format json
  harpe replay session.jsonl --strategy summarizing --distill-cmd 'my-summarizer'
  harpe replay session.jsonl --strategy full,windowed+clear,mask,summarizing+mask
  harpe replay session.jsonl --plot tokens.svg
  harpe replay session.jsonl --strategy full,clear,mask --totals --cache anthropic
  harpe replay session.jsonl --plot cost.svg --plot-metric cost`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && a.io.InIsTerminal {
				var err error
				if args, err = a.harnessPaths(); err != nil {
					return err
				}
			}
			o.files = args
			if err := checkReplayFlags(a, c, o); err != nil {
				return err
			}
			a.ctx = a.readContext()
			return runReplay(a, o)
		},
	}
	bindReplayFlags(a, c, o)
	a.addStrictLinesFlag(c)
	return c
}

// replayHelp is the long help of harpe replay.
const replayHelp = `Replay reads a saved conversation (any transcript format harpe reads) and
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
               --context-window (else the model's window) where it can be,
               dropping old turns where clears do not fit;
               cheapest:keep=N (1), exclude=TOOLS, inputs; the report lists
               its plan, and every priced strategy's regret $ against it

Harness presets: each compacts as the harness does, at --context-window
(else its default), folding everything into one summary (--distill-cmd,
--summary-max-chars) that replaces the history:
  claude-code  Claude Code's auto-compact: before a call whose latest usage
               plus what was added since reaches window (200000) - reserve
               (20000) - buffer (13000), or percent=N of window - reserve
               when lower; keeps the newest prompt
  codex        Codex's auto-compact: before a call whose latest usage plus
               what was added since reaches percent (90) of window
               (272000), or limit=N; keeps the newest user messages up to
               user=N (20000) tokens
Add the edit micro for Claude Code's time-based microcompact:
claude-code+micro.

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
  micro        Claude Code's time-based microcompact: when a call comes gap=N
               (60) minutes or more after the latest reply (the cache is
               cold), results of Read, Bash, Grep, Glob, WebSearch, WebFetch,
               Edit and Write older than the newest keep=N (5) are cleared
A setting can follow a name or an edit: windowed:chars=40000+clear:keep=5,
summarizing+mask:keep=10, clear:trigger=50000:at-least=20000:exclude=Read/Grep.

{{defaults}}

Tokens: full sends the provider's recorded input tokens when the transcript
has them, else the tokenizer's count; other strategies send their counted
tokens plus the same call's overhead (recorded minus full's counted tokens,
over the uncut history).

Cost: where the calls name their model (or --model names one, or --cache is
given), every call is priced under the provider's prompt cache: the tokens
read from the cache, written to it and sent uncached, the recorded output,
and the price in US dollars; the totals add the saving against full in money.
The cache rule comes from each call's model (anthropic; openai, also for
Gemini 2.5 and later, whose implicit cache reads a repeated prefix; none)
unless --cache overrides it. For full, calls that record cache usage show the
record and the totals how often the modelled cache reads agree with it, and
what the records bill. Where a record reads less than modelled (an eviction, a
routing miss), the cache is cut to what the record shows for every strategy, so
full costs what was billed and each saving is measured against it. Prices come
from the embedded genai-prices snapshot (--prices FILE reads a newer
data.json), at each call's date and size. --model prices only the calls
that name no model; --price-as MODEL prices every call as if sent to MODEL,
its cache rule included. A call without a price shows "unpriced", is named
under the table and in "unpriced_models", with a note on stderr.

Aborted turns are dropped from the context once they end. Every strategy
follows the harness's own compactions: from one on, the retained history is the
harness's summary and what follows. The transcript is only read.
`

// bindReplayFlags binds the flags of harpe replay to o.
func bindReplayFlags(a *app, c *cobra.Command, o *replayOptions) {
	f := c.Flags()
	f.StringSliceVar(&o.strategies, "strategy", nil, "`SPECS` of the strategies to replay, comma-separated: "+strategyNames()+", each with +edits (default: "+defaultStrategiesHelp()+")")
	o.settings = bindSettingFlags(f)
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
	f.BoolVar(&o.totalsOnly, "totals", false, "only the totals: a table without a row per call; in JSON and JSON lines the totals report, no calls")
	f.IntVar(&o.showCall, "show-call", 0, "print what call `N` sent under the one --strategy (default full): readable, or with --format json the request body")
	f.StringVar(&o.showAs, "show-as", "", "request body of --show-call --format json: openai or anthropic (default: the transcript's own, else openai)")
	a.addPriceFlags(c, true)
	f.StringVar(&o.cache, "cache", "", "prompt-cache `RULE` for every call: "+strings.Join(cacheRules, ", ")+" (default: each call's model's)")
	f.StringVar(&o.cacheTTL, "cache-ttl", "5m", "Anthropic cache `TTL`: 5m, or 1h (written at the 1-hour price); not given, the TTL the records write with, else 5m")
	f.StringVar(&o.plotMetric, "plot-metric", "tokens", "what --plot draws per call: "+strings.Join(plotMetrics, ", "))
}

// strategyNames lists the strategies for the flag's help.
func strategyNames() string {
	var names []string
	for _, s := range window.Strategies() {
		names = append(names, s.Name())
	}
	return strings.Join(names, ", ")
}

// cacheRules are the values of --cache; plotMetrics those of
// --plot-metric.
var (
	cacheRules  = prices.CacheRuleNames()
	cacheTTLs   = []string{"5m", "1h"}
	plotMetrics = []string{"tokens", "cost"}
)

// runReplay replays the inputs under the strategies, in steps: the flags
// checked and parsed once (newReplayJob), the default strategies chosen
// from what the sessions are when --strategy names none, then one of the
// outputs: the call --show-call names, or the report of each session
// (or with --totals their totals), written as soon as it is replayed.
func runReplay(a *app, o *replayOptions) error {
	job, err := newReplayJob(a, o)
	if err != nil {
		return err
	}
	var held []sessions.Session // sessions read before their replay, when defaults needed them
	defer a.releaseStdin()
	if job.strategies == nil {
		if held, err = job.chooseDefaults(a); err != nil {
			return err
		}
	}
	if job.showCall > 0 {
		return job.runShowCall(a, held)
	}
	return job.runSessions(a, held)
}

// defaultStrategiesParagraph is the paragraph of replay's long help that
// says what replays without --strategy, from defaultStrategiesFor,
// wrapped at 79 columns.
func defaultStrategiesParagraph() string {
	and := func(specs []string) string {
		n := len(specs)
		if n < 2 {
			return strings.Join(specs, "")
		}
		return strings.Join(specs[:n-1], ", ") + " and " + specs[n-1]
	}
	agent, _ := defaultStrategiesFor(true)
	chat, _ := defaultStrategiesFor(false)
	text := "Without --strategy, replay compares " + and(agent) + " on agent loops (a turn holds tool calls: most of their input is re-sent tool results) and " + and(chat) + " on chats; the table says which."
	var b strings.Builder
	width := 0
	for _, w := range strings.Fields(text) {
		if width > 0 && width+1+len(w) > 79 {
			b.WriteByte('\n')
			width = 0
		} else if width > 0 {
			b.WriteByte(' ')
			width++
		}
		b.WriteString(w)
		width += len(w)
	}
	return b.String()
}

// defaultStrategiesHelp names the strategies replayed when none is given,
// as defaultStrategiesFor lists them (so help cannot drift).
func defaultStrategiesHelp() string {
	agent, _ := defaultStrategiesFor(true)
	chat, _ := defaultStrategiesFor(false)
	return strings.Join(agent, ",") + " for agent sessions, " + strings.Join(chat, ",") + " for chats"
}
