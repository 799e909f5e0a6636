package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/spf13/cobra"
)

// replayOptions are the flags of harpe replay.
type replayOptions struct {
	strategies      []string
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
	budget          int
	policy          string
	format          string
	plot            string
	output          string
	inputFormat     string
	conversation    string
	totalsOnly      bool
	files           []string
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
               --budget with --policy

Tokens: full sends the provider's recorded input tokens when the transcript
has them, else the tokenizer's count; other strategies send their counted
tokens plus the same call's overhead (recorded minus full's counted tokens).

Aborted turns are dropped from the context once they end. Every strategy
follows the harness's own compactions: from one on, the retained history is the
harness's summary and what follows. The transcript is only read.
` + exitStatusHelp,
		Example: `  harpe replay session.jsonl --strategy full,windowed,summarizing
  harpe replay session.jsonl --strategy windowed --window-chars 40000 --format json
  harpe replay session.jsonl --strategy summarizing --distill-cmd 'my-summarizer'
  harpe replay session.jsonl --plot tokens.svg`,
		RunE: func(c *cobra.Command, args []string) error {
			o.files = args
			a.noteUnusedFlags(o.strategies, replayFlagUses)
			if err := checkPlotFile(o.plot); err != nil {
				return err
			}
			if err := a.applyModel(c, o.model, "context-window"); err != nil {
				return err
			}
			if err := checkFormat(o.format, "table", "json", "jsonl"); err != nil {
				return err
			}
			return runReplay(a, o)
		},
	}
	f := c.Flags()
	f.StringSliceVar(&o.strategies, "strategy", []string{"full", "windowed", "summarizing", "turn"}, "`NAMES` of the strategies to replay, comma-separated: "+strategyNames())
	f.IntVar(&o.windowChars, "window-chars", window.DefaultWindowChars, "character budget of windowed and sliding")
	f.IntVar(&o.head, "head", window.DefaultHead, "turns sliding always keeps from the start")
	f.IntVar(&o.highWaterTokens, "high-water-tokens", window.DefaultHighWaterTokens, "summarizing compacts after a call over this many input tokens")
	f.IntVar(&o.lowWaterChars, "low-water-chars", window.DefaultLowWaterChars, "characters of recent turns summarizing keeps when it compacts")
	f.IntVar(&o.summaryMaxChars, "summary-max-chars", window.DefaultSummaryMaxChars, "bound on the rolling summary")
	f.StringVar(&o.distillCmd, "distill-cmd", "", "shell `CMD` that writes the summary: older turns as JSON on stdin, summary on stdout (default: built-in extractive summary)")
	f.IntVar(&o.toolResultLimit, "tool-result-limit", 0, "cut tool results longer than `BYTES` in the model's copy (0: no limit)")
	f.StringVarP(&o.tokenizer, "tokenizer", "t", "estimate", "tokenizer: "+strings.Join(tokenize.Names(), ", "))
	f.IntVar(&o.contextWindow, "context-window", 0, "flag calls over this many `TOKENS` (0: none)")
	f.StringVarP(&o.model, "model", "m", "", "take --context-window and --tokenizer from model `NAME` (harpe models)")
	f.IntVar(&o.budget, "budget", 0, "token budget of the budget strategy")
	f.StringVar(&o.policy, "policy", "lowest_priority", "selection policy of the budget strategy")
	f.StringVarP(&o.format, "format", "f", "table", "output format: table, json, jsonl")
	f.StringVar(&o.plot, "plot", "", "also draw tokens per call for each strategy as an SVG `FILE`")
	f.StringVarP(&o.output, "output", "o", "", "write the report to `FILE` (atomically) instead of stdout")
	f.StringVar(&o.inputFormat, "input-format", "", "transcript format (default: detected): "+strings.Join(transcript.Formats(), ", "))
	f.StringVar(&o.conversation, "conversation", "", "replay only the conversation with this `ID` (ShareGPT and long-memory files hold several)")
	f.BoolVar(&o.totalsOnly, "totals", false, "table: only the totals, no row per call")
	return c
}

func strategyNames() string {
	var names []string
	for _, s := range window.Strategies() {
		names = append(names, string(s))
	}
	return strings.Join(names, ", ")
}

// replayed is one transcript's replay.
type replayed struct {
	file    string
	t       *transcript.Transcript
	results []window.Result
}

func runReplay(a *app, o *replayOptions) error {
	var strategies []window.Strategy
	for _, name := range o.strategies {
		s, err := window.ParseStrategy(strings.TrimSpace(name))
		if err != nil {
			return usageErrorf("--strategy: %v", err)
		}
		if !containsStrategy(strategies, s) {
			strategies = append(strategies, s)
		}
	}
	if len(strategies) == 0 {
		return usageErrorf("--strategy: no strategy given; valid: %s", strategyNames())
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"--window-chars", o.windowChars}, {"--head", o.head}, {"--high-water-tokens", o.highWaterTokens},
		{"--low-water-chars", o.lowWaterChars}, {"--summary-max-chars", o.summaryMaxChars},
		{"--tool-result-limit", o.toolResultLimit}, {"--context-window", o.contextWindow}, {"--budget", o.budget}} {
		if f.v < 0 {
			return usageErrorf("%s: must be a whole number ≥ 0, got %d", f.name, f.v)
		}
	}
	counter, err := tokenize.New(o.tokenizer)
	if err != nil {
		return usageErrorf("--tokenizer: %v", err)
	}
	if o.inputFormat != "" && !containsString(transcript.Formats(), o.inputFormat) {
		return usageErrorf("--input-format: unknown format %q; valid: %s", o.inputFormat, strings.Join(transcript.Formats(), ", "))
	}
	ropts := window.ReplayOptions{
		Options: window.Options{
			WindowChars:     o.windowChars,
			Head:            o.head,
			HighWaterTokens: o.highWaterTokens,
			LowWaterChars:   o.lowWaterChars,
			SummaryMaxChars: o.summaryMaxChars,
			ToolResultLimit: o.toolResultLimit,
			Counter:         counter,
		},
		ContextWindow: o.contextWindow,
		Indices:       o.format != "table",
	}
	if o.distillCmd != "" {
		ropts.Distill = a.distiller(o.distillCmd)
	}
	if containsStrategy(strategies, window.Budget) {
		sel, err := budgetSelector(o, counter)
		if err != nil {
			return err
		}
		ropts.Select = sel
	}
	if a.io.ErrIsTerminal {
		ropts.Progress = newReplayProgress(a.io.Err).report
	}

	// Input side (branch readers): files and directories read in
	// parallel, in argument order. The replays run one after another: the
	// budget selector and the progress line are shared (per-conversation
	// strategy state on branch window makes them safe to run in parallel).
	type inputFile struct {
		name string
		ts   []*transcript.Transcript
	}
	files, err := readTranscriptFiles(a, o.files, func(name string, r io.Reader) (inputFile, error) {
		ts, err := transcript.Read(r, name, o.inputFormat)
		if err != nil {
			return inputFile{}, inputError(err)
		}
		return inputFile{name, ts}, nil
	})
	var runs []replayed
	for _, f := range files {
		if err != nil {
			break
		}
		a.warnTranscripts(f.ts)
		name := f.name
		for _, t := range f.ts {
			if o.conversation != "" && t.ID != o.conversation {
				continue
			}
			res, rerr := window.Replay(a.ctx, t, strategies, ropts)
			if rerr != nil {
				var de *window.DistillError
				switch {
				case a.ctx.Err() != nil:
					err = rerr
				case errors.As(rerr, &de):
					err = usageErrorf("--distill-cmd: %s: %v", name, de.Err)
				default:
					err = inputError(fmt.Errorf("%s: %w", name, rerr))
				}
				break
			}
			runs = append(runs, replayed{file: name, t: t, results: res})
		}
	}
	if ropts.Progress != nil {
		fmt.Fprint(a.io.Err, "\r\033[K")
	}
	if err != nil {
		return err
	}
	if o.conversation != "" && len(runs) == 0 {
		return usageErrorf("--conversation: no conversation with id %q", o.conversation)
	}
	// Render everything before writing anything.
	var out bytes.Buffer
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
	}
	if o.plot != "" {
		if err := writeFileAtomic(o.plot, func(w io.Writer) error {
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

func containsStrategy(list []window.Strategy, s window.Strategy) bool {
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

// distillCommand runs the --distill-cmd shell command for each compaction:
// the request as JSON on stdin, the summary from stdout (one trailing
// newline removed).
func (a *app) distillCommand(command string) window.Distiller {
	return func(req window.DistillRequest) (string, error) {
		in, err := json.Marshal(distillJSON(req))
		if err != nil {
			return "", err
		}
		cmd := exec.CommandContext(a.ctx, "sh", "-c", command)
		cmd.Stdin = bytes.NewReader(append(in, '\n'))
		var stdout, stderr bytes.Buffer
		cmd.Stdout = &stdout
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			if msg != "" {
				return "", fmt.Errorf("%q failed: %v: %s", command, err, msg)
			}
			return "", fmt.Errorf("%q failed: %v", command, err)
		}
		s := strings.TrimSuffix(stdout.String(), "\n")
		return strings.TrimSuffix(s, "\r"), nil
	}
}

// distillInput is what --distill-cmd reads on stdin.
type distillInput struct {
	Summary  string           `json:"summary"`
	MaxChars int              `json:"max_chars"`
	Messages []distillMessage `json:"messages"`
}

type distillMessage struct {
	Index      int           `json:"index"`
	Turn       int           `json:"turn"`
	Role       string        `json:"role"`
	Content    string        `json:"content"`
	ToolCalls  []distillCall `json:"tool_calls,omitempty"`
	ToolCallID string        `json:"tool_call_id,omitempty"`
}

type distillCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

func distillJSON(req window.DistillRequest) distillInput {
	in := distillInput{Summary: req.Summary, MaxChars: req.MaxChars, Messages: make([]distillMessage, 0, len(req.Messages))}
	for _, m := range req.Messages {
		dm := distillMessage{Index: m.Index, Turn: m.Turn, Role: m.Role, Content: m.Text, ToolCallID: m.ToolCallID}
		for _, tc := range m.ToolCalls {
			dm.ToolCalls = append(dm.ToolCalls, distillCall{tc.ID, tc.Name, tc.Arguments})
		}
		in.Messages = append(in.Messages, dm)
	}
	return in
}

// JSON output, as SPEC §9 shows it.
type replayJSON struct {
	Transcript transcriptJSON   `json:"transcript"`
	Strategies []strategyResult `json:"strategies"`
}

type transcriptJSON struct {
	File     string `json:"file,omitempty"`
	ID       string `json:"conversation,omitempty"`
	Format   string `json:"format"`
	Messages int    `json:"messages"`
	Turns    int    `json:"turns"`
}

type strategyResult struct {
	Strategy string      `json:"strategy"`
	Calls    []callJSON  `json:"calls"`
	Events   []eventJSON `json:"events"`
	Totals   totalsJSON  `json:"totals"`
}

type callJSON struct {
	Strategy     string     `json:"strategy,omitempty"`
	File         string     `json:"file,omitempty"`
	Conversation string     `json:"conversation,omitempty"`
	Turn         int        `json:"turn"`
	Call         int        `json:"call"`
	Messages     []int      `json:"messages"`
	SummaryChars int        `json:"summary_chars"`
	Chars        int        `json:"chars"`
	Tokens       int        `json:"tokens"`
	FullTokens   int        `json:"full_tokens"`
	OverWindow   bool       `json:"over_window"`
	Compaction   *eventJSON `json:"compaction,omitempty"`
}

type eventJSON struct {
	Kind           string `json:"kind"`
	Turn           int    `json:"turn"`
	Call           int    `json:"call"`
	MessagesBefore int    `json:"messages_before"`
	MessagesAfter  int    `json:"messages_after"`
	SummaryChars   int    `json:"summary_chars"`
	Folded         []int  `json:"folded"`
}

type totalsJSON struct {
	Calls           int     `json:"calls"`
	TokensSent      int     `json:"tokens_sent"`
	TokensFull      int     `json:"tokens_full"`
	SavedRatio      float64 `json:"saved_ratio"`
	MaxCallTokens   int     `json:"max_call_tokens"`
	Compactions     int     `json:"compactions"`
	OverWindowCalls int     `json:"over_window_calls"`
}

func toEventJSON(e window.Event) eventJSON {
	return eventJSON{Kind: e.Kind, Turn: e.Turn, Call: e.Call, MessagesBefore: e.MessagesBefore,
		MessagesAfter: e.MessagesAfter, SummaryChars: e.SummaryChars, Folded: e.Folded}
}

func toCallJSON(c window.Call) callJSON {
	msgs := c.Messages
	if msgs == nil {
		msgs = []int{}
	}
	return callJSON{Turn: c.Turn, Call: c.Call, Messages: msgs, SummaryChars: c.SummaryChars,
		Chars: c.Chars, Tokens: c.Tokens, FullTokens: c.FullTokens, OverWindow: c.OverWindow}
}

func toResultJSON(r window.Result) strategyResult {
	out := strategyResult{Strategy: string(r.Strategy), Calls: make([]callJSON, 0, len(r.Calls)), Events: make([]eventJSON, 0, len(r.Events))}
	for _, c := range r.Calls {
		out.Calls = append(out.Calls, toCallJSON(c))
	}
	for _, e := range r.Events {
		out.Events = append(out.Events, toEventJSON(e))
	}
	t := r.Totals
	out.Totals = totalsJSON{t.Calls, t.TokensSent, t.TokensFull, t.SavedRatio, t.MaxCallTokens, t.Compactions, t.OverWindowCalls}
	return out
}

func writeReplay(w io.Writer, o *replayOptions, run replayed, several bool) error {
	tj := transcriptJSON{Format: run.t.Format, Messages: len(run.t.Messages), Turns: run.t.Turns, ID: run.t.ID}
	if several {
		tj.File = run.file
	}
	switch o.format {
	case "json":
		doc := replayJSON{Transcript: tj, Strategies: make([]strategyResult, 0, len(run.results))}
		for _, r := range run.results {
			doc.Strategies = append(doc.Strategies, toResultJSON(r))
		}
		return writeJSON(w, doc)
	case "jsonl":
		for _, r := range run.results {
			ev := 0
			for _, c := range r.Calls {
				cj := toCallJSON(c)
				cj.Strategy = string(r.Strategy)
				if several {
					cj.File, cj.Conversation = run.file, run.t.ID
				}
				if ev < len(r.Events) && r.Events[ev].Call == c.Call {
					e := toEventJSON(r.Events[ev])
					cj.Compaction = &e
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
func writeReplayTable(w io.Writer, o *replayOptions, tj transcriptJSON, results []window.Result) error {
	title := fmt.Sprintf("%s transcript: %s, %s", tj.Format, plural(tj.Messages, "message"), plural(tj.Turns, "turn"))
	if tj.ID != "" {
		title = "conversation " + escapeControl(tj.ID) + ": " + title
	}
	if tj.File != "" {
		title = escapeControl(tj.File) + ": " + title
	}
	fmt.Fprintln(w, title)
	if len(results) == 0 || len(results[0].Calls) == 0 {
		fmt.Fprintln(w, "no model calls")
	}
	if !o.totalsOnly && len(results) > 0 && len(results[0].Calls) > 0 {
		var header []string
		var rows [][]string
		if len(results) == 1 {
			r := results[0]
			header = []string{"turn", "call", "messages", "chars", "tokens", "full", "note"}
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
				rows = append(rows, []string{strconv.Itoa(c.Turn), strconv.Itoa(c.Call),
					fmt.Sprintf("%d/%d", c.MessageCount, c.FullMessages), strconv.Itoa(c.Chars),
					strconv.Itoa(c.Tokens), strconv.Itoa(c.FullTokens), note})
			}
		} else {
			// Tokens per call, one column per strategy (and full's, when
			// full is not one of them).
			withFull := !containsStrategy(strategiesOf(results), window.Full)
			header = []string{"turn", "call"}
			if withFull {
				header = append(header, "full")
			}
			for _, r := range results {
				header = append(header, shortName(r.Strategy))
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
		fmt.Fprintln(w, "C: compacted before this call, !: over the context window")
		for _, r := range results {
			for _, e := range r.Events {
				fmt.Fprintf(w, "%s compacted before call %d (turn %d): %d → %s, summary %s, folded messages %s\n",
					r.Strategy, e.Call, e.Turn, e.MessagesBefore, plural(e.MessagesAfter, "message"), plural(e.SummaryChars, "char"), ranges(e.Folded))
			}
		}
	}
	// Six columns, headers of at most 8 characters: the table helper
	// shares the 80 columns out and cuts longer headers. Every strategy
	// makes the same calls, so their number is in the last line.
	header := []string{"strategy", "sent", "saved", "max call", "compact.", "over win"}
	var rows [][]string
	for _, r := range results {
		t := r.Totals
		rows = append(rows, []string{string(r.Strategy), strconv.Itoa(t.TokensSent),
			strconv.FormatFloat(t.SavedRatio*100, 'f', 1, 64) + "%", strconv.Itoa(t.MaxCallTokens),
			strconv.Itoa(t.Compactions), strconv.Itoa(t.OverWindowCalls)})
	}
	var full, calls int
	if len(results) > 0 {
		full, calls = results[0].Totals.TokensFull, results[0].Totals.Calls
	}
	if err := renderTable(w, header, rows, nil); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%s; full context would send %s in all\n", plural(calls, "call"), plural(full, "token"))
	return err
}

// budgetSelector builds the budget strategy's selection: the engine under
// --budget with --policy.
func budgetSelector(o *replayOptions, counter tokenize.Counter) (window.Selector, error) {
	if o.budget <= 0 {
		return nil, usageErrorf("--budget: the budget strategy needs a budget of at least 1 token")
	}
	if _, err := engine.LookupPolicy(o.policy); err != nil {
		return nil, usageErrorf("--policy: %v", err)
	}
	return window.EngineSelector(engine.Budget{Total: o.budget}, engine.Options{Policy: o.policy, Counter: counter}), nil
}

func strategiesOf(results []window.Result) []window.Strategy {
	out := make([]window.Strategy, len(results))
	for i, r := range results {
		out[i] = r.Strategy
	}
	return out
}

// shortName is a strategy's name as a column header (at most 8
// characters).
func shortName(s window.Strategy) string {
	if s == window.Summarizing {
		return "summ."
	}
	return string(s)
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
