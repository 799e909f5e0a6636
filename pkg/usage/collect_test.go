package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// collectAll runs Collect with each build over data (format "" detects).
func collectAll(t *testing.T, data []byte, format string) (map[Build]*Collected, error) {
	out := map[Build]*Collected{}
	for _, b := range []Build{BuildSummary, BuildListing, BuildBreakdown, BuildItems} {
		got, err := Collect(context.Background(), bytes.NewReader(data), "in", CollectOptions{
			Format: transcript.Format(format), Build: b, Counter: tokenize.Estimate, Catalog: datedPrices})
		if err != nil {
			return nil, err
		}
		out[b] = got
	}
	return out, nil
}

// checkCollected: each build gives one entry per conversation, and the
// three that sum usage agree on every conversation's recorded usage,
// cost and unpriced models.
func checkCollected(t *testing.T, all map[Build]*Collected) {
	t.Helper()
	n := len(all[BuildListing].Transcripts) // a summary keeps none
	if got := all[BuildSummary].Transcripts; got != nil {
		t.Fatalf("the summary build kept %d transcripts", len(got))
	}
	sums, l, b := all[BuildSummary].Summaries, all[BuildListing].Listings, all[BuildBreakdown].Breakdowns
	s := make([]*SessionSummary, sums.Len())
	for i := range s {
		s[i] = sums.At(i)
	}
	if len(s) != n || len(l) != n || len(b) != n || len(all[BuildItems].Items) != n {
		t.Fatalf("%d conversations: %d summaries, %d listings, %d breakdowns, %d item lists", n, len(s), len(l), len(b), len(all[BuildItems].Items))
	}
	for i := range n {
		rec := RecordedUsage{}
		if l[i].Recorded != nil {
			rec = *l[i].Recorded
		}
		if s[i].Recorded != rec || (b[i].Recorded == nil) != (l[i].Recorded == nil) || b[i].Recorded != nil && *b[i].Recorded != rec {
			t.Fatalf("conversation %d: recorded %+v / %+v / %+v", i, s[i].Recorded, l[i].Recorded, b[i].Recorded)
		}
		if !reflect.DeepEqual(s[i].CostUSD, l[i].CostUSD) || !reflect.DeepEqual(b[i].CostUSD, l[i].CostUSD) {
			t.Fatalf("conversation %d: cost %v / %v / %v", i, usdOf(s[i].CostUSD), usdOf(l[i].CostUSD), usdOf(b[i].CostUSD))
		}
		if !reflect.DeepEqual(s[i].UnpricedModels, l[i].UnpricedModels) || !reflect.DeepEqual(b[i].UnpricedModels, l[i].UnpricedModels) {
			t.Fatalf("conversation %d: unpriced %v / %v / %v", i, s[i].UnpricedModels, l[i].UnpricedModels, b[i].UnpricedModels)
		}
		// The listing always encodes (a total that overflows is Collect's
		// error, before any listing).
		if _, err := json.Marshal(l[i]); err != nil {
			t.Fatalf("conversation %d: the listing does not encode: %v", i, err)
		}
	}
}

func usdOf(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestCollectOnly: Only keeps one conversation in every slice; Append
// joins two inputs in order.
func TestCollectOnly(t *testing.T) {
	in := `[{"id":"a","conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"yo"}]},
{"id":"b","conversations":[{"from":"human","value":"second"}]}]`
	got, err := Collect(context.Background(), bytes.NewReader([]byte(in)), "s.json", CollectOptions{Build: BuildListing, Counter: tokenize.Estimate})
	if err != nil {
		t.Fatal(err)
	}
	var both Collected
	both.Append(got)
	both.Append(got)
	if len(both.Transcripts) != 4 || len(both.Listings) != 4 || both.Listings[2] != got.Listings[0] {
		t.Fatalf("Append: %d transcripts, %d listings", len(both.Transcripts), len(both.Listings))
	}
	got.Only(1)
	if len(got.Transcripts) != 1 || len(got.Listings) != 1 || got.Listings[0].Conversation != "b" || got.Summaries.Len() != 0 {
		t.Errorf("Only(1): %+v", got)
	}
}

func FuzzCollect(f *testing.F) {
	for _, dir := range []string{"claude-code", "codex", "harpe", "gemini-cli", "sharegpt"} {
		addSeeds(f, dir)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		all, err := collectAll(t, data, "")
		if err != nil {
			return // bad input is an error; checked by the reader fuzzers
		}
		checkCollected(t, all)
	})
}

