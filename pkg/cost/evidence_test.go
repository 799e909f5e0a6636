package cost

import (
	"math"
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
			//    1,500, read as recorded (the provider's read is already
			//    in its own steps; Gemini's implicit cache records any
			//    size), 3,500 of the 5,000 uncached.
			{evidence: true, held: 1500, want: Parts{Read: 1500, Uncached: 3500}, evicted: true},
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

// TestStepEvidenceExact works the record taken to the token and both
// ways by hand (claude-sonnet-4-5, minimum 1,024 tokens): the window is
// front S 2,000 (a breakpoint) and a 1,000-token block a call.
func TestStepEvidenceExact(t *testing.T) {
	front := Block{ID: "S", Tokens: 2000, Breakpoint: true}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	s, err := NewSimulator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		st                    Step
		want                  Parts
		evicted, cut, floored bool
	}{
		// 1: nothing to read: 3,000 written.
		{Step{}, Parts{Write: 3000}, false, false, false},
		// 2: the model reads 3,000, the record 2,990: within the slack,
		//    so only an exact step cuts it; 1,010 written.
		{Step{Evidence: true, Held: 2990, Exact: true}, Parts{Read: 2990, Write: 1010}, false, true, false},
		// 3: the model reads call 2's 4,000, the record 4,500 (the
		//    provider held more): read 4,500, write 500.
		{Step{Floor: 4500}, Parts{Read: 4500, Write: 500}, false, false, true},
		// 4: without evidence the model's read stands: call 3's 5,000.
		{Step{}, Parts{Read: 5000, Write: 1000}, false, false, false},
		// 5: the same slack without Exact: no cut.
		{Step{Evidence: true, Held: 5990}, Parts{Read: 6000, Write: 1000}, false, false, false},
	} {
		st := c.st
		st.Model, st.Time, st.Front, st.Keep = "claude-sonnet-4-5", at.Add(time.Duration(i)*10*time.Second), front, i
		st.Append = []Block{{ID: string(rune('A' + i)), Tokens: 1000}}
		got := s.Step(st)
		if got.Cache != c.want || got.Evicted != c.evicted || got.Cut != c.cut || got.Floored != c.floored {
			t.Errorf("call %d: got %+v evicted %v cut %v floored %v, want %+v %v %v %v", i+1, got.Cache,
				got.Evicted, got.Cut, got.Floored, c.want, c.evicted, c.cut, c.floored)
		}
	}

	// Below the minimum: a 300-token front and 200-token blocks. The
	// model sends 500 and 700 tokens uncached; where the record shows
	// the provider cached them (Cached), 500 is written, then read.
	for _, cached := range []bool{false, true} {
		s, _ := NewSimulator(Options{})
		want := []Parts{{Uncached: 500}, {Uncached: 700}}
		if cached {
			want = []Parts{{Write: 500}, {Read: 500, Write: 200}}
		}
		for i := range want {
			blocks := []Block{{ID: "A", Tokens: 200}, {ID: "B", Tokens: 200}}
			got := s.Step(Step{Model: "claude-sonnet-4-5", Time: at.Add(time.Duration(i) * 10 * time.Second),
				Front: Block{ID: "S", Tokens: 300, Breakpoint: true}, Keep: i, Append: blocks[i : i+1], Cached: cached})
			if got.Cache != want[i] {
				t.Errorf("cached %v call %d: got %+v, want %+v", cached, i+1, got.Cache, want[i])
			}
		}
	}
}

