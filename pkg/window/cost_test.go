package window_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
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
// record, full's recorded cost is what cost.Recorded gives, and full's
// modelled cost is within 2% of it.
func TestReplayCostAgainstRecorded(t *testing.T) {
	for _, rel := range agentSamples {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			tr := readAgentSample(t, rel)
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, window.Windowed},
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
			if r := full.Totals.RecordedCostUSD; r == nil || math.Abs(*r-rec.CostUSD) > 1e-6 {
				t.Errorf("full's recorded cost %v, cost.Recorded $%.6f", r, rec.CostUSD)
			}
			if d := math.Abs(float64(full.Totals.CostUSD)-rec.CostUSD) / rec.CostUSD; d > 0.02 {
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
		o.Windowed.Chars, o.Sliding.Chars = new(400000), new(400000)
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

// TestReplayCostMissSample replays testdata/replay/miss.jsonl (written by
// scripts/gen-miss-session -seed 21: 61 calls on claude-sonnet-4-5 whose
// provider misses the cache: routing misses that read 0 seconds after a
// write, reads that fall back to the 12,000-token front, and a 7-minute
// pause) and checks the evidence rule against figures taken from the
// records alone:
//   - the bill: each record priced at sonnet's list prices ($3 input,
//     $0.30 read, $3.75 write, $15 output per million), summed here;
//   - the pure model agrees where the record reads what the rule predicts
//     without misses: the previous call's whole prompt, or nothing at the
//     first call and after a pause over 5 minutes;
//   - every other call is one where the record reads less (a miss), so
//     it is an evicted call, for full and for every strategy that would
//     read more there.
func TestReplayCostMissSample(t *testing.T) {
	f, err := os.Open("../../testdata/replay/miss.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "miss.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	bill, calls, agree := 0.0, 0, 0
	misses := map[int]bool{}
	prev, prevAt := 0, tr.Messages[0].Timestamp
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.Usage == nil {
			continue
		}
		u := m.Usage
		calls++
		bill += (3*float64(u.Input) + 0.30*float64(u.CacheRead) + 3.75*float64(u.CacheWrite) + 15*float64(u.Output)) / 1e6
		want := prev
		if calls == 1 || m.Timestamp.Sub(prevAt) > 5*time.Minute {
			want = 0
		}
		if u.CacheRead == want {
			agree++
		} else {
			misses[calls] = true
		}
		prev, prevAt = *m.InputTokens, m.Timestamp
	}
	if calls != 61 || len(misses) == 0 {
		t.Fatalf("the sample has %d calls and %d misses; regenerate it with scripts/gen-miss-session -seed 21", calls, len(misses))
	}
	o := window.DefaultOptions()
	o.Clear.Trigger = new(40000)
	res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, window.Name("clear")},
		window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	full := res[0].Totals
	if full.RecordedCostUSD == nil || math.Abs(*full.RecordedCostUSD-bill) > 1e-6 {
		t.Errorf("recorded cost %v, the records price at $%.6f", full.RecordedCostUSD, bill)
	}
	if d := math.Abs(float64(full.CostUSD)-bill) / bill; d > 0.02 {
		t.Errorf("full's modelled cost $%.6f, the bill $%.6f: %.2f%% apart", full.CostUSD, bill, 100*d)
	}
	if a := full.Agreement; a == nil || a.Calls != calls || a.Agree != agree {
		t.Errorf("agreement %+v, want %d of %d", a, agree, calls)
	}
	if full.EvictedCalls != len(misses) {
		t.Errorf("full: %d evicted calls, want the %d misses", full.EvictedCalls, len(misses))
	}
	for _, c := range res[0].Calls {
		if c.Evicted != misses[c.Call] {
			t.Errorf("full call %d: evicted %v, a miss %v", c.Call, c.Evicted, misses[c.Call])
		}
	}
	for _, c := range res[1].Calls {
		if c.Evicted && !misses[c.Call] {
			t.Errorf("clear call %d evicted where full's record shows no miss", c.Call)
		}
	}
	t.Logf("%d calls, %d misses; bill $%.6f, full $%.6f, clear $%.6f (%.1f%% saved)", calls, len(misses), bill,
		full.CostUSD, res[1].Totals.CostUSD, 100*res[1].Totals.SavedCostRatio)
}

// TestFullIsTheBill replays full on every sample in testdata whose calls
// record their usage and checks its modelled cost against the records'
// bill: equal to the nano-dollar on each (the figures are logged; the
// bound was 2% while a record's uncached tail was written to the cache,
// see docs/cost.md, "The uncached tail"). On
// testdata/transcripts/claude-code/long.jsonl the bill is worked out
// here from the records alone, at claude-sonnet-4-5's list prices ($3
// input, $0.30 read, $3.75 write, $15 output per million): that sample's
// records split each prompt their own way (reads that fall behind the
// previous prompt by up to 2%, reads longer than anything the model
// thinks was cached, prompts under the 1,024-token minimum written and
// read), so full meets the bill only when the record is taken to the
// token and both ways.
func TestFullIsTheBill(t *testing.T) {
	var files []string
	for _, dir := range []string{"../../testdata/agent", "../../testdata/transcripts", "../../testdata/replay"} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	checked := 0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := transcript.Read(f, filepath.Base(p), "")
		f.Close()
		if err != nil {
			continue // not a transcript this reader takes whole (settings, a bad sample on purpose)
		}
		for _, tr := range ts {
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full}, window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			tot := res[0].Totals
			if tot.CostTotals == nil || tot.RecordedCostUSD == nil || *tot.RecordedCostUSD == 0 {
				continue
			}
			checked++
			bill := *tot.RecordedCostUSD
			d := (float64(tot.CostUSD) - bill) / bill
			t.Logf("%s: full $%.9f, the records bill $%.9f (%+.6f%%)", p, tot.CostUSD, bill, 100*d)
			if math.Abs(float64(tot.CostUSD)-bill) > 1e-9 {
				t.Errorf("%s: full $%.9f, the bill $%.9f: %.6f%% apart", p, tot.CostUSD, bill, 100*d)
			}
			if strings.HasSuffix(p, "claude-code/long.jsonl") {
				want := 0.0
				for _, m := range tr.Messages {
					if u := m.Usage; u != nil {
						want += (3*float64(u.Input) + 0.30*float64(u.CacheRead) + 3.75*float64(u.CacheWrite) + 15*float64(u.Output)) / 1e6
					}
				}
				if math.Abs(bill-want) > 1e-6 {
					t.Errorf("long.jsonl: recorded cost $%.6f, the records price at $%.6f", bill, want)
				}
				if math.Abs(float64(tot.CostUSD)-want)/want > 0.001 {
					t.Errorf("long.jsonl: full $%.6f, the records $%.6f: over 0.1%% apart", tot.CostUSD, want)
				}
			}
		}
	}
	if checked < 10 {
		t.Errorf("%d samples with a bill, want every sample with usage (at least 10)", checked)
	}
}

