package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// n returns a pointer to v, for the optional fields.
func n[T any](v T) *T { return &v }

// at is a timestamp on 2026-05-20 at hh:mm UTC.
func at(hhmm string) *time.Time {
	t, err := time.Parse(time.RFC3339, "2026-05-20T"+hhmm+":00Z")
	if err != nil {
		panic(err)
	}
	return &t
}

// it builds an item with a given size and priority.
func it(id string, tokens, priority int) Item {
	return Item{ID: id, Content: "text of " + id, Priority: priority, TokenCount: &tokens}
}

func with(i Item, f func(*Item)) Item { f(&i); return i }

// summary turns a report into short strings: "id=reason" for kept items,
// "id=reason(needed/left)" for did_not_fit and dimension_cap.
func summary(r *Report) (kept, dropped string) {
	var k, d []string
	for _, e := range r.Kept {
		k = append(k, fmt.Sprintf("%s=%s", e.ID, e.Reason))
	}
	for _, e := range r.Dropped {
		s := fmt.Sprintf("%s=%s", e.ID, e.Reason)
		if e.Reason == ReasonDidNotFit || e.Reason == ReasonDimensionCap {
			s += fmt.Sprintf("(%d/%d)", e.Needed, e.Left)
		}
		d = append(d, s)
	}
	return strings.Join(k, " "), strings.Join(d, " ")
}

