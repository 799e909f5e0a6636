package prices

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// handData is a small price file in genai-prices' format, written by hand
// so that every figure below can be worked out from it.
const handData = `[
{"id": "acme", "name": "Acme", "api_pattern": "https://acme", "model_match": {"starts_with": "acme-"},
 "provider_match": {"contains": "acmecorp"}, "models": [
  {"id": "acme-exact", "match": {"equals": "ACME-Exact"}, "prices": {"input_mtok": 1, "output_mtok": 2}},
  {"id": "acme-big", "match": {"starts_with": "acme-big"}, "prices": {
     "input_mtok": {"base": 2, "tiers": [{"start": 200000, "price": 4}]},
     "cache_read_mtok": {"base": 0.2, "tiers": [{"start": 200000, "price": 0.4}]},
     "cache_write_mtok": 2.5, "cache_write_1h_mtok": 4,
     "output_mtok": {"base": 10, "tiers": [{"start": 200000, "price": 15}]}}},
  {"id": "acme-dated", "match": {"ends_with": "-dated"}, "prices": [
     {"prices": {"input_mtok": 3, "output_mtok": 30}},
     {"constraint": {"start_date": "2026-03-01", "type": "start_date"}, "prices": {"input_mtok": 1.5, "output_mtok": 15}},
     {"constraint": {"start_time": "02:00:00Z", "end_time": "06:00:00Z", "type": "time_of_date"}, "prices": {"input_mtok": 0.5, "output_mtok": 5}}]},
  {"id": "acme-mid", "match": {"contains": "-mid-"}, "prices": {"input_mtok": 7, "output_mtok": 8}},
  {"id": "acme-re", "match": {"regex": "^acme-r\\d+$"}, "prices": {"input_mtok": 9, "output_mtok": 9}},
  {"id": "acme-and", "match": {"and": [{"starts_with": "acme-a"}, {"or": [{"ends_with": "-x"}, {"ends_with": "-y"}]}]}, "prices": {"input_mtok": 11, "output_mtok": 12}},
  {"id": "acme-2025-09-29", "match": {"equals": "acme-snap-2025-09-29"}, "prices": {"input_mtok": 13, "output_mtok": 14}}
 ]},
{"id": "beta", "name": "Beta", "api_pattern": "https://beta", "model_match": {"regex": "^(?!.*-tts(?:$|-))beta"},
 "fallback_model_providers": ["acme"], "models": [
  {"id": "beta-one", "match": {"equals": "beta-one"}, "prices": {"input_mtok": 0.25, "output_mtok": 1}}
 ]},
{"id": "aws", "name": "AWS", "api_pattern": "https://aws", "models": [
  {"id": "regional.acme.big", "match": {"contains": "acme.big"}, "prices": {"input_mtok": 2.2, "output_mtok": 11}}
 ]}
]`

func handDB(t *testing.T) *DB {
	t.Helper()
	db, err := Load([]byte(handData), "hand.json")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestFind checks each match rule and how a provider is chosen.
func TestFind(t *testing.T) {
	db := handDB(t)
	tests := []struct {
		name, id, want string // want "": not found
	}{
		{"equals ignores case", "acme-EXACT", "acme/acme-exact"},
		{"equals is whole", "acme-exact2", ""},
		{"trimmed", "  acme-exact ", "acme/acme-exact"},
		{"starts_with", "acme-big-2", "acme/acme-big"},
		{"ends_with", "acme-x-dated", "acme/acme-dated"},
		{"contains", "acme-a-mid-b", "acme/acme-mid"},
		{"regex", "acme-r12", "acme/acme-re"},
		{"regex anchored", "acme-r12b", ""},
		{"and with or", "acme-a1-y", "acme/acme-and"},
		{"and fails", "acme-a1-z", ""},
		// the first model whose rule matches wins: acme-big before -mid-
		{"first match", "acme-big-mid-1", "acme/acme-big"},
		// a compact date is written with dashes when the id finds nothing
		{"compact date", "acme-snap-20250929", "acme/acme-2025-09-29"},
		{"not a calendar date", "acme-snap-20250231", ""},
		// beta's rule is a negative lookahead: any beta id but a -tts one
		{"lookahead", "beta-one", "beta/beta-one"},
		{"lookahead refuses", "beta-one-tts", ""},
		// beta falls back to acme's models
		{"fallback provider", "beta-a-mid-1", "acme/acme-mid"},
		// no provider's model_match: a Bedrock id goes to aws
		{"bedrock", "us.acme.big-v1:0", "aws/regional.acme.big"},
		{"vertex @", "acme-snap@20250929", "acme/acme-2025-09-29"},
		{"no provider", "zeta-1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, ok := db.Find(tc.id)
			got := ""
			if ok {
				got = e.Provider + "/" + e.Model
			}
			if got != tc.want {
				t.Errorf("Find(%q) = %q, want %q", tc.id, got, tc.want)
			}
		})
	}
	if e, ok := db.FindIn("acmecorp", "acme-exact"); !ok || e.Provider != "acme" {
		t.Errorf("FindIn by provider_match: %v %v", e, ok)
	}
	if got := db.Provider("acme-anything"); got != "acme" {
		t.Errorf("Provider = %q", got)
	}
}

