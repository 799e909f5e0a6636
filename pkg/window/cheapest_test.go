package window_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// genPriced is a generated agent loop naming model, calls gap apart,
// with a pause past the 5-minute TTL every pauseEvery calls.
func genPriced(seed uint64, calls int, model string, gap time.Duration, pauseEvery int) *transcript.Transcript {
	return window.PricedSession(seed, calls, model, gap, pauseEvery, false)
}

type namedSession struct {
	name string
	tr   *transcript.Transcript
}

func cheapestSessions(t testing.TB) []namedSession {
	var out []namedSession
	for _, rel := range agentSamples {
		out = append(out, namedSession{rel, readAgentSample(t, rel)})
	}
	// Sessions whose records show the provider missing its cache: every
	// strategy, cheapest included, is priced against that evidence.
	for _, rel := range []string{"replay/miss.jsonl", "transcripts/claude-code/long.jsonl"} {
		out = append(out, namedSession{rel, readTestdata(t, rel)})
	}
	out = append(out,
		namedSession{"gen sonnet", genPriced(11, 120, "claude-sonnet-4-5", 10*time.Second, 0)},
		namedSession{"gen opus pauses", genPriced(12, 120, "claude-opus-4-5", 20*time.Second, 30)},
		namedSession{"gen gpt-5", genPriced(13, 120, "gpt-5", 30*time.Second, 0)},
	)
	return out
}