func TestSynthesize(t *testing.T) {
	tests := []struct {
		name     string
		items    []Item
		budget   Budget
		opts     Options
		kept     string
		dropped  string
		consumed int
		effect   int
		input    int // input tokens
	}{
		{
			// a is always kept (30); 70 left. Priority order c(3) b(5) d(7):
			// c 40 → 30 left; b 50 > 30 does not fit; d 10 → 20 left.
			name:     "lowest priority keeps scanning after a miss",
			items:    []Item{it("a", 30, 0), it("b", 50, 5), it("c", 40, 3), it("d", 10, 7)},
			budget:   Budget{Total: 100},
			kept:     "a=priority_zero c=selected d=selected",
			dropped:  "b=did_not_fit(50/30)",
			consumed: 80, effect: 100, input: 130,
		},
		{
			// Equal priority: newer first. y (11:00) then x (10:00) then z
			// (no timestamp, older than any). y 60 → 40 left; x, z miss.
			name: "lowest priority ties go to the newer",
			items: []Item{
				with(it("x", 60, 5), func(i *Item) { i.Timestamp = at("10:00") }),
				with(it("y", 60, 5), func(i *Item) { i.Timestamp = at("11:00") }),
				it("z", 60, 5),
			},
			budget:   Budget{Total: 100},
			kept:     "y=selected",
			dropped:  "x=did_not_fit(60/40) z=did_not_fit(60/40)",
			consumed: 60, effect: 100, input: 180,
		},
		{
			// No timestamps, equal priority: the later line is newer.
			name:     "lowest priority without timestamps prefers the later line",
			items:    []Item{it("e1", 60, 5), it("e2", 60, 5)},
			budget:   Budget{Total: 100},
			kept:     "e2=selected",
			dropped:  "e1=did_not_fit(60/40)",
			consumed: 60, effect: 100, input: 120,
		},
		{
			// Equal timestamps: the later line is newer, so q before p.
			name: "equal timestamps fall back to the line",
			items: []Item{
				with(it("p", 60, 5), func(i *Item) { i.Timestamp = at("10:00") }),
				with(it("q", 60, 5), func(i *Item) { i.Timestamp = at("10:00") }),
			},
			budget:   Budget{Total: 100},
			kept:     "q=selected",
			dropped:  "p=did_not_fit(60/40)",
			consumed: 60, effect: 100, input: 120,
		},
		{
			// Recency ignores priority: new (12:00) 50 → 50 left; mid
			// (09:00) 40 → 10 left; none (no timestamp, oldest) 20 misses;
			// none2 is later than none but also has no timestamp: it
			// comes before none and misses too (20 > 10).
			name: "recency takes the newest first",
			items: []Item{
				it("none", 20, 1),
				with(it("mid", 40, 9), func(i *Item) { i.Timestamp = at("09:00") }),
				with(it("new", 50, 9), func(i *Item) { i.Timestamp = at("12:00") }),
				it("none2", 20, 1),
			},
			budget:   Budget{Total: 100},
			opts:     Options{Policy: PolicyRecency},
			kept:     "mid=selected new=selected",
			dropped:  "none=did_not_fit(20/10) none2=did_not_fit(20/10)",
			consumed: 90, effect: 100, input: 130,
		},
		{
			// Recency without any timestamp: last line first. l3 30 → 20
			// left, l2 30 misses, l1 10 → 10 left.
			name:     "recency without timestamps is reverse input order",
			items:    []Item{it("l1", 10, 5), it("l2", 30, 5), it("l3", 30, 5)},
			budget:   Budget{Total: 50},
			opts:     Options{Policy: PolicyRecency},
			kept:     "l1=selected l3=selected",
			dropped:  "l2=did_not_fit(30/20)",
			consumed: 40, effect: 50, input: 70,
		},
		{
			// First come: f1 30 → 20 left; f2 30 misses; f3 20 → 0 left.
			name:     "input order is first come first served",
			items:    []Item{it("f1", 30, 9), it("f2", 30, 1), it("f3", 20, 5)},
			budget:   Budget{Total: 50},
			opts:     Options{Policy: PolicyInputOrder},
			kept:     "f1=selected f3=selected",
			dropped:  "f2=did_not_fit(30/20)",
			consumed: 50, effect: 50, input: 80,
		},
		{
			// Relevance descending, absent = 0: hi (0.9, p5) and hi2 (0.9,
			// p2) tie on relevance, so priority decides: hi2 then hi; then
			// none (absent = 0) and neg (-0.5). Budget 60: hi2 20 → 40,
			// hi 20 → 20, none 30 misses, neg 20 → 0.
			name: "relevance then priority then newer",
			items: []Item{
				with(it("hi", 20, 5), func(i *Item) { i.Relevance = n(0.9) }),
				with(it("neg", 20, 1), func(i *Item) { i.Relevance = n(-0.5) }),
				it("none", 30, 1),
				with(it("hi2", 20, 2), func(i *Item) { i.Relevance = n(0.9) }),
			},
			budget:   Budget{Total: 60},
			opts:     Options{Policy: PolicyRelevance},
			kept:     "hi=selected neg=selected hi2=selected",
			dropped:  "none=did_not_fit(30/20)",
			consumed: 60, effect: 60, input: 90,
		},
		{
			// Group g = call (p8, 20) + result (p2, 50): one candidate of
			// 70 with rank p2, before s (p3, 40). g → 30 left; s misses.
			name: "a group is one candidate with its best member's rank",
			items: []Item{
				with(it("call", 20, 8), func(i *Item) { i.Group = "g" }),
				it("s", 40, 3),
				with(it("result", 50, 2), func(i *Item) { i.Group = "g" }),
			},
			budget:   Budget{Total: 100},
			kept:     "call=selected result=selected",
			dropped:  "s=did_not_fit(40/30)",
			consumed: 70, effect: 100, input: 110,
		},
		{
			// The group needs 70 but only 60 is left after s (p1, 40):
			// both members are dropped, each naming the group's need.
			name: "a group that does not fit is dropped whole",
			items: []Item{
				it("s", 40, 1),
				with(it("call", 20, 8), func(i *Item) { i.Group = "g" }),
				with(it("result", 50, 2), func(i *Item) { i.Group = "g" }),
			},
			budget:   Budget{Total: 100},
			kept:     "s=selected",
			dropped:  "call=did_not_fit(70/60) result=did_not_fit(70/60)",
			consumed: 40, effect: 100, input: 110,
		},
		{
			// Interleaved groups: g1 = a + d (25, rank p2 from d), b (30,
			// p1), g2 = c + e (25, rank p3). b → 30 left; g1 → 5 left; g2
			// needs 25: dropped whole (25/5).
			name: "interleaved groups",
			items: []Item{
				with(it("a", 10, 5), func(i *Item) { i.Group = "g1" }),
				it("b", 30, 1),
				with(it("c", 20, 3), func(i *Item) { i.Group = "g2" }),
				with(it("d", 15, 2), func(i *Item) { i.Group = "g1" }),
				with(it("e", 5, 9), func(i *Item) { i.Group = "g2" }),
			},
			budget:   Budget{Total: 60},
			kept:     "a=selected b=selected d=selected",
			dropped:  "c=did_not_fit(25/5) e=did_not_fit(25/5)",
			consumed: 55, effect: 60, input: 80,
		},
		{
			// sys is pinned, so its group-mate is kept too (reason group),
			// even at priority 9; 100 − 10 − 30 = 60 left; o 70 misses.
			name: "a group with an always-kept member is kept whole",
			items: []Item{
				with(it("sys", 10, 5), func(i *Item) { i.Pinned = true; i.Group = "boot" }),
				with(it("mate", 30, 9), func(i *Item) { i.Group = "boot" }),
				it("o", 70, 1),
			},
			budget:   Budget{Total: 100},
			kept:     "sys=pinned mate=group",
			dropped:  "o=did_not_fit(70/60)",
			consumed: 40, effect: 100, input: 110,
		},
		{
			// pinned wins over priority_zero; invariant by dimension.
			name: "always-kept reasons",
			items: []Item{
				with(it("both", 5, 0), func(i *Item) { i.Pinned = true }),
				it("zero", 5, 0),
				with(it("inv", 5, 9), func(i *Item) { i.Dimension = DimensionInvariant }),
			},
			budget:   Budget{Total: 100},
			kept:     "both=pinned zero=priority_zero inv=invariant",
			consumed: 15, effect: 100, input: 15,
		},
		{
			// Cap retrieval = 30. r1 (p1, 20) → cap left 10; r2 (p2, 20)
			// exceeds the cap: dimension_cap (20/10); h (history) 20 fits.
			// The pinned retrieval item p does not count against the cap.
			name: "a dimension cap bounds the selected tokens",
			items: []Item{
				with(it("p", 25, 1), func(i *Item) { i.Dimension = "retrieval"; i.Pinned = true }),
				with(it("r1", 20, 1), func(i *Item) { i.Dimension = "retrieval" }),
				with(it("r2", 20, 2), func(i *Item) { i.Dimension = "retrieval" }),
				with(it("h", 20, 3), func(i *Item) { i.Dimension = "history" }),
			},
			budget:   Budget{Total: 200},
			opts:     Options{Caps: []Cap{{Dimension: "retrieval", Limit: Amount{N: 30}}}},
			kept:     "p=pinned r1=selected h=selected",
			dropped:  "r2=dimension_cap(20/10)",
			consumed: 65, effect: 200, input: 85,
		},
		{
			// 25% of available (100 − 20 output = 80) is 20: r1 (20) fills
			// the cap exactly, r2 (5) is capped (5/0).
			name: "a percentage cap is of the available budget",
			items: []Item{
				with(it("r1", 20, 1), func(i *Item) { i.Dimension = "retrieval" }),
				with(it("r2", 5, 2), func(i *Item) { i.Dimension = "retrieval" }),
			},
			budget:   Budget{Total: 100, ReserveOutput: 20},
			opts:     Options{Caps: []Cap{{Dimension: "retrieval", Limit: Amount{N: 25, Percent: true}}}},
			kept:     "r1=selected",
			dropped:  "r2=dimension_cap(5/0)",
			consumed: 20, effect: 80, input: 25,
		},
		{
			// Group of tool (15) + retrieval (15), caps tool=20,
			// retrieval=10: the retrieval member needs 15 > 10, so the
			// whole group is capped, naming that dimension (15/10).
			name: "a group counts each member against its own cap",
			items: []Item{
				with(it("t", 15, 1), func(i *Item) { i.Dimension = "tool"; i.Group = "g" }),
				with(it("r", 15, 1), func(i *Item) { i.Dimension = "retrieval"; i.Group = "g" }),
			},
			budget: Budget{Total: 100},
			opts: Options{Caps: []Cap{
				{Dimension: "tool", Limit: Amount{N: 20}},
				{Dimension: "retrieval", Limit: Amount{N: 10}},
			}},
			dropped:  "t=dimension_cap(15/10) r=dimension_cap(15/10)",
			consumed: 0, effect: 100, input: 30,
		},
		{
			// Needs 60 of 50 left and exceeds the cap of 10: the budget is
			// checked first, so did_not_fit.
			name: "did_not_fit is checked before the cap",
			items: []Item{
				with(it("big", 60, 1), func(i *Item) { i.Dimension = "tool" }),
			},
			budget:   Budget{Total: 50},
			opts:     Options{Caps: []Cap{{Dimension: "tool", Limit: Amount{N: 10}}}},
			dropped:  "big=did_not_fit(60/50)",
			consumed: 0, effect: 50, input: 60,
		},
		{
			// Remote: the secret is withheld and never counted (input 40).
			name: "confidential items are withheld for a remote destination",
			items: []Item{
				with(it("secret", 10, 0), func(i *Item) { i.Confidential = true }),
				it("open", 40, 5),
			},
			budget:   Budget{Total: 100},
			kept:     "open=selected",
			dropped:  "secret=confidential",
			consumed: 40, effect: 100, input: 40,
		},
		{
			name: "confidential items are kept for a local destination",
			items: []Item{
				with(it("secret", 10, 0), func(i *Item) { i.Confidential = true }),
				it("open", 40, 5),
			},
			budget:   Budget{Total: 100},
			opts:     Options{Destination: DestinationLocal},
			kept:     "secret=priority_zero open=selected",
			consumed: 50, effect: 100, input: 50,
		},
		{
			// available = 100 − 10 = 90; pinned 95 > 90 but ≤ 100: the
			// ceiling grows to 95 and nothing else is added.
			name: "dynamic expansion into the safety margin",
			items: []Item{
				with(it("pin", 95, 5), func(i *Item) { i.Pinned = true }),
				it("small", 1, 1),
			},
			budget:   Budget{Total: 100, SafetyMargin: 10},
			kept:     "pin=pinned",
			dropped:  "small=did_not_fit(1/0)",
			consumed: 95, effect: 95, input: 96,
		},
		{
			// Exactly available + margin (100) is still expansion.
			name: "expansion up to the whole margin",
			items: []Item{
				with(it("pin", 100, 5), func(i *Item) { i.Pinned = true }),
			},
			budget:   Budget{Total: 100, SafetyMargin: 10},
			kept:     "pin=pinned",
			consumed: 100, effect: 100, input: 100,
		},
		{
			// Always-kept exactly available: no expansion, capacity 0; a
			// zero-token item still fits (0 ≤ 0).
			name: "always-kept equal to available leaves room for nothing but zero",
			items: []Item{
				it("z", 90, 0), it("empty", 0, 5), it("one", 1, 5),
			},
			budget:   Budget{Total: 100, SafetyMargin: 10},
			kept:     "z=priority_zero empty=selected",
			dropped:  "one=did_not_fit(1/0)",
			consumed: 90, effect: 90, input: 91,
		},
		{
			// 120 > 90 + 10: over budget by 20; the ceiling is 100.
			name: "over budget",
			items: []Item{
				with(it("pin", 120, 5), func(i *Item) { i.Pinned = true }),
				it("other", 1, 1),
			},
			budget:   Budget{Total: 100, SafetyMargin: 10},
			kept:     "pin=pinned",
			dropped:  "other=over_budget",
			consumed: 120, effect: 100, input: 121,
		},
		{
			name:   "empty input",
			budget: Budget{Total: 100},
			effect: 100,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Synthesize(context.Background(), tt.items, tt.budget, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			kept, dropped := summary(r)
			if kept != tt.kept {
				t.Errorf("kept %q, want %q", kept, tt.kept)
			}
			if dropped != tt.dropped {
				t.Errorf("dropped %q, want %q", dropped, tt.dropped)
			}
			if r.ConsumedTokens != tt.consumed || r.EffectiveBudget != tt.effect || r.Input.Tokens != tt.input {
				t.Errorf("consumed %d effective %d input %d, want %d %d %d",
					r.ConsumedTokens, r.EffectiveBudget, r.Input.Tokens, tt.consumed, tt.effect, tt.input)
			}
			if want := max(tt.effect-tt.consumed, 0); r.RemainingTokens != want {
				t.Errorf("remaining %d, want %d", r.RemainingTokens, want)
			}
			if r.SavedTokens != tt.input-tt.consumed {
				t.Errorf("saved %d, want %d", r.SavedTokens, tt.input-tt.consumed)
			}
			if r.Input.Items != len(tt.items) {
				t.Errorf("input items %d, want %d", r.Input.Items, len(tt.items))
			}
		})
	}
}