// TestAt checks tiers, start dates, times of day and the cache
// fallbacks, each figure from handData by hand.
func TestAt(t *testing.T) {
	db := handDB(t)
	big, _ := db.Find("acme-big")
	// 200,000 input tokens is not above the tier's start: base prices.
	if p := big.At(time.Time{}, 200000); p.Input != 2 || p.CacheRead != 0.2 || p.CacheWrite5m != 2.5 || p.CacheWrite1h != 4 || p.Output != 10 {
		t.Errorf("at 200,000: %+v", *p)
	}
	// 200,001: the whole call at the tier (input 4, read 0.4, output 15;
	// the write prices have no tier).
	if p := big.At(time.Time{}, 200001); p.Input != 4 || p.CacheRead != 0.4 || p.CacheWrite5m != 2.5 || p.Output != 15 {
		t.Errorf("at 200,001: %+v", *p)
	}
	// No cache prices: a read and a write cost input; no 1-hour price.
	exact, _ := db.Find("acme-exact")
	if p := exact.At(time.Time{}, 10); p.CacheRead != 1 || p.CacheWrite5m != 1 || p.CacheWrite1h != 1 {
		t.Errorf("fallbacks: %+v", *p)
	}
	dated, _ := db.Find("acme-dated")
	day := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tc := range []struct {
		at   time.Time
		want float64 // input price
	}{
		{day("2026-02-28T12:00:00Z"), 3},   // before the start date: the first set
		{day("2026-03-01T00:00:00Z"), 1.5}, // on it
		{day("2026-05-01T03:00:00Z"), 0.5}, // within 02:00–06:00 UTC, the last set
		{day("2026-05-01T06:00:00Z"), 1.5}, // the end is excluded
		{day("2026-05-01T05:00:00+02:00"), 0.5},
		{time.Time{}, 1.5}, // no time: the newest dated set
	} {
		if p := dated.At(tc.at, 1); p.Input != tc.want {
			t.Errorf("at %v: input %v, want %v", tc.at, p.Input, tc.want)
		}
	}
	if v := dated.Varies(); v != "by date; by time of day" {
		t.Errorf("Varies = %q", v)
	}
	if v := big.Varies(); v != "above 200,000 input tokens" {
		t.Errorf("Varies = %q", v)
	}
}

func TestLoadErrors(t *testing.T) {
	model := func(prices string) string {
		return `[{"id": "p", "models": [{"id": "m1", "match": {"equals": "m1"}, "prices": ` + prices + `}]}]`
	}
	tests := []struct{ name, data, want string }{
		{"not an array", `{}`, ":1:1: want a JSON array of providers (genai-prices data.json): a JSON object where the format has something else (byte offset 0)"},
		// The bad byte, '}', is the file's 15th (offset 14) and line 2's
		// 13th: "[\n" is 2 bytes, then the 12 of ` {"id": "x",` before it.
		{"syntax", "[\n {\"id\": \"x\",}", ":2:13: want a JSON array of providers (genai-prices data.json): invalid character '}' looking for beginning of object key string (byte offset 14)"},
		{"empty", `[]`, "no providers"},
		{"negative", model(`{"input_mtok": -1}`), "provider p model m1: input_mtok: price -1"},
		{"huge", model(`{"output_mtok": 1e300}`), "output_mtok: price 1e+300"},
		{"out of range", model(`{"output_mtok": 1e400}`), "output_mtok: want a number"},
		{"bad tier", model(`{"input_mtok": {"base": 1, "tiers": [{"start": 10, "price": -2}]}}`), "price -2"},
		{"bad date", model(`[{"constraint": {"start_date": "2026-13-01"}, "prices": {"input_mtok": 1}}]`), "start_date"},
		{"bad constraint", model(`[{"constraint": {"until": "x"}, "prices": {"input_mtok": 1}}]`), "constraint"},
		{"no match", `[{"id": "p", "models": [{"id": "m1", "prices": {}}]}]`, "without an id or a match rule"},
		{"empty rule", `[{"id": "p", "models": [{"id": "m1", "match": {}, "prices": {}}]}]`, "names none of"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load([]byte(tc.data), "f.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "f.json:") {
				t.Errorf("error %v, want f.json: …%s…", err, tc.want)
			}
		})
	}
	var pe *PriceError
	_, err := Load([]byte(model(`{"input_mtok": -1}`)), "f.json")
	if !errors.As(err, &pe) || pe.Value != -1 {
		t.Errorf("not a *PriceError: %v", err)
	}
}

