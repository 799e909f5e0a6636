package engine

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestReportWriteJSON: WriteJSON writes what encoding/json's indenting
// Encoder (no HTML escaping) writes for the same report, the reference,
// on hand-made edge cases and on random reports.
func TestReportWriteJSON(t *testing.T) {
	u := 1.0305555555555557
	tiny := 1e-9
	ref := time.Date(2026, 5, 29, 17, 19, 23, 500, time.UTC)
	odd := []string{"", "plain", "q\"uote\\", "<html>&", "tab\tnl\nret\r", "\b\f\x00\x1f", "\u2028\u2029", "bad\xffutf8\xc3", "模型 🚀", "/slash"}
	reasons := []Reason{ReasonPinned, ReasonSelected, ReasonDidNotFit, ReasonDimensionCap, ReasonConfidential, ReasonPriorityZero}
	cases := map[string]*Report{
		"zero":  {},
		"empty": {Kept: []Kept{}, Dropped: []Dropped{}, Skipped: []Skipped{}},
		"full": {Policy: "knapsack", Tokenizer: "o200k_base", Solver: "exact_dp", Utility: &u, ReferenceTime: &ref,
			Budget: BudgetReport{Total: 100, ReserveOutput: 10, Available: 90}, EffectiveBudget: 90, ConsumedTokens: 80,
			Input: InputReport{Items: 3, Tokens: 120}, SavedTokens: 40,
			Kept:    []Kept{{ID: "a<b>", Tokens: 40, Priority: 3, Reason: ReasonSelected}},
			Dropped: []Dropped{{ID: "c", Tokens: 5, Priority: 1, Reason: ReasonDidNotFit, Needed: 5, Left: 2}, {ID: "s", Reason: ReasonConfidential}},
			Skipped: []Skipped{{Line: 4, Error: "items.jsonl:4:1: bad <json> & \"more\""}}},
		"tiny utility": {Utility: &tiny, OverBudget: true, OverflowTokens: 7},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 20 {
		r := &Report{Policy: "recency", Tokenizer: "estimate"}
		for range rng.IntN(30) {
			id := odd[rng.IntN(len(odd))] + strings.Repeat("x", rng.IntN(3))
			if rng.IntN(2) == 0 {
				r.Kept = append(r.Kept, Kept{ID: id, Tokens: rng.IntN(1000), Priority: rng.IntN(10) - 2, Reason: reasons[rng.IntN(len(reasons))]})
			} else {
				r.Dropped = append(r.Dropped, Dropped{ID: id, Tokens: rng.IntN(1000), Priority: rng.IntN(10), Reason: reasons[rng.IntN(len(reasons))], Needed: rng.IntN(50), Left: rng.IntN(50)})
			}
		}
		cases["random "+string(rune('a'+n))] = r
	}
	for name, r := range cases {
		t.Run(name, func(t *testing.T) {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(r); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := r.WriteJSON(&got); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("WriteJSON:\n%s\nencoding/json:\n%s", got.String(), want.String())
			}
		})
	}
}

// TestReportWriteJSONLarge: a report larger than the writer's buffer
// comes out whole and as encoding/json writes it.
func TestReportWriteJSONLarge(t *testing.T) {
	r := &Report{}
	for i := range 5000 {
		r.Kept = append(r.Kept, Kept{ID: strings.Repeat("k", i%40), Tokens: i, Reason: ReasonSelected})
		r.Dropped = append(r.Dropped, Dropped{ID: "d", Tokens: i, Reason: ReasonDidNotFit, Needed: i, Left: 1})
	}
	want, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := r.WriteJSON(&got); err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want)+"\n" {
		t.Errorf("large report differs (%d bytes, want %d)", got.Len(), len(want)+1)
	}
}

// BenchmarkReportWriteJSON: 100,000 entries, the size of
// scripts/bench-synthesize.sh's report.
func BenchmarkReportWriteJSON(b *testing.B) {
	r := &Report{}
	for i := range 50000 {
		r.Kept = append(r.Kept, Kept{ID: "it-" + strings.Repeat("7", i%6), Tokens: i, Priority: 1, Reason: ReasonSelected})
		r.Dropped = append(r.Dropped, Dropped{ID: "it-9", Tokens: i, Priority: 2, Reason: ReasonDidNotFit, Needed: i, Left: 3})
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.WriteJSON(&buf); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// BenchmarkReportEncodingJSON is BenchmarkReportWriteJSON's report
// through encoding/json's indenting Encoder, for comparison.
func BenchmarkReportEncodingJSON(b *testing.B) {
	r := &Report{}
	for i := range 50000 {
		r.Kept = append(r.Kept, Kept{ID: "it-" + strings.Repeat("7", i%6), Tokens: i, Priority: 1, Reason: ReasonSelected})
		r.Dropped = append(r.Dropped, Dropped{ID: "it-9", Tokens: i, Priority: 2, Reason: ReasonDidNotFit, Needed: i, Left: 3})
	}
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}