func TestSynthesizeOverBudget(t *testing.T) {
	items := []Item{with(it("pin", 120, 5), func(i *Item) { i.Pinned = true })}
	b := Budget{Total: 100, SafetyMargin: 10}
	r, err := Synthesize(context.Background(), items, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 120 − (90 + 10) = 20.
	if !r.OverBudget || r.OverflowTokens != 20 || r.RemainingTokens != 0 {
		t.Errorf("over %v overflow %d remaining %d, want true 20 0", r.OverBudget, r.OverflowTokens, r.RemainingTokens)
	}
	r, err = Synthesize(context.Background(), items, b, Options{Strict: true})
	var obe *OverBudgetError
	if !errors.As(err, &obe) {
		t.Fatalf("strict: err %v, want *OverBudgetError", err)
	}
	if obe.AlwaysKept != 120 || obe.Ceiling != 100 || obe.Overflow != 20 || r == nil {
		t.Errorf("strict: %+v report %v", obe, r)
	}
	// Expansion is not over budget, so strict accepts it.
	b.Total, b.SafetyMargin = 125, 10 // available 115, ceiling 125
	if _, err := Synthesize(context.Background(), items, b, Options{Strict: true}); err != nil {
		t.Errorf("strict with expansion: %v", err)
	}
}

func TestSynthesizeErrors(t *testing.T) {
	ok := []Item{it("a", 1, 1)}
	tests := []struct {
		name   string
		items  []Item
		budget Budget
		opts   Options
		want   string
	}{
		{"reserves over total", ok, Budget{Total: 100, ReserveOutput: 60, ReserveTools: 30, SafetyMargin: 20},
			Options{}, "reserves (60 output + 30 tools + 20 safety margin = 110) exceed the budget of 100"},
		{"negative total", ok, Budget{Total: -1}, Options{}, "budget must be ≥ 0, got -1"},
		{"unknown policy", ok, Budget{Total: 1}, Options{Policy: "lowest"},
			`unknown policy "lowest"; valid: lowest_priority, recency, input_order, relevance`},
		{"unknown destination", ok, Budget{Total: 1}, Options{Destination: "mars"},
			`unknown destination "mars"; valid: remote, local`},
		{"negative priority", []Item{it("a", 1, -1)}, Budget{Total: 1}, Options{},
			`item 0 ("a"): priority must be ≥ 0, got -1`},
		{"negative token count", []Item{it("a", -2, 1)}, Budget{Total: 1}, Options{},
			`item 0 ("a"): token count must be ≥ 0, got -2`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Synthesize(context.Background(), tt.items, tt.budget, tt.opts)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err %v, want %q", err, tt.want)
			}
		})
	}
}

