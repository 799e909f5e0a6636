package cost

import (
	"testing"
	"time"
)

// TestStepEvidence works the eviction rule of [Simulator.Step] by hand on
// Anthropic and OpenAI. The window: front S 2,000 (a breakpoint), then a
// block per call: A 1,000, B 1,000, C 1,000, D 1,000; calls 10 s apart, no
// output, so only the parts are compared.
func TestStepEvidence(t *testing.T) {
	front := Block{ID: "S", Tokens: 2000, Breakpoint: true}
	blk := func(id string) []Block { return []Block{{ID: id, Tokens: 1000}} }
	type call struct {
		evidence bool
		held     int
		want     Parts
		evicted  bool
	}
	for _, tc := range []struct {
		name, model string
		calls       []call
	}{
		{"anthropic", "claude-sonnet-4-5", []call{
			// 1: window 3,000, nothing to read: write 3,000 (entries at
			//    S 2,000 and S A 3,000).
			{want: Parts{Write: 3000}},
			// 2: the record reads 3,000, as the model: no cut.
			{evidence: true, held: 3000, want: Parts{Read: 3000, Write: 1000}},
			// 3: the model would read 4,000, the record 0: every entry
			//    is cut to 0, 5,000 written.
			{evidence: true, held: 0, want: Parts{Write: 5000}, evicted: true},
			// 4: the record reads 2,030, the model 5,000: the entries
			//    over 2,030 beyond the slack (50 tokens) are cut to
			//    2,030, which is read; 3,970 written.
			{evidence: true, held: 2030, want: Parts{Read: 2030, Write: 3970}, evicted: true},
			// 5: the record reads 6,000 less 40 (within the slack of the
			//    model's 6,000): no cut, the model's read stands.
			{evidence: true, held: 5960, want: Parts{Read: 6000, Write: 1000}},
		}},
		{"openai", "gpt-5", []call{
			// 1: 3,000 uncached.
			{want: Parts{Uncached: 3000}},
			// 2: shares 3,000 → 2,944 read; the record says more (3,000):
			//    the evidence only ever cuts.
			{evidence: true, held: 3000, want: Parts{Read: 2944, Uncached: 1056}},
			// 3: shares 4,000 → 3,968; the record reads 1,500: cut to
			//    1,500 → 1,408 read.
			{evidence: true, held: 1500, want: Parts{Read: 1408, Uncached: 3592}, evicted: true},
			// 4: shares 5,000 → 4,992 (the cut does not outlive the call).
			{want: Parts{Read: 4992, Uncached: 1008}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSimulator(Options{})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			for i, c := range tc.calls {
				st := Step{Model: tc.model, Time: at.Add(time.Duration(i) * 10 * time.Second), Front: front,
					Keep: i, Append: blk(string(rune('A' + i))), Evidence: c.evidence, Held: c.held}
				got := s.Step(st)
				if got.Cache != c.want || got.Evicted != c.evicted {
					t.Errorf("call %d: got %+v evicted %v, want %+v evicted %v", i+1, got.Cache, got.Evicted, c.want, c.evicted)
				}
			}
		})
	}
}