// On every agent-loop sample and on generated sessions, cheapest costs no
// more than any strategy whose schedules lie in its space (full, clear
// over a grid of settings, mask, and with a limit edit, limit) under the
// same window limit and cache; every window it sends passes Check; and
// with a limit, it keeps every call within it whenever that call can be
// (each call is within it with all it may clear cleared).
func TestCheapestBeatsItsSpace(t *testing.T) {
	for _, ns := range cheapestSessions(t) {
		for _, limit := range []int{0, 60000} {
			o := window.DefaultOptions()
			var specs []string
			specs = append(specs, "cheapest", "full", "mask", "mask:keep=3", "mask:keep=20")
			for _, trig := range []int{0, 50000, 100000} {
				for _, keep := range []int{1, 4} {
					for _, al := range []int{0, 10000} {
						specs = append(specs, fmt.Sprintf("clear:trigger=%d:keep=%d:at-least=%d", trig, keep, al))
					}
				}
			}
			specs = append(specs, "clear:auto", "cheapest+limit:bytes=2000", "limit:bytes=2000", "limit:bytes=2000+clear:keep=1")
			var ss []window.Strategy
			for _, sp := range specs {
				s, err := window.Parse(sp, o)
				if err != nil {
					t.Fatal(err)
				}
				ss = append(ss, s)
			}
			res, err := window.Replay(context.Background(), ns.tr, ss, window.ReplayOptions{Options: o, Indices: true, ContextWindow: limit, Cost: &window.CostOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			cheap, cheapLimit := res[0], res[len(specs)-3]
			auto, full := res[len(specs)-4], res[1]
			if auto.Totals.CostUSD > 1.01*full.Totals.CostUSD {
				t.Errorf("%s limit %d: clear:auto costs $%.6f, over 1.01 × full's $%.6f", ns.name, limit, auto.Totals.CostUSD, full.Totals.CostUSD)
			}
			t.Logf("%s limit %d: full $%.4f, cheapest $%.4f, clear:auto $%.4f (%.1f%% over cheapest)", ns.name, limit, full.Totals.CostUSD, cheap.Totals.CostUSD, auto.Totals.CostUSD, 100*(auto.Totals.CostUSD/cheap.Totals.CostUSD-1))
			rep := callReplies(ns.tr)
			for _, r := range []window.Result{cheap, cheapLimit, auto} {
				for k, c := range r.Calls {
					if err := window.Check(ns.tr, rep[k], c.Messages, nil); err != nil {
						t.Fatalf("%s %s call %d: %v", ns.name, r.Strategy, c.Call, err)
					}
				}
			}
			for _, r := range res[1:] {
				ref := cheap
				if r.Strategy == "limit:bytes=2000" || r.Strategy == "limit:bytes=2000+clear:keep=1" {
					ref = cheapLimit
				}
				if r.Strategy == ref.Strategy || r.Strategy == cheapLimit.Strategy || r.Strategy == auto.Strategy {
					continue // a limit edit cuts results before any call: outside cheapest's space
				}
				if ref.Totals.CostUSD > r.Totals.CostUSD+1e-9 {
					t.Errorf("%s limit %d: %s costs $%.6f, more than %s's $%.6f", ns.name, limit, ref.Strategy, ref.Totals.CostUSD, r.Strategy, r.Totals.CostUSD)
				}
				if limit > 0 && ref.Totals.OverWindowCalls > r.Totals.OverWindowCalls {
					t.Errorf("%s limit %d: %s has %d calls over the limit, %s %d", ns.name, limit, ref.Strategy, ref.Totals.OverWindowCalls, r.Strategy, r.Totals.OverWindowCalls)
				}
			}
		}
	}
}

// readTestdata reads the one transcript of a file under testdata/.
func readTestdata(t testing.TB, rel string) *transcript.Transcript {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, filepath.Base(rel), "")
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// callReplies returns the reply that follows each call: an assistant
// message, those sharing a Call being one.
func callReplies(tr *transcript.Transcript) []int {
	var out []int
	prev := ""
	for i, m := range tr.Messages {
		if m.Role == transcript.RoleAssistant && !m.Meta {
			if m.Call == "" || m.Call != prev {
				out = append(out, i)
			}
			prev = m.Call
		}
	}
	return out
}

// clear:auto never costs more than 1.01 × full, on generated sessions of
// every kind: calls seconds apart or past the TTL, Anthropic and OpenAI
// rules, short and long, tool results small and large.
func TestAutoClearBound(t *testing.T) {
	o := window.DefaultOptions()
	auto, _ := window.Parse("clear:auto", o)
	for seed := uint64(1); seed <= 32; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5", "claude-opus-4-5", "claude-haiku-4-5"}[seed%4]
		gap := []time.Duration{2 * time.Second, 30 * time.Second, 4 * time.Minute, 7 * time.Minute}[seed/4%4]
		calls := []int{8, 30, 200}[seed%3]
		tr := genPriced(seed, calls, model, gap, int(seed%5)*7)
		res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, auto}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
		if err != nil {
			t.Fatal(err)
		}
		if f, a := res[0].Totals.CostUSD, res[1].Totals.CostUSD; a > 1.01*f {
			t.Errorf("seed %d %s %d calls %v apart: clear:auto $%.6f, full $%.6f", seed, model, calls, gap, a, f)
		}
	}
}

// BenchmarkCheapest plans generated agent loops of 250 to 2,000 calls
// (sonnet, calls 10 s apart): the probe replay, the dynamic programme
// (O(calls × candidates)) and the exact replays that check the plan.
func BenchmarkCheapest(b *testing.B) {
	o := window.DefaultOptions()
	s, _ := window.Parse("cheapest", o)
	for _, n := range []int{250, 500, 1000, 2000} {
		tr := genPriced(2, n, "claude-sonnet-4-5", 10*time.Second, 0)
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := window.Replay(context.Background(), tr, []window.Strategy{s}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCheapestWindow plans the same loops under a window of half
// their largest call: the drops (the programme over turn starts, then
// the clears on each schedule, each priced by an exact replay).
func BenchmarkCheapestWindow(b *testing.B) {
	o := window.DefaultOptions()
	s, _ := window.Parse("cheapest", o)
	for _, n := range []int{250, 1000} {
		tr := genPriced(2, n, "claude-sonnet-4-5", 10*time.Second, 0)
		full, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
		if err != nil {
			b.Fatal(err)
		}
		opts := window.ReplayOptions{Options: o, Cost: &window.CostOptions{}, ContextWindow: full[0].Totals.MaxCallTokens / 2}
		b.Run(fmt.Sprintf("calls=%d", n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := window.Replay(context.Background(), tr, []window.Strategy{s}, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
