package window_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// TestAutoClearWithinFull: on every sample that records usage, priced
// against its records, clear:auto costs at most 1.01 × full (its bound
// is taken against what both really cost so far; docs/real-sessions.md
// has the real sessions it failed on before).
func TestAutoClearWithinFull(t *testing.T) {
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
			res, err := window.Replay(context.Background(), tr, []window.Strategy{window.Full, auto}, window.ReplayOptions{Options: o, Cost: &window.CostOptions{}})
			if err != nil {
				t.Fatal(err)
			}
			full, a := res[0].Totals, res[1].Totals
			if full.CostTotals == nil || full.RecordedCostUSD == nil {
				continue
			}
			checked++
			if a.CostUSD > 1.01*full.CostUSD+1e-9 {
				t.Errorf("%s: clear:auto $%.6f over 1.01 × full $%.6f", p, a.CostUSD, full.CostUSD)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d samples with records", checked)
	}
}
