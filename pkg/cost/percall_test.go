package cost

import (
	"bytes"
	"context"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// straddle.jsonl is a Claude Code session on claude-sonnet-4-6 that
// straddles its price change and has calls above 200,000 prompt tokens.
// The snapshot prices sonnet-4-6, per million tokens (input, cache read,
// 5-minute write, output), before 2026-03-13 at 3, 0.30, 3.75, 15 and
// above 200,000 prompt tokens at 6, 0.60, 7.50, 22.5; from 2026-03-13 on
// at a flat 3, 0.30, 3.75, 15. Its calls, by hand:
//
//	a  03-12 10:00  in 10, read 100,000, write 0: prompt 100,010, out 100
//	   10×3 + 100,000×0.3 + 100×15                     =    31,530 µ$
//	s  03-12 23:59:30, a sidechain call (two records, the last one's
//	   output), in 5, write 210,000: prompt 210,005 (tier), out 100
//	   5×6 + 210,000×7.5 + 100×22.5                     = 1,577,280 µ$
//	b  03-12 23:59  in 3, read 200,000, write 1,000: prompt 201,003
//	   (tier), out 500: 3×6 + 200,000×0.6 + 1,000×7.5 + 500×22.5
//	                                                     =   138,768 µ$
//	c  03-13 00:01  the same usage, after the change, no tier:
//	   3×3 + 200,000×0.3 + 1,000×3.75 + 500×15          =    71,259 µ$
//
// The session: $1.818837. Per day (UTC; the sidechain call counts on the
// session's first day): 03-12 a + s + b = $1.747578, 03-13 $0.071259. The
// usage summed and priced at the newest prices (as harpe did before)
// gives 21×3 + 500,000×0.3 + 212,000×3.75 + 1,200×15 = $0.963063.
const (
	straddleSession = 1.818837
	straddleDay12   = 1.747578
	straddleDay13   = 0.071259
)

func collectStraddle(t *testing.T, build usage.Build) *usage.Collected {
	t.Helper()
	f, err := os.Open("testdata/straddle.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := usage.Collect(context.Background(), f, "straddle.jsonl", usage.CollectOptions{
		Build: build, Counter: tokenize.Estimate, Catalog: prices.Default()})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func wantUSD(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || *got != want {
		t.Errorf("%s: cost %v, want exactly %v", what, got, want)
	}
}

// TestPerCallPricing: the summary (by session, day and model), the
// listing and the breakdown price each call at its own date and tier,
// and come out exactly as the pricing by hand above.
func TestPerCallPricing(t *testing.T) {
	sums := collectStraddle(t, usage.BuildSummary).Summaries
	for _, by := range []string{"session", "model", "project"} {
		s, err := usage.NewSummary(sums, by)
		if err != nil {
			t.Fatal(err)
		}
		wantUSD(t, by+" totals", s.Totals.CostUSD, straddleSession)
		for _, g := range s.Groups {
			wantUSD(t, by+" "+g.Key, g.CostUSD, straddleSession)
		}
	}
	wantUSD(t, "session", sums.At(0).CostUSD, straddleSession)
	days, err := usage.NewSummary(sums, "day")
	if err != nil {
		t.Fatal(err)
	}
	if len(days.Groups) != 2 {
		t.Fatalf("days: %d groups, want 2", len(days.Groups))
	}
	wantUSD(t, "2026-03-12", days.Groups[0].CostUSD, straddleDay12)
	wantUSD(t, "2026-03-13", days.Groups[1].CostUSD, straddleDay13)
	wantUSD(t, "listing", collectStraddle(t, usage.BuildListing).Listings[0].CostUSD, straddleSession)
	b, err := usage.NewBreakdown(collectStraddle(t, usage.BuildBreakdown).Breakdowns)
	if err != nil {
		t.Fatal(err)
	}
	wantUSD(t, "breakdown", b.Sessions[0].CostUSD, straddleSession)
	wantUSD(t, "breakdown totals", b.Totals.CostUSD, straddleSession)
}

// TestCostsAgreeOnSamples: on every sample that records usage, the
// summary, the listing and the breakdown cost exactly what pricing each
// call on its own gives (each message with usage and each unsent call,
// its prices looked up and chosen by date and prompt size here, summed,
// rounded once).
func TestCostsAgreeOnSamples(t *testing.T) {
	var files []string
	for _, root := range []string{"../../testdata/agent", "../../testdata/transcripts", "testdata"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".jsonl") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	cat := prices.Default()
	checked := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := transcript.Read(bytes.NewReader(data), p, "")
		if err != nil {
			continue // not a transcript (settings.json)
		}
		var want []*float64
		for _, tr := range ts {
			sum, named, priced := 0.0, false, false
			add := func(model string, at time.Time, u transcript.Usage) {
				if model == "" {
					return
				}
				named = true
				pr := cat.LookupCall(model).At(at, u.Input+u.CacheRead+u.CacheWrite)
				if pr != nil {
					priced = true
				}
				if pr != nil { // by hand: each part at its price a million
					w1h := min(u.CacheWrite1h, u.CacheWrite)
					sum += (float64(u.Input)*pr.Input + float64(u.CacheRead)*pr.CacheRead + float64(u.CacheWrite-w1h)*pr.CacheWrite5m +
						float64(w1h)*pr.CacheWrite1h + float64(u.Output)*pr.Output) / 1e6
				}
			}
			for i := range tr.Messages {
				if m := &tr.Messages[i]; m.Usage != nil {
					add(m.Model, m.Timestamp, *m.Usage)
				}
			}
			for _, u := range tr.Unsent {
				add(u.Model, u.Time, u.Usage)
			}
			if !named || !priced { // no price at all: unknown, never $0
				want = append(want, nil)
				continue
			}
			r := RoundUSD(sum)
			want = append(want, &r)
			checked++
		}
		for _, build := range []usage.Build{usage.BuildSummary, usage.BuildListing, usage.BuildBreakdown} {
			got, err := usage.Collect(context.Background(), bytes.NewReader(data), p, usage.CollectOptions{
				Build: build, Counter: tokenize.Estimate, Catalog: cat})
			if err != nil {
				t.Fatal(err)
			}
			var costs []*float64
			for i := range got.Summaries.Len() {
				costs = append(costs, got.Summaries.At(i).CostUSD)
			}
			for _, l := range got.Listings {
				costs = append(costs, l.CostUSD)
			}
			for _, s := range got.Breakdowns {
				costs = append(costs, s.CostUSD)
			}
			if len(costs) != len(want) {
				t.Fatalf("%s: %d conversations, want %d", p, len(costs), len(want))
			}
			for i := range want {
				w, g := want[i], costs[i]
				if (w == nil) != (g == nil) || w != nil && math.Abs(*w-*g) > 1e-9 {
					t.Errorf("%s build %d conversation %d: cost %v, want %v", p, build, i, deref(g), deref(w))
				}
			}
		}
	}
	if checked < 15 {
		t.Errorf("only %d priced conversations checked", checked)
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}
