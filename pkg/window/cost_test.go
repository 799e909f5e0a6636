package window_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/internal/transcriptgen"
	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

var agentSamples = []string{
	"claude/projects/-src-shop/7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17.jsonl",
	"claude/projects/-src-shop/7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17/subagents/agent-a3f9c2e1.jsonl",
	"codex/sessions/2026/11/24/rollout-2026-11-24T14-02-09-019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73.jsonl",
}

func readAgentSample(t testing.TB, rel string) *transcript.Transcript {
	t.Helper()
	f, err := os.Open(filepath.Join("../../testdata/agent", rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, rel, "")
	if err != nil {
		t.Fatal(err)
	}
	return ts[0]
}

// TestReplayCostAgainstRecorded replays the agent-loop samples of
// testdata/agent (written by scripts/gen-agent-sessions, which applies the
// providers' cache rules on its own) under full with costs on, and checks
// the reality check: the modelled cache read agrees with the recorded one
// (cost.Agrees) on at least 95% of the calls, every call shows its
// record, and full's modelled cost is within 3% of what the recorded
// usage costs at the same prices (cost.Recorded).
func TestReplayCostAgainstRecorded(t *testing.T) {
	for _, rel := range agentSamples {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			tr := readAgentSample(t, rel)
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, window.Name("windowed")},
				window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			full := res[0]
			a := full.Totals.Agreement
			if a == nil {
				t.Fatal("no agreement in full's totals")
			}
			t.Logf("%d calls, %d agree (%.1f%%); modelled $%.6f", a.Calls, a.Agree, 100*a.Share, full.Totals.CostUSD)
			if a.Calls != len(full.Calls) || float64(a.Agree) < 0.95*float64(a.Calls) {
				t.Errorf("%d of %d calls agree, want ≥ 95%% of %d", a.Agree, a.Calls, len(full.Calls))
			}
			for _, c := range full.Calls {
				if c.RecordedUsage == nil {
					t.Fatalf("call %d: no recorded usage", c.Call)
				}
				if got := c.Cache.Read + c.Cache.Write + c.Cache.Uncached; got != c.Tokens {
					t.Errorf("call %d: cache parts sum to %d, the call sends %d", c.Call, got, c.Tokens)
				}
			}
			if res[1].Totals.Agreement != nil || res[1].Calls[0].RecordedUsage != nil {
				t.Error("windowed shows the record, which belongs to full")
			}
			_, rec, err := cost.Recorded(tr, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := math.Abs(full.Totals.CostUSD-rec.CostUSD) / rec.CostUSD; d > 0.03 {
				t.Errorf("full's modelled cost $%.6f, recorded $%.6f: %.1f%% apart", full.Totals.CostUSD, rec.CostUSD, 100*d)
			} else {
				t.Logf("recorded $%.6f (%.2f%% apart)", rec.CostUSD, 100*d)
			}
			if full.Totals.SavedUSD != 0 || full.Totals.FullCostUSD != full.Totals.CostUSD {
				t.Errorf("full saves $%v against itself", full.Totals.SavedUSD)
			}
		})
	}
}

// BenchmarkReplayCost is BenchmarkReplayAgent with every call priced
// (anthropic, the model named by --model): linear in the calls, as the
// replay itself.
func BenchmarkReplayCost(b *testing.B) {
	specs := []string{"full", "windowed", "windowed+clear", "mask", "summarizing+mask", "budget"}
	for _, n := range []int{1000, 10000} {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: 1, AgentCalls: n, Usage: true, Overhead: 5000, MaxToolChars: 10000})
		o := window.DefaultOptions()
		o.Budget = engine.Budget{Total: 100000}
		o.WindowChars = 400000
		for _, spec := range specs {
			s, err := window.Parse(spec, o)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%s/calls=%d", spec, n), func(b *testing.B) {
				for b.Loop() {
					if _, err := window.Replay(context.Background(), tr, []window.Strategy{s},
						window.ReplayOptions{Options: o, Cost: &window.CostOptions{Model: "claude-sonnet-4-5"}}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/call")
			})
		}
	}
}