// TestStepUnsent works [Step.Unsent] by hand on claude-sonnet-4-5 ($3.75
// a million written, $0.30 read): a harness that cleared 2,500 tokens of
// old results in place, which the window still holds. Window: front S
// 1,000 (a breakpoint), then A 5,000; call 2 appends B 3,000, call 3 C
// 400; 10 s apart, no output.
//
//	1: 6,000, cold: write 6,000 (22,500 µ$).
//	2: 9,000, the record reads 0 (the rewritten prompt matches nothing)
//	   and holds 6,500: write 9,000 − 2,500 = 6,500 (24,375 µ$).
//	3: 9,400, the record reads 6,500 of a 6,900-token prompt: the model
//	   would read call 2's 9,000, cut to 6,500; write 9,400 − 6,500 −
//	   2,500 = 400: 6,500×0.30 + 400×3.75 = 1,950 + 1,500 = 3,450 µ$
//	   (10,875 µ$ with the 2,500 unsent tokens written again).
func TestStepUnsent(t *testing.T) {
	s, err := NewSimulator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	front := Block{ID: "S", Tokens: 1000, Breakpoint: true}
	steps := []Step{
		{Append: []Block{{ID: "A", Tokens: 5000}}},
		{Keep: 1, Append: []Block{{ID: "B", Tokens: 3000}}, Evidence: true, Exact: true, Held: 0, Unsent: 2500},
		{Keep: 2, Append: []Block{{ID: "C", Tokens: 400}}, Evidence: true, Exact: true, Held: 6500, Floor: 6500, Unsent: 2500},
	}
	want := []struct {
		p   Parts
		usd float64
	}{
		{Parts{Write: 6000}, 0.0225},
		{Parts{Write: 6500}, 0.024375},
		{Parts{Read: 6500, Write: 400}, 0.00345},
	}
	for i, st := range steps {
		st.Model, st.Front, st.Time = "claude-sonnet-4-5", front, at.Add(time.Duration(i)*10*time.Second)
		cc := s.Step(st)
		if cc.Cache != want[i].p || math.Abs(cc.CostUSD-want[i].usd) > 1e-12 {
			t.Errorf("call %d: %+v $%v, want %+v $%v", i+1, cc.Cache, cc.CostUSD, want[i].p, want[i].usd)
		}
	}
}

// TestStepTTL works [Step.TTL] by hand on claude-sonnet-4-5 ($6 a
// million for a 1-hour write, $3.75 for a 5-minute one, $0.30 read), the
// simulator's own TTL 5 minutes. Front S 5,000 (a breakpoint), then a
// block of 1,000 a call; no output.
//
//	1: TTL 1h: write 6,000 at $6: 36,000 µ$.
//	2: 10 minutes later, no TTL of its own: call 1's 1-hour entry is
//	   live: read 6,000, write 1,000 at $3.75: 1,800 + 3,750 = 5,550 µ$.
//	3: 10 s later, TTL 5m: read call 2's 7,000, write 1,000 at $3.75:
//	   2,100 + 3,750 = 5,850 µ$.
//
// Without call 1's TTL its entry would have expired at call 2 (7,000
// written, 26,250 µ$), and call 1 would have cost 22,500 µ$.
func TestStepTTL(t *testing.T) {
	s, err := NewSimulator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	front := Block{ID: "S", Tokens: 5000, Breakpoint: true}
	steps := []Step{
		{Time: at, TTL: AnthropicLongTTL, Append: []Block{{ID: "A", Tokens: 1000}}},
		{Time: at.Add(10 * time.Minute), Keep: 1, Append: []Block{{ID: "B", Tokens: 1000}}},
		{Time: at.Add(10*time.Minute + 10*time.Second), TTL: AnthropicTTL, Keep: 2, Append: []Block{{ID: "C", Tokens: 1000}}},
	}
	want := []struct {
		p   Parts
		usd float64
	}{
		{Parts{Write: 6000}, 0.036},
		{Parts{Read: 6000, Write: 1000}, 0.00555},
		{Parts{Read: 7000, Write: 1000}, 0.00585},
	}
	for i, st := range steps {
		st.Model, st.Front = "claude-sonnet-4-5", front
		cc := s.Step(st)
		if cc.Cache != want[i].p || math.Abs(cc.CostUSD-want[i].usd) > 1e-12 {
			t.Errorf("call %d: %+v $%v, want %+v $%v", i+1, cc.Cache, cc.CostUSD, want[i].p, want[i].usd)
		}
	}
}