// bytesCounter counts bytes, to check that the counter is used and named.
type bytesCounter struct{}

func (bytesCounter) Count(_ context.Context, s string) (int, error) { return len(s), nil }
func (bytesCounter) Name() string                                   { return "bytes" }

func TestSynthesizeCounts(t *testing.T) {
	items := []Item{
		{ID: "given", Content: "twelve bytes", TokenCount: n(3), Priority: 1},
		{ID: "counted", Content: "twelve bytes", Priority: 1},
	}
	r, err := Synthesize(context.Background(), items, Budget{Total: 100}, Options{Counter: bytesCounter{}})
	if err != nil {
		t.Fatal(err)
	}
	// given: 3 (trusted); counted: 12 bytes.
	if r.Tokenizer != "bytes" || r.Kept[0].Tokens != 3 || r.Kept[1].Tokens != 12 {
		t.Errorf("tokenizer %s tokens %d %d, want bytes 3 12", r.Tokenizer, r.Kept[0].Tokens, r.Kept[1].Tokens)
	}
	// Estimate: "twelve bytes" is 2 pieces, 12 chars / 4 = 3 → 3.
	r, _ = Synthesize(context.Background(), items[1:], Budget{Total: 100}, Options{})
	if r.Tokenizer != "estimate" || r.Kept[0].Tokens != 3 {
		t.Errorf("estimate: %s %d, want estimate 3", r.Tokenizer, r.Kept[0].Tokens)
	}
}