// TestSnapshot prices known ids with the embedded data, each figure as
// pkg/prices/data.json states it (input, cache read, 5-minute and 1-hour
// write, output per million tokens, at the newest date, below every tier).
func TestSnapshot(t *testing.T) {
	if n := len(Snapshot().Providers()); n != 43 {
		t.Errorf("%d providers, want 43 (genai-prices 0.1.8)", n)
	}
	if u := Snapshot().Unsupported(); len(u) != 0 {
		t.Errorf("regular expressions harpe cannot read: %q", u)
	}
	tests := []struct {
		id, model              string
		in, read, w5, w1h, out float64
	}{
		{"claude-opus-4-6", "anthropic/claude-opus-4-6", 5, 0.5, 6.25, 10, 25},
		{"claude-sonnet-4-6", "anthropic/claude-sonnet-4-6", 3, 0.3, 3.75, 6, 15},
		{"claude-opus-4-7", "anthropic/claude-opus-4-7", 5, 0.5, 6.25, 10, 25},
		{"claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4-5", 3, 0.3, 3.75, 6, 15},
		{"claude-sonnet-4-5@20250929", "anthropic/claude-sonnet-4-5", 3, 0.3, 3.75, 6, 15},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "aws/regional.anthropic.claude-sonnet-4-5-20250929-v1:0", 3.3, 0.33, 4.125, 4.125, 16.5},
		{"anthropic.claude-sonnet-4-5-20250929-v1:0", "aws/regional.anthropic.claude-sonnet-4-5-20250929-v1:0", 3.3, 0.33, 4.125, 4.125, 16.5},
		{"global.anthropic.claude-opus-4-6-v1", "aws/global.anthropic.claude-opus-4-6-v1:0", 5, 0.5, 6.25, 6.25, 25},
		{"gpt-5.3-codex", "openai/gpt-5.3-codex", 1.75, 0.175, 1.75, 1.75, 14},
		{"gpt-5.5", "openai/gpt-5.5", 5, 0.5, 5, 5, 30},
		{"o3", "openai/o3", 2, 0.5, 2, 2, 8},
		{"o4-mini", "openai/o4-mini", 1.1, 0.275, 1.1, 1.1, 4.4},
		{"gemini-3-pro-preview", "google/gemini-3-pro-preview", 2, 0.2, 2, 2, 12},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			e, ok := Snapshot().Find(tc.id)
			if !ok {
				t.Fatal("not found")
			}
			if got := e.Provider + "/" + e.Model; got != tc.model {
				t.Errorf("found %s, want %s", got, tc.model)
			}
			p := e.At(time.Time{}, 1000)
			if p.Input != tc.in || p.CacheRead != tc.read || p.CacheWrite5m != tc.w5 || p.CacheWrite1h != tc.w1h || p.Output != tc.out {
				t.Errorf("prices %+v", *p)
			}
		})
	}
	// Tiers and dates of the snapshot: Sonnet 4.5 above 200,000 input
	// tokens is 6 in, 22.5 out; o3 before 2025-06-10 was 10 in, 40 out.
	s45, _ := Snapshot().Find("claude-sonnet-4-5")
	if p := s45.At(time.Time{}, 200001); p.Input != 6 || p.Output != 22.5 {
		t.Errorf("sonnet 4.5 long prompt %+v", *p)
	}
	o3, _ := Snapshot().Find("o3")
	if p := o3.At(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), 1); p.Input != 10 || p.Output != 40 {
		t.Errorf("o3 before its price cut %+v", *p)
	}
	if Info().Version != "0.1.8" || Info().String() != "genai-prices 0.1.8 (2026-09-23)" {
		t.Errorf("info %+v", Info())
	}
	if !strings.Contains(License, "MIT") {
		t.Error("the licence does not travel with the data")
	}
}

