package report

import "github.com/harpe-dev/harpe/pkg/window"

// ReplayPlotKeeper keeps, as a replay hands its calls to
// [window.ReplayOptions.OnCall], what [WriteReplayPlot] draws of them:
// each strategy's tokens and cost per call, its events (the compactions
// marked on its line) and its totals. A replay streamed call by call (a
// [ReplayJSONWriter], say) can so be plotted afterwards without holding
// its calls' messages and parts.
type ReplayPlotKeeper struct {
	results []window.Result
	open    bool // the last result's calls are being kept; its totals are not in yet
}

// Hook sets opts.OnCall and opts.OnResult to keep each call and result
// as the replay makes it, before calling the hooks opts held (when set).
func (k *ReplayPlotKeeper) Hook(opts *window.ReplayOptions) {
	onCall, onResult := opts.OnCall, opts.OnResult
	opts.OnCall = func(name string, c *window.Call, ev *window.Event) error {
		if !k.open {
			k.results = append(k.results, window.Result{Strategy: name})
			k.open = true
		}
		pc := window.Call{Tokens: c.Tokens, Call: c.Call}
		if c.CallCost != nil {
			pc.CallCost = &window.CallCost{CostUSD: c.CostUSD}
		}
		last := &k.results[len(k.results)-1]
		last.Calls = append(last.Calls, pc)
		if onCall != nil {
			return onCall(name, c, ev)
		}
		return nil
	}
	opts.OnResult = func(r *window.Result) error {
		if !k.open {
			k.results = append(k.results, window.Result{Strategy: r.Strategy}) // a strategy without calls
		}
		k.open = false
		last := &k.results[len(k.results)-1]
		last.Totals = r.Totals
		for _, e := range r.Events {
			last.Events = append(last.Events, window.Event{Kind: e.Kind, Turn: e.Turn, Call: e.Call})
		}
		if onResult != nil {
			return onResult(r)
		}
		return nil
	}
}

// Results are the strategies kept so far, in the replay's order: what
// [Replay.Strategies] holds for [WriteReplayPlot].
func (k *ReplayPlotKeeper) Results() []window.Result { return k.results }
