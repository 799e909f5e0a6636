package usage

import (
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/internal/usd"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// datedPrices is a catalog that prices model "m1" at 1 µ$ a token of any
// kind ($1 a million) before 2026-01-03 and 10 µ$ from then on (and when
// undated: the newest price), "m2" at 100 µ$ a token; any other model has
// no price. The figures are chosen so that each sum below says which
// calls it holds; the tests read costs in µ$ ([micro]).
var datedPrices = func() *prices.Catalog {
	perToken := func(micro string) string { // every kind of token at micro µ$ a token
		return strings.ReplaceAll(`{"input_mtok": X, "cache_read_mtok": X, "cache_write_mtok": X, "cache_write_1h_mtok": X, "output_mtok": X}`, "X", micro)
	}
	db, err := prices.Load([]byte(`[{"id": "test", "name": "Test", "api_pattern": "https://test", "model_match": {"regex": "^m\\d$"}, "models": [
 {"id": "m1", "match": {"equals": "m1"}, "prices": [{"prices": `+perToken("1")+`},
   {"constraint": {"start_date": "2026-01-03", "type": "start_date"}, "prices": `+perToken("10")+`}]},
 {"id": "m2", "match": {"equals": "m2"}, "prices": `+perToken("100")+`}]}]`), "dated.json")
	if err != nil {
		panic(err)
	}
	cat, err := prices.NewCatalog(nil, db, nil)
	if err != nil {
		panic(err)
	}
	return cat
}()

// micro is a cost in whole µ$ (nil: -1), as datedPrices' figures are
// worked out.
func micro(c *float64) float64 {
	if c == nil {
		return -1
	}
	return math.Round(*c * 1e6)
}

// TestSummaryPricing: every call is priced once, at its own time, and
// its cost lands in its session, its day, its model and the totals. By
// hand:
//
//	session a: m1 01-02 (3 tokens) 3 µ$, m1 01-03 (2 tokens) 20 µ$,
//	           m2 01-02 (1 token) 100 µ$, mystery 01-03 (4 tokens) unpriced,
//	           a sidechain m1 call, undated: newest price, 5 tokens, 50 µ$
//	           (it counts on the session's first day, 01-02)
//	session b: one call with no model (7 tokens): no cost at all
//
// a: 173 µ$; day 01-02: 3 + 100 + 50 = 153 µ$; 01-03: 20 µ$; model m1:
// 73 µ$, m2: 100 µ$, mystery: unpriced (0); totals 173 µ$, unpriced
// mystery.
func TestSummaryPricing(t *testing.T) {
	a := NewSessionSummary("a.jsonl", "/src")
	a.Catalog = datedPrices
	for _, m := range []transcript.Message{
		summaryMessage("2026-01-02T10:00:00Z", "m1", transcript.Usage{Input: 1, Output: 2}, ""),
		summaryMessage("2026-01-02T11:00:00Z", "m2", transcript.Usage{Output: 1}, ""),
		summaryMessage("2026-01-03T10:00:00Z", "m1", transcript.Usage{CacheRead: 2}, ""),
		summaryMessage("2026-01-03T11:00:00Z", "mystery", transcript.Usage{Input: 3, Output: 1}, ""),
	} {
		if err := a.Add(&m); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Finish(&transcript.Transcript{Format: "claude-code", Unsent: []transcript.UnsentCall{{Model: "m1", Usage: transcript.Usage{CacheWrite: 5}}}}); err != nil {
		t.Fatal(err)
	}
	b := NewSessionSummary("b.jsonl", "/other")
	b.Catalog = datedPrices
	m := summaryMessage("2026-01-04T10:00:00Z", "", transcript.Usage{Input: 7}, "")
	if err := b.Add(&m); err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(&transcript.Transcript{Format: "harpe"}); err != nil {
		t.Fatal(err)
	}
	cost := func(c *float64) any {
		if c == nil {
			return nil
		}
		return micro(c)
	}
	if got := cost(a.CostUSD); got != 173.0 || !reflect.DeepEqual(a.UnpricedModels, []string{"mystery"}) {
		t.Errorf("session a: %v %v, want 173 [mystery]", got, a.UnpricedModels)
	}
	if b.CostUSD != nil || b.UnpricedModels != nil {
		t.Errorf("session b: %v %v, want no cost", cost(b.CostUSD), b.UnpricedModels)
	}
	for _, tc := range []struct {
		by   string
		want map[string]any // group key → cost
	}{
		{"day", map[string]any{"2026-01-02": 153.0, "2026-01-03": 20.0, "2026-01-04": nil}},
		{"model", map[string]any{"m1": 73.0, "m2": 100.0, "mystery": nil, "-": nil}},
		{"project", map[string]any{"/src": 173.0, "/other": nil}},
	} {
		var ss SessionSummaries
		ss.Add(a, b)
		s, err := NewSummary(ss, tc.by)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]any{}
		for _, g := range s.Groups {
			got[g.Key] = cost(g.CostUSD)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("by %s: %v, want %v", tc.by, got, tc.want)
		}
		if c := cost(s.Totals.CostUSD); c != 173.0 || !reflect.DeepEqual(s.Totals.UnpricedModels, []string{"mystery"}) {
			t.Errorf("by %s: totals %v %v", tc.by, c, s.Totals.UnpricedModels)
		}
		// What the totals leave out: mystery's 4 tokens, and the call
		// with no model (7).
		want := []UnpricedCalls{{Model: "", Calls: 1, Tokens: 7}, {Model: "mystery", Calls: 1, Tokens: 4}}
		if u := s.Unpriced(); !reflect.DeepEqual(u, want) {
			t.Errorf("by %s: unpriced %+v, want %+v", tc.by, u, want)
		}
	}
}

// TestTallyWithoutCatalog: a tally added to with no catalog has no cost
// and leaves nothing out.
func TestTallyWithoutCatalog(t *testing.T) {
	var tally UsageTally
	m := summaryMessage("2026-01-02T10:00:00Z", "m1", transcript.Usage{Input: 1}, "")
	if err := tally.Add(&m, nil); err != nil {
		t.Fatal(err)
	}
	if c, u := tally.Cost(); c != nil || u != nil || tally.Unpriced() != nil {
		t.Errorf("Cost = %v %v, Unpriced = %v", c, u, tally.Unpriced())
	}
}

func TestMergeUnpriced(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	a := []UnpricedCalls{{Model: "z", Calls: 1, Tokens: 10}, {Model: "a", Calls: 2, Tokens: maxInt}}
	b := []UnpricedCalls{{Model: "a", Calls: 1, Tokens: 1}, {Model: "m", Calls: 3, Tokens: 30}}
	want := []UnpricedCalls{{Model: "a", Calls: 3, Tokens: maxInt}, {Model: "m", Calls: 3, Tokens: 30}, {Model: "z", Calls: 1, Tokens: 10}}
	if got := MergeUnpriced(a, b); !reflect.DeepEqual(got, want) {
		t.Errorf("MergeUnpriced = %+v, want %+v", got, want)
	}
}

// TestCallCost prices single calls against figures by hand: the
// date chooses the price set, the whole prompt (cache parts included)
// the tier, and a model with no price is not ok.
func TestCallCost(t *testing.T) {
	cat := prices.Default()
	day := func(s string) time.Time {
		d, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	big := transcript.Usage{Input: 3, CacheRead: 200000, CacheWrite: 1000, Output: 500}
	for _, tc := range []struct {
		name  string
		model string
		at    time.Time
		u     transcript.Usage
		want  float64
		ok    bool
	}{
		{"tier before the change", "claude-sonnet-4-6", day("2026-03-12T23:59:00Z"), big, 0.138768, true},
		{"after the change", "claude-sonnet-4-6", day("2026-03-13T00:01:00Z"), big, 0.071259, true},
		{"undated: the newest prices", "claude-sonnet-4-6", time.Time{}, big, 0.071259, true},
		// 200,000 exactly is not above the tier: 199,000×0.3 + 1,000×3.75
		// = 59,700 + 3,750 µ$.
		{"at 200,000, no tier", "claude-sonnet-4-6", day("2026-03-01T00:00:00Z"), transcript.Usage{CacheRead: 199000, CacheWrite: 1000}, 0.06345, true},
		// 1-hour writes at the 1-hour price (6 below the tier): 400×6 + 600×3.75.
		{"1-hour write", "claude-sonnet-4-6", day("2026-04-01T00:00:00Z"), transcript.Usage{CacheWrite: 1000, CacheWrite1h: 400}, 0.00465, true},
		// Bedrock's regional endpoints (us.) list 3.30 / 16.50:
		// 1,000×3.3 + 100×16.5 = 4,950 µ$.
		{"Bedrock id", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", day("2026-04-01T00:00:00Z"), transcript.Usage{Input: 1000, Output: 100}, 0.00495, true},
		{"unknown model", "mystery-1", day("2026-04-01T00:00:00Z"), big, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := CallCost(cat.LookupCall(tc.model), tc.at, tc.u)
			if ok != tc.ok || usd.Round(got) != tc.want {
				t.Errorf("CallCost = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