func TestReferenceTime(t *testing.T) {
	t1, _ := time.Parse(time.RFC3339, "2026-05-20T16:03:00+02:00") // 14:03Z
	t2, _ := time.Parse(time.RFC3339, "2026-05-20T13:00:00Z")
	t3, _ := time.Parse(time.RFC3339, "2026-05-20T15:00:00Z") // newest, confidential
	items := []Item{
		{ID: "a", Content: "a", Priority: 1, Timestamp: &t1},
		{ID: "b", Content: "b", Priority: 1, Timestamp: &t2},
		{ID: "c", Content: "c", Priority: 1, Timestamp: &t3, Confidential: true},
		{ID: "d", Content: "d", Priority: 1},
	}
	r, err := Synthesize(context.Background(), items, Budget{Total: 100}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The newest of all items read, withheld ones included, in UTC.
	b, _ := json.Marshal(r.ReferenceTime)
	if string(b) != `"2026-05-20T15:00:00Z"` {
		t.Errorf("reference time %s, want 2026-05-20T15:00:00Z", b)
	}
	r, _ = Synthesize(context.Background(), items[:2], Budget{Total: 100}, Options{})
	b, _ = json.Marshal(r.ReferenceTime)
	if string(b) != `"2026-05-20T14:03:00Z"` {
		t.Errorf("reference time %s, want 2026-05-20T14:03:00Z", b)
	}
	r, _ = Synthesize(context.Background(), items[3:], Budget{Total: 100}, Options{})
	if r.ReferenceTime != nil {
		t.Errorf("reference time %v, want nil", r.ReferenceTime)
	}
}

// TestReportJSON pins the JSON shape of SPEC §4 on the first table case.
func TestReportJSON(t *testing.T) {
	items := []Item{it("a", 30, 0), it("b", 50, 5), it("c", 40, 3), it("d", 10, 7),
		with(it("s", 9, 5), func(i *Item) { i.Confidential = true; i.Timestamp = at("14:03") })}
	r, err := Synthesize(context.Background(), items, Budget{Total: 120, ReserveOutput: 10, SafetyMargin: 10}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// available 120 − 10 − 10 = 100; a 30 kept, 70 left: c 40 → 30,
	// b 50 misses (50/30), d 10 → 20. Consumed 80 of input 130.
	want := `{"policy":"lowest_priority","tokenizer":"estimate",` +
		`"budget":{"total":120,"reserve_output":10,"reserve_tools":0,"safety_margin":10,"available":100},` +
		`"effective_budget":100,"consumed_tokens":80,"remaining_tokens":20,"over_budget":false,"overflow_tokens":0,` +
		`"reference_time":"2026-05-20T14:03:00Z","input":{"items":5,"tokens":130},"saved_tokens":50,` +
		`"kept":[{"id":"a","tokens":30,"priority":0,"reason":"priority_zero"},{"id":"c","tokens":40,"priority":3,"reason":"selected"},{"id":"d","tokens":10,"priority":7,"reason":"selected"}],` +
		`"dropped":[{"id":"b","tokens":50,"priority":5,"reason":"did_not_fit","needed":50,"left":30},{"id":"s","reason":"confidential"}],` +
		`"skipped":[]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestPolicyNames(t *testing.T) {
	got := strings.Join(PolicyNames(), ",")
	if !strings.HasPrefix(got, "lowest_priority,recency,input_order,relevance") {
		t.Errorf("PolicyNames() = %s", got)
	}
	if _, err := LookupPolicy(""); err != nil {
		t.Errorf("default policy: %v", err)
	}
}

// TestPluggedPolicy checks the contract another package's policy relies
// on: candidates, capacity, caps and the Tracker.
func TestPluggedPolicy(t *testing.T) {
	var seen *Problem
	Register("test_take_last", PolicyFunc(func(p *Problem) (Selection, error) {
		seen = p
		out := make([]Outcome, len(p.Candidates))
		tr := p.NewTracker()
		for c := len(p.Candidates) - 1; c >= 0; c-- {
			out[c] = tr.Try(c)
		}
		u := 1.5
		return Selection{Outcomes: out, Solver: "test", Utility: &u}, nil
	}))
	items := []Item{
		it("pin", 10, 0),
		with(it("g1", 20, 5), func(i *Item) { i.Group = "g" }),
		it("solo", 30, 5),
		with(it("g2", 20, 5), func(i *Item) { i.Group = "g" }),
	}
	r, err := Synthesize(context.Background(), items, Budget{Total: 80}, Options{Policy: "test_take_last"})
	if err != nil {
		t.Fatal(err)
	}
	// Candidates in input order of their first member: g (g1+g2, 40),
	// solo (30). Capacity 80 − 10 = 70. Taken last first: solo → 40
	// left, g 40 → 0 left.
	if len(seen.Candidates) != 2 || seen.Capacity != 70 ||
		fmt.Sprint(seen.Candidates[0].Members) != "[1 3]" || seen.Candidates[0].Tokens != 40 || seen.Candidates[0].Group != "g" {
		t.Errorf("problem: %+v capacity %d", seen.Candidates, seen.Capacity)
	}
	if r.Solver != "test" || *r.Utility != 1.5 || r.ConsumedTokens != 80 {
		t.Errorf("solver %q utility %v consumed %d", r.Solver, *r.Utility, r.ConsumedTokens)
	}
	if !strings.Contains(strings.Join(PolicyNames(), ","), ",test_take_last") {
		t.Errorf("PolicyNames() lacks the registered policy: %v", PolicyNames())
	}
}