// TestStepEvidenceExactOpenAI: under OpenAI's rule a read cut to the
// record to the token is the record's read, not rounded down again to a
// step of 128 (the provider's figure is already in its steps). gpt-5:
// front S 2,000, blocks of 1,000; call 2 shares 3,000 (the model's read:
// 2,944), the record read 2,990 (within the slack: a trim); call 3
// shares 4,000 (3,968), the record read 2,500 (an eviction).
func TestStepEvidenceExactOpenAI(t *testing.T) {
	s, err := NewSimulator(Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	for i, c := range []struct {
		st   Step
		want Parts
	}{
		{Step{}, Parts{Uncached: 3000}},
		// 2: 2,990 read (was 2,944 unexact: the model's own read stands
		//    within the slack), 1,010 uncached.
		{Step{Evidence: true, Exact: true, Held: 2990}, Parts{Read: 2990, Uncached: 1010}},
		// 3: cut to 2,500, read as such (2,432 rounded): 2,500 uncached.
		{Step{Evidence: true, Exact: true, Held: 2500}, Parts{Read: 2500, Uncached: 2500}},
		// 4: without evidence: shares 5,000 → 4,992.
		{Step{}, Parts{Read: 4992, Uncached: 1008}},
	} {
		st := c.st
		st.Model, st.Time, st.Front, st.Keep = "gpt-5", at.Add(time.Duration(i)*10*time.Second), Block{ID: "S", Tokens: 2000}, i
		st.Append = []Block{{ID: string(rune('A' + i)), Tokens: 1000}}
		if got := s.Step(st); got.Cache != c.want {
			t.Errorf("call %d: got %+v, want %+v", i+1, got.Cache, c.want)
		}
	}
}

// TestStepWarm works [Step.Warm] by hand on claude-sonnet-4-5 (5-minute
// TTL, $3.75 write, $0.30 read): front S 5,000, a block of 1,000 a call.
// Call 1 writes 6,000 (22,500 µ$); call 2 comes 10 minutes later, when
// the model's entries have expired: without Warm it writes all 7,000
// (26,250 µ$); with Warm (the record shows the provider kept the cache)
// it reads 6,000 and writes 1,000: 1,800 + 3,750 = 5,550 µ$.
func TestStepWarm(t *testing.T) {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	front := Block{ID: "S", Tokens: 5000, Breakpoint: true}
	for _, tc := range []struct {
		warm bool
		want Parts
		usd  float64
	}{
		{false, Parts{Write: 7000}, 0.02625},
		{true, Parts{Read: 6000, Write: 1000}, 0.00555},
	} {
		s, err := NewSimulator(Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Step(Step{Model: "claude-sonnet-4-5", Time: at, Front: front, Append: []Block{{ID: "A", Tokens: 1000}}})
		cc := s.Step(Step{Model: "claude-sonnet-4-5", Time: at.Add(10 * time.Minute), Front: front, Keep: 1,
			Append: []Block{{ID: "B", Tokens: 1000}}, Warm: tc.warm})
		if cc.Cache != tc.want || math.Abs(cc.CostUSD-tc.usd) > 1e-12 {
			t.Errorf("warm %v: %+v $%v, want %+v $%v", tc.warm, cc.Cache, cc.CostUSD, tc.want, tc.usd)
		}
	}
}

// TestStepTail works [Step.Tail] by hand on the shape of a real
// three-call Claude Code subagent file (claude-sonnet-4-5: $3 input,
// $0.30 read, $3.75 write, $15 output per million; 10 s apart): front S
// 10,000 (a breakpoint) and P 2,003, then A1 1,000 and T1 2,823, then A2
// 300 and T2 503 (windows 12,003, 15,826, 16,629). The records' uncached
// input, the tail after the last breakpoint, is 3, 2,326 and 3: it is
// sent at the input price, not written, and the entry the call leaves
// holds its window less the tail, so call 3 reads 12,000 + 1,500 =
// 13,500, as the record does, not call 2's 15,826.
//
//	1: write 12,000, uncached 3:            45000 + 9 + 6000       = 51009 µ$
//	2: read 12,000, write 1,500, unc 2,326: 3600 + 5625 + 6978 + 9000 = 25203
//	3: read 13,500, write 3,126, unc 3:     4050 + 11722.5 + 9 + 4500 = 20281.5
//
// $0.0964935 in all, the records' bill. Without the tails the model
// writes them, and call 3 reads 15,826 (the second case). A tail longer than what the call would write is uncached up
// to that (call 2 with a tail of 5,000: write 0, uncached 3,826, entry
// 12,000); under OpenAI's rule nothing is written, so a tail changes
// nothing.
func TestStepTail(t *testing.T) {
	front := Block{ID: "S", Tokens: 10000, Breakpoint: true}
	appends := [][]Block{{{ID: "P", Tokens: 2003}}, {{ID: "A1", Tokens: 1000}, {ID: "T1", Tokens: 2823}}, {{ID: "A2", Tokens: 300}, {ID: "T2", Tokens: 503}}}
	outputs := []int{400, 600, 300}
	for _, tc := range []struct {
		name, model string
		tails       []int
		want        []Parts
		usd         float64
	}{
		{"tails", "claude-sonnet-4-5", []int{3, 2326, 3},
			[]Parts{{Write: 12000, Uncached: 3}, {Read: 12000, Write: 1500, Uncached: 2326}, {Read: 13500, Write: 3126, Uncached: 3}},
			0.0964935},
		// Written: 45011.25 + 6000; 3600 + 14347.5 + 9000; 15,826×0.30 +
		// 803×3.75 + 4500 = 4747.8 + 3011.25 + 4500.
		{"no tails", "claude-sonnet-4-5", []int{0, 0, 0},
			[]Parts{{Write: 12003}, {Read: 12003, Write: 3823}, {Read: 15826, Write: 803}},
			(51011.25 + 3600.9 + 14336.25 + 9000 + 12259.05) / 1e6},
		// Call 2's tail of 5,000 is more than its 3,826 written: all
		// uncached, the entry stays 12,000; call 3 reads it and writes
		// 4,626 less its tail of 3.
		{"tail over the write", "claude-sonnet-4-5", []int{3, 5000, 3},
			[]Parts{{Write: 12000, Uncached: 3}, {Read: 12000, Uncached: 3826}, {Read: 12000, Write: 4626, Uncached: 3}},
			(51009 + 3600 + 11478 + 9000 + 3600 + 17347.5 + 9 + 4500) / 1e6},
		// gpt-5 ($1.25 input, $0.125 read, $10 output): 12,003 uncached;
		// 12,003 shared → 11,904 read; 15,826 → 15,744.
		{"openai", "gpt-5", []int{3, 2326, 3},
			[]Parts{{Uncached: 12003}, {Read: 11904, Uncached: 3922}, {Read: 15744, Uncached: 885}},
			(15003.75 + 4000 + 1488 + 4902.5 + 6000 + 1968 + 1106.25 + 3000) / 1e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSimulator(Options{})
			if err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
			keep := 0
			for i, app := range appends {
				got := s.Step(Step{Model: tc.model, Time: at.Add(time.Duration(i) * 10 * time.Second), Output: outputs[i],
					Front: front, Keep: keep, Append: app, Tail: tc.tails[i]})
				keep += len(app)
				if got.Cache != tc.want[i] {
					t.Errorf("call %d: %+v, want %+v", i+1, got.Cache, tc.want[i])
				}
			}
			if got := s.Totals().CostUSD; math.Abs(got-tc.usd) > 1e-12 {
				t.Errorf("$%.9f, want $%.9f", got, tc.usd)
			}
		})
	}
}