// TestReplayCostTail replays testdata/replay/tail.jsonl, three calls of
// claude-sonnet-4-5 whose call 2 sends 2,326 tokens after its last cache
// breakpoint (the shape of a real subagent file, worked in
// testdata/script/replay_cost_tail.txtar): full takes each record's
// uncached input as uncached and bills exactly the records, call by
// call, with no eviction (the bill, by hand from the records: 51009 +
// 25203 + 20281.5 µ$; $0.0982425 with one eviction while the tails were
// written).
func TestReplayCostTail(t *testing.T) {
	f, err := os.Open("../../testdata/replay/tail.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "tail.jsonl", "")
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d transcripts, %v", len(ts), err)
	}
	res, err := window.Replay(context.Background(), ts[0], []window.Strategy{window.Full}, window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		parts cost.Parts
		usd   float64
	}{
		{cost.Parts{Write: 12000, Uncached: 3}, 0.051009},
		{cost.Parts{Read: 12000, Write: 1500, Uncached: 2326}, 0.025203},
		{cost.Parts{Read: 13500, Write: 3126, Uncached: 3}, 0.0202815},
	}
	calls := res[0].Calls
	if len(calls) != len(want) {
		t.Fatalf("%d calls, want %d", len(calls), len(want))
	}
	for i, c := range calls {
		if c.CallCost == nil || c.Cache != want[i].parts || math.Abs(float64(c.CostUSD)-want[i].usd) > 1e-12 || c.Evicted {
			t.Errorf("call %d: %+v, want %+v $%.7f", i+1, c.CallCost, want[i].parts, want[i].usd)
		}
	}
	tot := res[0].Totals
	if tot.CostUSD != 0.0964935 || tot.RecordedCostUSD == nil || *tot.RecordedCostUSD != 0.0964935 || tot.EvictedCalls != 0 {
		t.Errorf("full $%v, the bill %v, %d evicted; want $0.0964935 both, none evicted", tot.CostUSD, tot.RecordedCostUSD, tot.EvictedCalls)
	}
}

