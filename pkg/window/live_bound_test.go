package window_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// TestAutoClearLiveWithinFull: clear:auto run as a live context runs it
// (ReplayOptions.Live: its bound from its own books, the cache it counts
// on from the usage of its own previous call), priced against the
// records, costs at most 1.01 × full on every sample that records usage.
func TestAutoClearLiveWithinFull(t *testing.T) {
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
	o := window.DefaultOptions()
	auto, err := window.Parse("clear:auto", o)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	worst := 0.0
	for _, p := range files {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := transcript.Read(f, filepath.Base(p), "")
		f.Close()
		if err != nil {
			continue
		}
		for _, tr := range ts {
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, auto},
				window.ReplayOptions{Options: o, Cost: &window.CostOptions{}, Live: true})
			if err != nil {
				t.Fatal(err)
			}
			full, live := res[0].Totals, res[1].Totals
			if full.CostTotals == nil || full.RecordedCostUSD == nil || full.CostUSD == 0 {
				continue
			}
			checked++
			ratio := float64(live.CostUSD / full.CostUSD)
			worst = max(worst, ratio)
			t.Logf("%s: full $%.4f, clear:auto live $%.4f (%.3f×)", p, full.CostUSD, live.CostUSD, ratio)
			if live.CostUSD > 1.01*full.CostUSD+1e-9 {
				t.Errorf("%s: clear:auto live $%.6f over 1.01 × full $%.6f", p, live.CostUSD, full.CostUSD)
			}
		}
	}
	// The 32 generated sessions of TestAutoClearBound (no records: the
	// cost model's cache is the only one).
	for seed := uint64(1); seed <= 32; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5", "claude-opus-4-5", "claude-haiku-4-5"}[seed%4]
		gap := []time.Duration{2 * time.Second, 30 * time.Second, 4 * time.Minute, 7 * time.Minute}[seed/4%4]
		calls := []int{8, 30, 200}[seed%3]
		tr := genPriced(seed, calls, model, gap, int(seed%5)*7)
		res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, auto}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}, Live: true})
		if err != nil {
			t.Fatal(err)
		}
		f, a := float64(res[0].Totals.CostUSD), float64(res[1].Totals.CostUSD)
		checked++
		worst = max(worst, a/f)
		if a > 1.01*f {
			t.Errorf("seed %d %s %d calls %v apart: clear:auto live $%.6f, full $%.6f", seed, model, calls, gap, a, f)
		}
	}
	t.Logf("%d sessions, largest ratio %.3f", checked, worst)
	if checked < 40 {
		t.Fatalf("only %d sessions", checked)
	}
}
