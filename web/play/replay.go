package play

// The replay binding, kept in this one file: pkg/window's API is the part
// of the playground most likely to change.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
	"github.com/harpe-dev/harpe/report"
)

// ReplayArgs are the arguments of "replay", the playground's `harpe replay`.
type ReplayArgs struct {
	// Transcript is the dropped file's text, in any format harpe reads.
	Transcript string `json:"transcript"`
	// Name names it in messages ("transcript" when empty).
	Name string `json:"name"`
	// Format is one of transcript.Formats(), or "" to detect it.
	Format string `json:"format"`
	// Strategies are strategy specs as `harpe replay --strategy` takes them;
	// they default to full, windowed, summarizing, turn, clear and mask.
	Strategies []string `json:"strategies"`
	Tokenizer  string   `json:"tokenizer"`
	// WindowChars is the character budget of windowed and sliding (0: the
	// default, 160000, as window.Settings lists it).
	WindowChars int `json:"window_chars"`
	// ContextWindow flags calls over this many tokens (0: none).
	ContextWindow int `json:"context_window"`
	// Budget and Policy drive the budget strategy.
	Budget int    `json:"budget"`
	Policy string `json:"policy"`
	// Conversation picks one conversation of a file that has several
	// (ShareGPT); "" takes the first.
	Conversation string `json:"conversation"`
	// Report asks for the whole report too, as `harpe replay --format
	// json` writes it (ReplayResult.Report).
	Report bool `json:"report"`
}

// ReplayResult is the answer of "replay".
type ReplayResult struct {
	Format   string `json:"format"`
	ID       string `json:"id,omitempty"`
	Messages int    `json:"messages"`
	Turns    int    `json:"turns"`
	// Conversations is how many the file holds.
	Conversations int              `json:"conversations"`
	Strategies    []StrategyResult `json:"strategies"`
	// Plot is the tokens-per-call chart as an SVG document.
	Plot string `json:"plot"`
	// Report is the report.Replay, with ReplayArgs.Report.
	Report json.RawMessage `json:"report,omitempty"`
}

// StrategyResult is one strategy's totals and tokens per call.
type StrategyResult struct {
	Strategy        string  `json:"strategy"`
	Calls           int     `json:"calls"`
	TokensSent      int     `json:"tokens_sent"`
	TokensFull      int     `json:"tokens_full"`
	SavedRatio      float64 `json:"saved_ratio"`
	MaxCallTokens   int     `json:"max_call_tokens"`
	Compactions     int     `json:"compactions"`
	OverWindowCalls int     `json:"over_window_calls"`
	// Tokens are the input tokens of each call, in order.
	Tokens []int `json:"tokens"`
}

func replay(raw []byte) (any, error) {
	var a ReplayArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return Replay(a)
}

// Replay replays the transcript under each strategy, as `harpe replay`
// does with its default settings.
func Replay(a ReplayArgs) (*ReplayResult, error) {
	if a.Name == "" {
		a.Name = "transcript"
	}
	names := a.Strategies
	if len(names) == 0 {
		names = []string{"full", "windowed", "summarizing", "turn", "clear", "mask"}
	}
	if a.Format != "" && !contains(transcript.FormatNames(), a.Format) {
		return nil, fmt.Errorf("format: unknown format %q; valid: %s", a.Format, transcript.FormatList())
	}
	c, err := counter(a.Tokenizer)
	if err != nil {
		return nil, err
	}
	if a.Policy == "" {
		a.Policy = engine.DefaultPolicy
	}
	opts := window.ReplayOptions{Options: window.DefaultOptions(), ContextWindow: a.ContextWindow, Indices: a.Report}
	opts.Counter = c
	opts.Budget = engine.Budget{Total: a.Budget}
	opts.Engine = engine.Options{Policy: a.Policy, Counter: c}
	if a.WindowChars != 0 {
		opts.Windowed.Chars, opts.Sliding.Chars = new(a.WindowChars), new(a.WindowChars)
	}
	// Each name is a strategy spec, as `harpe replay --strategy` takes it
	// ("windowed+clear", "summarizing+mask:keep=5"), parsed and checked
	// as there.
	strategies, err := window.ParseAll(names, opts)
	if err != nil {
		return nil, argError(err)
	}
	ts, err := transcript.Read(strings.NewReader(a.Transcript), a.Name, transcript.Format(a.Format))
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("%s: no conversation", a.Name)
	}
	t := ts[0]
	if a.Conversation != "" {
		if t, err = transcript.Select(ts, a.Conversation); err != nil {
			return nil, fmt.Errorf("conversation: %v", err)
		}
	}
	results, err := window.Replay(context.Background(), t, strategies, opts)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", a.Name, err)
	}
	out := &ReplayResult{Format: string(t.Format), ID: t.ID, Messages: len(t.Messages), Turns: t.Turns, Conversations: len(ts)}
	for _, r := range results {
		tt := r.Totals
		sr := StrategyResult{Strategy: r.Strategy, Calls: tt.Calls, TokensSent: tt.TokensSent, TokensFull: tt.TokensFull,
			SavedRatio: tt.SavedRatio, MaxCallTokens: tt.MaxCallTokens, Compactions: tt.Compactions, OverWindowCalls: tt.OverWindowCalls,
			Tokens: make([]int, len(r.Calls))}
		for i, call := range r.Calls {
			sr.Tokens[i] = call.Tokens
		}
		out.Strategies = append(out.Strategies, sr)
	}
	// The plot is harpe replay --plot's, the file named by its name.
	info := window.TranscriptInfo{Format: string(t.Format), Messages: len(t.Messages), Turns: t.Turns, ID: t.ID}
	drawn := report.Replay{Transcript: info, Strategies: results}
	drawn.Transcript.File = a.Name
	var svg bytes.Buffer
	if err := report.WriteReplayPlot(&svg, &drawn, report.ReplayPlotOptions{ContextWindow: a.ContextWindow,
		HighWater: *opts.Summarizing.HighWaterTokens, Budget: a.Budget}); err != nil {
		return nil, err
	}
	out.Plot = svg.String()
	if a.Report {
		var b bytes.Buffer
		if err := report.NewReplayJSONWriter(&b).WriteReport(&report.Replay{Transcript: info, Strategies: results}); err != nil {
			return nil, err
		}
		out.Report = b.Bytes()
	}
	return out, nil
}

// argFields are the arguments of the settings window.ParseAll names.
var argFields = map[string]string{
	"Windowed.Chars": "window_chars", "Sliding.Chars": "window_chars", "ContextWindow": "context_window", "Budget": "budget",
	"Engine.Policy": "policy", "Strategy": "strategies",
}

// argError names the argument of the setting a window.SettingError
// names.
func argError(err error) error {
	var se *window.SettingError
	if errors.As(err, &se) {
		if field, ok := argFields[se.Setting]; ok {
			return fmt.Errorf("%s: %v", field, se.Err)
		}
	}
	return fmt.Errorf("strategies: %v", err)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
