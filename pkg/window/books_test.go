package window_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// usageSamples reads every transcript under testdata/ that records usage
// on some call, by path.
func usageSamples(t *testing.T) map[string][]*transcript.Transcript {
	t.Helper()
	out := map[string][]*transcript.Transcript{}
	for _, dir := range []string{"transcripts", "agent", "replay"} {
		root := filepath.Join("../../testdata", dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json")) {
				return err
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			ts, err := transcript.Read(f, path, "")
			if err != nil {
				return nil // not a transcript (a request, a HAR) or one the reader refuses: not this test's
			}
			for _, tr := range ts {
				if slices.ContainsFunc(tr.Messages, func(m transcript.Message) bool { return m.Usage != nil }) {
					out[path] = append(out[path], tr)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestBooksBalanceOnEverySample is the invariant of the cost books
// ([window.CheckCost]) on every sample of testdata/ that records usage,
// under every strategy, alone and with each edit: each priced call's
// cache read, write and uncached input add up to what it sends, and no
// call reads more than the earlier calls of its model left cached.
func TestBooksBalanceOnEverySample(t *testing.T) {
	samples := usageSamples(t)
	t.Logf("%d samples", len(samples))
	if len(samples) < 10 {
		t.Fatalf("%d samples with usage under testdata/", len(samples))
	}
	var specs []string
	for _, b := range []string{"full", "windowed", "summarizing", "turn", "sliding", "budget"} {
		for _, e := range []string{"", "+clear", "+mask", "+limit:bytes=2000", "+clear:auto", "+clear+mask"} {
			specs = append(specs, b+e)
		}
	}
	specs = append(specs, "cheapest", "cheapest+limit:bytes=2000")
	o := window.DefaultOptions()
	o.Clear.Trigger = new(20000) // so that clear fires on the smaller samples too
	o.Budget = engine.Budget{Total: 20000}
	var strategies []window.Strategy
	for _, spec := range specs {
		s, err := window.Parse(spec, o)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		strategies = append(strategies, s)
	}
	paths := make([]string, 0, len(samples))
	for p := range samples {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, path := range paths {
		for k, tr := range samples[path] {
			res, err := window.Replay(context.Background(), tr, strategies, window.ReplayOptions{Options: o, Cost: &window.CostOptions{Model: "claude-sonnet-4-5"}})
			if err != nil {
				t.Fatalf("%s #%d: %v", path, k, err)
			}
			for _, r := range res {
				if err := window.CheckCost(r.Calls); err != nil {
					t.Errorf("%s #%d %s: %v", path, k, r.Strategy, err)
				}
			}
		}
	}
}