// TestReplayCostTailPastTheMessages: a record's tail may be longer than
// the newest messages' own tokens (a 1-token prompt with 3 uncached
// tokens after the breakpoint, on a real Opus session). A strategy that
// sends full's window whole keeps the whole tail uncached, as full does.
// tail.jsonl with call 1 recording 30 uncached and 11,973 written (the
// prompt still 12,003; its one message counts 14 tokens): mask:keep=1
// sends call 1 as full does, so both write 11,973 and send 30 uncached:
// 11973×3.75 + 30×3 + 400×15 = 44898.75 + 90 + 6000 = 50988.75 µ$.
func TestReplayCostTailPastTheMessages(t *testing.T) {
	b, err := os.ReadFile("../../testdata/replay/tail.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	old := `"input_tokens":3,"cache_creation_input_tokens":12000,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":12000`
	if !strings.Contains(string(b), old) {
		t.Fatal("tail.jsonl: call 1's record not found")
	}
	s := strings.Replace(string(b), old, `"input_tokens":30,"cache_creation_input_tokens":11973,"cache_read_input_tokens":0,"cache_creation":{"ephemeral_5m_input_tokens":11973`, 1)
	ts, err := transcript.Read(strings.NewReader(s), "tail.jsonl", "")
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d transcripts, %v", len(ts), err)
	}
	mask, err := window.Parse("mask:keep=1", window.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	res, err := window.Replay(context.Background(), ts[0], []window.Strategy{window.Full, mask}, window.ReplayOptions{Options: window.DefaultOptions(), Cost: &window.CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	want := cost.Parts{Write: 11973, Uncached: 30}
	for _, r := range res {
		c := r.Calls[0]
		if c.CallCost == nil || c.Cache != want || math.Abs(float64(c.CostUSD)-0.05098875) > 1e-12 {
			t.Errorf("%s call 1: %+v, want %+v $0.05098875", r.Strategy, c.CallCost, want)
		}
	}
}

// TestReplayCostCountedOverRecorded: a Codex rollout whose first prompt
// the counter sizes at 5,142 tokens where the provider billed 2,000
// (testdata/transcripts/codex/quirks-counted.jsonl, scripts/gen-quirks).
// The next three records are smaller than the window already sized, so
// calibration keeps the counted sizes and every call's window holds more
// than it sends: full's window less its record (the unsent tokens,
// cost.Step.Unsent). gpt-5.3-codex: $1.75 a million uncached, $0.175
// read, $14 output; OpenAI's rule (read the longest prefix of the
// previous prompt, in steps of 128).
//
// The counter's sizes (the report's parts): user prompt 5,142, each
// shell call 16, results 2,577, 268 and 262; call 5's call and result
// are sized from the records, 20,000 − 8,297 = 11,703. A masked result
// is 12. mask:keep=1 masks every result but the newest.
//
//	full, calls 1–5: windows 5,142 / 7,735 / 8,019 / 8,297 / 20,000,
//	  records 2,000 / 4,500 / 4,800 / 5,100 / 20,000 read 0 / 1,920 /
//	  4,480 / 4,736 / 4,992: unsent 3,142 / 3,235 / 3,219 / 3,197 / 0.
//	mask 3: 5,142+16+12+16+268 = 5,454 less 3,219 unsent: sends 2,235.
//	  Call 2 left 4,500 (what it sent, not its 7,735 counted) in the
//	  cache; the masked result's 2,577 counted tokens come off it:
//	  1,923, read 1,920; uncached 5,454 − 1,920 − 3,219 = 315.
//	mask 4: 5,142+16+12+16+12+16+262 = 5,476 less 3,197: sends 2,279;
//	  call 3 left 2,235, less result 4's 268 now masked: 1,967, read
//	  1,920; uncached 5,476 − 1,920 − 3,197 = 359.
//	mask 5: 5,142+16+12+16+12+16+12+11,703 = 16,929, none unsent; call
//	  4 left 2,279, less result 6's 262: 2,017, read 1,920; uncached
//	  15,009.
//
// mask in all: read 4×1,920 = 7,680, uncached 2,000 + 2,580 + 315 + 359
// + 15,009 = 20,263, output 500: 1,344 + 35,460.25 + 7,000 =
// 43,804.25 µ$. Before the fix mask's call 3 was priced read 4,480 of
// the 2,235 tokens it sends (the record's read, cut from a cache that held
// the counted 7,735).
func TestReplayCostCountedOverRecorded(t *testing.T) {
	f, err := os.Open("../../testdata/transcripts/codex/quirks-counted.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "quirks-counted.jsonl", "")
	if err != nil || len(ts) != 1 {
		t.Fatalf("%d transcripts, %v", len(ts), err)
	}
	o := window.DefaultOptions()
	o.Mask.Keep = new(1)
	strategies := []window.Strategy{window.Full, window.Edited{Base: window.Full, Edits: []window.Edit{window.MaskEdit{Keep: 1}}}}
	res, err := window.Replay(context.Background(), ts[0], strategies, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]cost.Parts{
		{{Uncached: 2000}, {Read: 1920, Uncached: 2580}, {Read: 4480, Uncached: 320}, {Read: 4736, Uncached: 364}, {Read: 4992, Uncached: 15008}},
		{{Uncached: 2000}, {Read: 1920, Uncached: 2580}, {Read: 1920, Uncached: 315}, {Read: 1920, Uncached: 359}, {Read: 1920, Uncached: 15009}},
	}
	sends := [][]int{{2000, 4500, 4800, 5100, 20000}, {2000, 4500, 2235, 2279, 16929}}
	for s, r := range res {
		if len(r.Calls) != 5 {
			t.Fatalf("%s: %d calls, want 5", r.Strategy, len(r.Calls))
		}
		for i, c := range r.Calls {
			if c.CallCost == nil || c.Cache != want[s][i] || c.Tokens != sends[s][i] {
				t.Errorf("%s call %d: sends %d, %+v; want %d, %+v", r.Strategy, i+1, c.Tokens, c.CallCost, sends[s][i], want[s][i])
			}
		}
		if err := window.CheckCost(r.Calls); err != nil {
			t.Errorf("%s: %v", r.Strategy, err)
		}
	}
	if got := float64(res[1].Totals.CostUSD); math.Abs(got-0.04380425) > 1e-12 {
		t.Errorf("mask $%v, want $0.04380425", got)
	}
}