// TestCollectedSelect: a summary, which keeps no transcripts, selects a
// conversation by its id as [transcript.Select] does, errors and all.
func TestCollectedSelect(t *testing.T) {
	in := `[{"id":"a","conversations":[{"from":"human","value":"hi"}]},{"id":"b","conversations":[{"from":"human","value":"yo"}]},{"id":"b","conversations":[]}]`
	got, err := Collect(context.Background(), bytes.NewReader([]byte(in)), "s.json", CollectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := got.Select("a"); err != nil || got.Summaries.Len() != 1 || got.Summaries.At(0).Conversation != "a" || got.Summaries.At(0).Messages != 1 {
		t.Fatalf("Select(a): %v, %d summaries", err, got.Summaries.Len())
	}
	got, _ = Collect(context.Background(), bytes.NewReader([]byte(in)), "s.json", CollectOptions{})
	for id, want := range map[string]string{
		"b": `2 conversations are named "b" (the 2nd and 3rd in the input); give each its own id`,
		"c": `no conversation "c"; there are "a", "b", "b"`,
	} {
		if err := got.Select(id); err == nil || err.Error() != want {
			t.Errorf("Select(%s): %v, want %s", id, err, want)
		}
	}
}

// addSeeds adds every sample of a format directory as a fuzz seed.
func addSeeds(f *testing.F, dir string) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", dir, "*"))
	for _, p := range files {
		if st, err := os.Stat(p); err != nil || st.Size() > 64<<10 {
			continue // the long generated samples make slow seeds
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
}

// TestCutLine: a session log of each JSON Lines harness format whose
// third line was cut at half its bytes (scripts/gen-quirks, detect.go) is
// read with that line skipped, counted and named at the column just past
// its last byte; it records what the whole sample of the same seed does
// (the line cut records no usage), and under WithStrictLines it is an
// error naming the same place.
func TestCutLine(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	tests := []struct {
		format transcript.Format
		whole  string
	}{
		{transcript.FormatClaudeCode, "claude-code/quirks-thinking.jsonl"},
		{transcript.FormatCodex, "codex/quirks.jsonl"},
		{transcript.FormatGeminiCLI, "gemini-cli/session.jsonl"},
		{transcript.FormatCopilotCLI, "copilot-cli/events.jsonl"},
	}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			path := filepath.Join(root, "cut-line", string(tt.format)+".jsonl")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			third := strings.Split(string(data), "\n")[2]
			place := fmt.Sprintf("%s:3:%d", path, len(third)+1)
			collect := func(ctx context.Context, p string) (*Collected, error) {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				return Collect(ctx, f, p, CollectOptions{})
			}
			got, err := collect(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if got.BrokenLines != 1 || len(got.BrokenAt) != 1 || got.BrokenAt[0] != place {
				t.Errorf("broken lines %d at %v, want 1 at %s", got.BrokenLines, got.BrokenAt, place)
			}
			whole, err := collect(context.Background(), filepath.Join(root, tt.whole))
			if err != nil {
				t.Fatal(err)
			}
			g, w := got.Summaries.At(0), whole.Summaries.At(0)
			if g.Format != string(tt.format) || g.Recorded != w.Recorded || g.Messages != w.Messages {
				t.Errorf("%s, %d messages, recorded %+v; the whole file: %s, %d, %+v", g.Format, g.Messages, g.Recorded, w.Format, w.Messages, w.Recorded)
			}
			_, err = collect(transcript.WithStrictLines(context.Background()), path)
			if err == nil || !strings.HasPrefix(err.Error(), place+": invalid JSON: unexpected end of JSON input") {
				t.Errorf("strict: %v, want an error at %s", err, place)
			}
		})
	}
}