func TestCatalog(t *testing.T) {
	db := handDB(t)
	cat, err := NewCatalog(nil, db, []Override{
		{Name: "acme-exact", Prices: &Prices{Input: 0.5, Output: 1, Source: "harpe.yaml:3"}},
		{Name: "acme-big", Cache: CacheAnthropic},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := cat.LookupCall("acme-exact")
	if m.Prices.Input != 0.5 || m.PriceSource != "harpe.yaml:3" || m.At(time.Time{}, 300000).Input != 0.5 {
		t.Errorf("override: %+v", m)
	}
	b := cat.LookupCall("acme-big")
	if b.CacheRule() != CacheAnthropic || b.At(time.Time{}, 300000).Input != 4 || b.PriceSource != "hand.json" {
		t.Errorf("cache override keeps the data's prices: %+v", b)
	}
	// A preset the data does not price: no prices, rule by maker.
	if m := cat.LookupCall("gpt-4o"); m.Prices != nil || m.ContextWindow != 128000 {
		t.Errorf("gpt-4o in hand data: %+v", m)
	}
	// An unknown claude is unpriced with Anthropic's rule.
	if m := Default().LookupCall("claude-next-9"); m.Prices != nil || m.CacheRule() != CacheAnthropic {
		t.Errorf("claude-next-9: %+v", m)
	}
	if m := Default().LookupCall("gpt-next"); m.CacheRule() != CacheOpenAI {
		t.Errorf("gpt-next: %+v", m)
	}
	if _, err := cat.Lookup("zeta"); err == nil {
		t.Error("unknown model found")
	}
	as, err := cat.PriceAs("acme-big")
	if err != nil {
		t.Fatal(err)
	}
	if m := as.LookupCall("acme-exact"); m.PriceModel != "acme/acme-big" {
		t.Errorf("price-as: %+v", m)
	}
	if _, err := cat.PriceAs("zeta"); err == nil {
		t.Error("price-as an unknown model")
	}
	for _, o := range []Override{
		{Name: "x", Prices: &Prices{Input: -1}},
		{Name: "x", Cache: "lru"},
		{Name: "x", MinCacheTokens: -1},
	} {
		if _, err := NewCatalog(nil, db, []Override{o}); err == nil {
			t.Errorf("override %+v accepted", o)
		}
	}
}

func TestDashDate(t *testing.T) {
	for in, want := range map[string]string{
		"claude-sonnet-4-5-20250929": "claude-sonnet-4-5-2025-09-29",
		"x-20250929-v1:0":            "x-2025-09-29-v1:0",
		"x-20250929:0":               "x-2025-09-29:0",
		"x-20250929b":                "x-20250929b",
		"x-20250230":                 "x-20250230",
		"a-20240101-b-20250101":      "a-2024-01-01-b-2025-01-01",
		"gpt-4o":                     "gpt-4o",
	} {
		if got := dashDate(in); got != want {
			t.Errorf("dashDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(handData))
	f.Add([]byte(`[{"id":"p","models":[{"id":"m","match":{"regex":"^(?!a)b"},"prices":[{"constraint":{"start_time":"23:00:00Z","end_time":"01:00:00+01:00"},"prices":{"input_mtok":1}}]}]}]`))
	f.Add([]byte(`[{"id":"p","models":[{"id":"m","match":{"or":[{"and":[{"starts_with":"a"},{"ends_with":"z"}]},{"or":[{"contains":"big"},{"regex":"^b$"}]}]},"prices":{"input_mtok":1}}]}]`))
	f.Add([]byte(`[{"id":"p","models":[{"id":"m","match":{"or":[{"or":[{"or":[{"equals":"m"}]}]}]},"prices":{"input_mtok":1}}]}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		db, err := Load(data, "f")
		if err != nil {
			return
		}
		for _, id := range []string{"m", "acme-big", "b", "us.anthropic.x-v1:0", "a@20250101"} {
			if e, ok := db.Find(id); ok {
				if p := e.At(time.Time{}, 1<<40); p != nil {
					if err := p.Check(); err != nil {
						t.Fatalf("loaded a bad price: %v", err)
					}
				}
				e.Varies()
			}
		}
	})
}

// TestCatalogConcurrent looks models up from several goroutines, as
// concurrent replays share one catalog (run with -race).
func TestCatalogConcurrent(t *testing.T) {
	cat := Default()
	done := make(chan Model)
	for i := range 8 {
		go func() {
			var m Model
			for j := range 50 {
				m = cat.LookupCall([]string{"claude-opus-4-6", "mystery", "o3"}[(i+j)%3])
			}
			done <- m
		}()
	}
	for range 8 {
		<-done
	}
	if m := cat.LookupCall("claude-opus-4-6"); m.Prices == nil || m.Prices.Input != 5 {
		t.Errorf("after concurrent lookups: %+v", m)
	}
}

// TestGeminiImplicitCache: Google's Gemini 2.5 and later cache prompts
// implicitly (ai.google.dev/gemini-api/docs/caching, 2026-10-13): free
// writes, reads at the cached price, so the rule is OpenAI's, with
// Google's minimums (2,048 for 2.5, 4,096 for 3). Older Gemini and the
// other providers' models keep the rule none.
func TestGeminiImplicitCache(t *testing.T) {
	for _, tc := range []struct {
		name string
		rule CacheRule
		min  int
	}{
		{"gemini-2.5-flash", CacheOpenAI, 2048},
		{"gemini-2.5-pro", CacheOpenAI, 2048},
		{"gemini-2.5-flash-lite", CacheOpenAI, 2048},
		{"google/gemini-2.5-flash", CacheOpenAI, 2048},
		{"gemini-3-pro-preview", CacheOpenAI, 4096},
		{"gemini-3.1-pro-preview", CacheOpenAI, 4096},
		{"gemini-2.0-flash", CacheNone, 0},
		{"gemini-1.5-pro", CacheNone, 0},
		{"not-gemini-2.5x", CacheNone, 0},
		{"gpt-5", CacheOpenAI, 0},
	} {
		m := Default().LookupCall(tc.name)
		if m.CacheRule() != tc.rule || m.MinCacheTokens != tc.min {
			t.Errorf("%s: rule %q min %d, want %q %d", tc.name, m.CacheRule(), m.MinCacheTokens, tc.rule, tc.min)
		}
	}
}

// Match rules nested deeper than MaxDepth are refused before they are
// decoded, naming the line and column (issue 35 item 6: 4,990 levels of
// or took 350 MB).
func TestLoadDepth(t *testing.T) {
	rule := func(n int) string {
		return strings.Repeat(`{"or": [`, n) + `{"equals": "m1"}` + strings.Repeat(`]}`, n)
	}
	file := func(n int) string {
		return `[{"id": "p", "models": [{"id": "m1", "match": ` + rule(n) + `, "prices": {"input_mtok": 1}}]}]`
	}
	// The file's own levels: the array, the provider, models, the model:
	// 4; then two for each rule of or, and the innermost rule: 4 + 2n + 1.
	if _, err := Load([]byte(file(29)), "f.json"); err != nil { // 63 levels
		t.Fatalf("29 levels of or: %v", err)
	}
	_, err := Load([]byte(file(30)), "f.json") // 65 levels
	// 30 rules of or end at level 4 + 60 = 64; the innermost rule opens
	// the 65th at byte 46 + 8·30 = 286 (column 287): before the rules,
	// `[{"id": "p", "models": [{"id": "m1", "match": ` is 46 bytes and each
	// `{"or": [` 8.
	if want := "f.json:1:287: nested more than 64 levels deep, the limit for price data (genai-prices' is 10)"; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %s", err, want)
	}
}

func TestCacheRuleNames(t *testing.T) {
	if got, want := strings.Join(CacheRuleNames(), ","), "anthropic,openai,none"; got != want {
		t.Errorf("CacheRuleNames = %s, want %s", got, want)
	}
	_, err := ParseCacheRule("gemini")
	if want := `unknown cache rule "gemini"; valid: anthropic, openai, none`; err == nil || err.Error() != want {
		t.Errorf("ParseCacheRule(gemini) = %v, want %s", err, want)
	}
}
