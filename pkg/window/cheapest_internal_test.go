package window

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/transcript/transcriptgen"
)

// PricedSession is pricedSession, for the tests of package window_test.
var PricedSession = pricedSession

// pricedSession is a generated agent loop made to be priced: every reply
// names model (every fifth haiku when switch is set) and calls come gap
// apart, with a pause past the 5-minute TTL every pauseEvery calls.
func pricedSession(seed uint64, calls int, model string, gap time.Duration, pauseEvery int, haiku bool) *transcript.Transcript {
	tr := transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: calls, AgentTurns: 1 + int(seed%2), Usage: true, Overhead: 3000, MaxToolChars: 30000})
	at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	n := 0
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.Role == transcript.RoleAssistant {
			n++
			at = at.Add(gap)
			if pauseEvery > 0 && n%pauseEvery == 0 {
				at = at.Add(6 * time.Minute)
			}
			m.Model = model
			if haiku && n%5 == 0 {
				m.Model = "claude-haiku-4-5"
			}
		}
		m.Timestamp = at
	}
	return tr
}

// readSample reads a sample of testdata/agent.
func readSample(t testing.TB, rel string) *transcript.Transcript {
	t.Helper()
	return readFile(t, "../../testdata/agent/"+rel)
}

// readFile reads the first transcript of a file.
func readFile(t testing.TB, path string) *transcript.Transcript {
	t.Helper()
	rel := path
	b, err := os.ReadFile(path)
	if err == nil {
		var ts []*transcript.Transcript
		if ts, err = transcript.Read(bytes.NewReader(b), rel, ""); err == nil {
			return ts[0]
		}
	}
	t.Fatal(err)
	return nil
}

// planSession collects the plan's view of tr under full.
func planSession(t testing.TB, tr *transcript.Transcript, opts ReplayOptions, cs cheapestStrategy) (*replayer, *session, []Call) {
	t.Helper()
	r := newReplayer(tr, opts)
	fullRes, err := r.run(context.Background(), fullStrategy{}, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	s, err := r.collect(context.Background(), fullStrategy{}, fullRes.Calls, cs)
	if err != nil {
		t.Fatal(err)
	}
	s.limit = r.limitFor(cs, s)
	s.fit = make([]bool, len(s.calls))
	for i := range s.calls {
		_, counted := s.window(i, s.calls[i].hi)
		s.fit[i] = s.limit > 0 && counted <= s.limit
	}
	return r, s, fullRes.Calls
}

// exactUSD replays the plan that keeps boundary bounds[i] at call i and
// returns its cost (unrounded) and its calls.
func exactUSD(t testing.TB, r *replayer, s *session, full []Call, bounds []int, inputs bool) (float64, []Call) {
	t.Helper()
	p := withEdits{Base: fullStrategy{}, Edits: []edit{planEdit{steps: s.steps(bounds), inputs: inputs}}, Label: "plan"}
	res, err := r.run(context.Background(), p, full, false)
	if err != nil {
		t.Fatal(err)
	}
	return res.Totals.usd, res.Calls
}

func testSessions(t testing.TB) map[string]*transcript.Transcript {
	out := map[string]*transcript.Transcript{
		"sample claude":   readSample(t, "claude/projects/-src-shop/7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17.jsonl"),
		"sample subagent": readSample(t, "claude/projects/-src-shop/7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17/subagents/agent-a3f9c2e1.jsonl"),
		"sample codex":    readSample(t, "codex/sessions/2026/11/24/rollout-2026-11-24T14-02-09-019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73.jsonl"),
		"sample miss":     readFile(t, "../../testdata/replay/miss.jsonl"),
		"gen sonnet 10s":  pricedSession(1, 150, "claude-sonnet-4-5", 10*time.Second, 0, false),
		"gen opus pauses": pricedSession(2, 150, "claude-opus-4-5", 20*time.Second, 40, false),
		"gen haiku mix":   pricedSession(3, 120, "claude-sonnet-4-5", 15*time.Second, 50, true),
		"gen gpt-5":       pricedSession(4, 150, "gpt-5", 30*time.Second, 0, false),
	}
	return out
}

// The plan's books add up to what the replay counts: at every call the
// conversation's tokens from the prefix sums equal the counted window.
func TestCheapestSessionSums(t *testing.T) {
	for name, tr := range testSessions(t) {
		_, s, _ := planSession(t, tr, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}, cheapestStrategy{Keep: 1})
		for i := range s.calls {
			c := &s.calls[i]
			if got := s.convSum(i, c.start, c.end); got != c.conv {
				t.Fatalf("%s call %d: prefix sums give %d tokens, the replay counts %d", name, i+1, got, c.conv)
			}
		}
	}
}

// modelUSD is the plan's own estimate of a boundary sequence's prompt
// cost (output excluded).
func (s *session) modelUSD(bounds []int) float64 {
	sum, prev, last, older := 0.0, 0, -1, -1
	for i, k := range bounds {
		c := &s.calls[i]
		from := max(prev, c.lo)
		k = max(k, c.lo)
		w, _ := s.window(i, k)
		q := math.MaxInt
		if k > from {
			q = s.chg(from)
		}
		r, used := s.read(i, q, from, last, older)
		sum += s.callCost(i, w, r)
		if k > from {
			last, older = i, used
		}
		prev = max(prev, k)
	}
	return sum
}

// The plan's cost model agrees with the exact replay of its plan, and
// of the empty plan (full), within 1% of the prompt's cost where the
// session keeps to one model.
func TestCheapestModelMatchesExact(t *testing.T) {
	for name, tr := range testSessions(t) {
		r, s, full := planSession(t, tr, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}, cheapestStrategy{Keep: 1})
		// With a model switch the plan reads a call's cache as its
		// model's previous call left it, not knowing whether a clear at
		// a call of the other model cut it since: looser there.
		tol := 0.01
		if name == "gen haiku mix" {
			tol = 0.15
		}
		bounds := s.solve()
		for _, b := range [][]int{bounds, make([]int, len(bounds))} {
			exact, calls := exactUSD(t, r, s, full, b, false)
			outUSD := 0.0
			for _, c := range calls {
				outUSD += float64(c.CostUSD) - partsUSD(s, c)
			}
			model := s.modelUSD(b)
			if d := math.Abs(model - (exact - outUSD)); d > tol*(exact-outUSD)+1e-9 {
				t.Errorf("%s: model $%.6f, exact prompt cost $%.6f", name, model, exact-outUSD)
			}
		}
	}
}

// partsUSD is the prompt part of a call's exact cost.
func partsUSD(s *session, c Call) float64 {
	pc := &s.calls[c.Call-1]
	switch c.CacheRule {
	case "anthropic":
		return pc.pr*float64(c.Cache.Read) + pc.pw*float64(c.Cache.Write) + pc.pi*float64(c.Cache.Uncached)
	case "openai":
		return pc.pr*float64(c.Cache.Read) + pc.pi*float64(c.Cache.Uncached)
	}
	return pc.pi * float64(c.Cache.Uncached)
}

// On small sessions the plan is checked against every schedule of its
// space: each boundary sequence (non-decreasing, within what each call
// may clear) replayed exactly. The plan costs the least of them (to a
// part in 10⁹: the programme's model is a bound, but on these it finds
// the best; see [session.read]). The sessions with
// recorded misses are priced against the records' evidence, the plan
// and every schedule alike.
func TestCheapestBruteForce(t *testing.T) {
	type tc struct {
		name  string
		tr    *transcript.Transcript
		limit int
		keep  int
	}
	var cases []tc
	for seed := uint64(1); seed <= 6; seed++ {
		model := []string{"claude-sonnet-4-5", "gpt-5", "claude-opus-4-5"}[seed%3]
		gap := time.Duration(seed*40) * time.Second // 240 s apart from seed 6: some calls cold
		cases = append(cases, tc{fmt.Sprintf("seed %d %s", seed, model), pricedSession(seed, 5, model, gap, 3, false), 0, 1})
	}
	cases = append(cases, tc{"limit", pricedSession(2, 5, "claude-sonnet-4-5", 10*time.Second, 0, false), 9000, 1})
	// Recorded misses: a read of 0 or of the front alone, on Anthropic
	// and OpenAI rules, and the hand-worked case of
	// TestCheapestSeesRecordedMiss.
	cases = append(cases,
		tc{"miss case", missCase(t, 4), 0, 2},
		tc{"miss case keep 1", missCase(t, 3), 0, 1},
		tc{"misses sonnet", withRecords(pricedSession(7, 5, "claude-sonnet-4-5", 10*time.Second, 0, false), map[int]int{3: 0, 5: 3000}), 0, 1},
		tc{"misses opus", withRecords(pricedSession(8, 6, "claude-opus-4-5", 20*time.Second, 0, false), map[int]int{4: 0}), 0, 1},
		tc{"misses gpt-5", withRecords(pricedSession(9, 4, "gpt-5", 20*time.Second, 0, false), map[int]int{2: 0, 3: 1024}), 0, 1},
	)
	for _, c := range cases {
		opts := ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}, ContextWindow: c.limit}
		cs := cheapestStrategy{Keep: c.keep}
		r, s, full := planSession(t, c.tr, opts, cs)
		evicted := 0
		for _, f := range full {
			if f.Evicted {
				evicted++
			}
		}
		if strings.HasPrefix(c.name, "miss") && evicted == 0 {
			t.Fatalf("%s: no call evicted", c.name)
		}
		n := len(s.calls)
		best, bestOver := math.Inf(1), math.MaxInt
		bounds := make([]int, n)
		count := 0
		var walk func(i, prev int)
		walk = func(i, prev int) {
			if i == n {
				usd, calls := exactUSD(t, r, s, full, bounds, false)
				over := 0
				for _, cl := range calls {
					if c.limit > 0 && cl.Tokens > c.limit {
						over++
					}
				}
				count++
				if over < bestOver || over == bestOver && usd < best {
					best, bestOver = usd, over
				}
				return
			}
			lo := max(prev, s.calls[i].lo)
			for k := lo; k <= max(lo, s.calls[i].hi); k++ {
				bounds[i] = k
				walk(i+1, k)
			}
		}
		walk(0, 0)
		p, err := r.plan(context.Background(), cs, full)
		if err != nil {
			t.Fatal(err)
		}
		res, err := r.run(context.Background(), p.withEdits, full, false)
		if err != nil {
			t.Fatal(err)
		}
		over := 0
		for _, cl := range res.Calls {
			if c.limit > 0 && cl.Tokens > c.limit {
				over++
			}
		}
		got := res.Totals.usd
		t.Logf("%s: %d evicted calls, %d schedules, best $%.8f (%d over), cheapest $%.8f (%d over)", c.name, evicted, count, best, bestOver, got, over)
		if over > bestOver || got > best*(1+1e-9)+1e-12 {
			t.Errorf("%s: cheapest $%.8f with %d calls over the limit; the best of %d schedules $%.8f with %d", c.name, got, over, count, best, bestOver)
		}
	}
}

// withRecords gives every call of tr (which records its prompts) the
// cache usage of a provider that reads the model's previous prompt
// whole, nothing at the first call or past the 5-minute TTL, and at the
// calls in miss (numbered from 1) the read given there instead.
func withRecords(tr *transcript.Transcript, miss map[int]int) *transcript.Transcript {
	prev, prevAt, n := 0, time.Time{}, 0
	for i := range tr.Messages {
		m := &tr.Messages[i]
		if m.InputTokens == nil {
			continue
		}
		n++
		read := prev
		if n == 1 || m.Timestamp.Sub(prevAt) > 5*time.Minute {
			read = 0
		}
		if r, ok := miss[n]; ok {
			read = r
		}
		out := 100
		if m.Usage != nil && m.Usage.Output > 0 {
			out = m.Usage.Output
		}
		m.Usage = &transcript.Usage{CacheRead: read, CacheWrite: *m.InputTokens - read, Output: out}
		prev, prevAt = *m.InputTokens, m.Timestamp
	}
	return tr
}

// missCase is five calls on claude-sonnet-4-5 ten seconds apart whose
// only clearable result is the first (about 4,000 tokens): a long
// assistant reply (about 6,000 tokens) follows it, and the later results
// are smaller than the placeholder; with keep=2 the first result may be
// cleared from call 4 on, when the long reply is in the cache. Each call's recorded prompt is full's
// counted window plus a 2,000-token unseen front; the provider reads the
// previous prompt whole, except at call miss (0: none), where it reads
// nothing.
func missCase(t testing.TB, miss int) *transcript.Transcript {
	t.Helper()
	at := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	big := strings.Repeat("the build reads the config file ", 500) // 16,000 chars
	long := strings.Repeat("the window writes a summary line ", 750)
	msgs := []transcript.Message{{Role: transcript.RoleUser, Text: "fix the build"}}
	for k := 1; k <= 4; k++ {
		text := "reading"
		if k == 2 {
			text = long
		}
		id := fmt.Sprintf("t%d", k)
		msgs = append(msgs, transcript.Message{Role: transcript.RoleAssistant, Text: text, Model: "claude-sonnet-4-5",
			ToolCalls: []transcript.ToolCall{{ID: id, Name: "Read", Arguments: `{"path":"a.go"}`}}})
		res := "ok"
		if k == 1 {
			res = big
		}
		msgs = append(msgs, transcript.Message{Role: transcript.RoleTool, ToolCallID: id, Text: res})
	}
	msgs = append(msgs, transcript.Message{Role: transcript.RoleAssistant, Text: "done", Model: "claude-sonnet-4-5"})
	for i := range msgs {
		msgs[i].Index, msgs[i].Turn = i, 1
		if msgs[i].Role == transcript.RoleAssistant {
			at = at.Add(10 * time.Second)
		}
		msgs[i].Timestamp = at
	}
	tr := &transcript.Transcript{Format: "harpe", Messages: msgs}
	res, err := Replay(context.Background(), tr, []Strategy{Full}, ReplayOptions{Options: DefaultOptions()})
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for i := range tr.Messages {
		if tr.Messages[i].Role == transcript.RoleAssistant {
			p := res[0].Calls[k].Counted + 2000
			tr.Messages[i].InputTokens = &p
			k++
		}
	}
	m := map[int]int{}
	if miss > 0 {
		m[miss] = 0
	}
	return withRecords(tr, m)
}

// The plan sees a recorded miss. On missCase (cheapest:keep=2),
// clearing the first result at a call whose cache is warm costs more
// than it saves: at call 4 it writes the long reply after it again
// (about 6,000 tokens at $3.75 per million) where full reads it and the
// result (10,000 tokens at $0.30), about $0.0195 more, to save 4,000
// tokens at $0.30 per million at call 5 ($0.0012); so with no miss the
// plan is empty. With the provider missing at
// call 4 the whole window is written there whatever is sent, so clearing
// it there is free: it saves the result's tokens once at the write
// price (call 4) and once at the read price (call 5, which reads call
// 4's window):
//
//	full − cheapest = freed × ($3.75 + $0.30) / 10⁶
//
// and the plan clears it at call 4 and nowhere else.
func TestCheapestSeesRecordedMiss(t *testing.T) {
	o := ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}, Regret: true}
	cs := cheapestStrategy{Keep: 2}
	res, err := Replay(context.Background(), missCase(t, 0), []Strategy{Full, cs}, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res[1].Plan) != 0 || res[1].Totals.CostUSD != res[0].Totals.CostUSD {
		t.Errorf("no miss: plan %+v at $%.6f, full $%.6f; want the empty plan", res[1].Plan, res[1].Totals.CostUSD, res[0].Totals.CostUSD)
	}
	res, err = Replay(context.Background(), missCase(t, 4), []Strategy{Full, cs}, o)
	if err != nil {
		t.Fatal(err)
	}
	full, cheap := res[0], res[1]
	if full.Totals.EvictedCalls != 1 || !full.Calls[3].Evicted {
		t.Fatalf("full: %d evicted calls, call 4 evicted %v; want call 4 alone", full.Totals.EvictedCalls, full.Calls[3].Evicted)
	}
	if len(cheap.Plan) != 1 || cheap.Plan[0].Call != 4 || !slices.Equal(cheap.Plan[0].Cleared, []int{2}) {
		t.Fatalf("plan %+v, want message 2 cleared at call 4", cheap.Plan)
	}
	freed := cheap.Plan[0].FreedTokens
	want := float64(freed) * (3.75 + 0.30) / 1e6
	if got := float64(full.Totals.CostUSD - cheap.Totals.CostUSD); math.Abs(got-want) > 2e-9 {
		t.Errorf("full − cheapest = $%.9f, want %d × $4.05/M = $%.9f", got, freed, want)
	}
	if freed < 3900 || freed > 4100 {
		t.Errorf("freed %d tokens, want about 4,000 (16,000 chars)", freed)
	}
}

// BenchmarkCheapestMisses plans a generated 1,000-call agent loop whose
// records show a miss (a read of 0) at every fifth call: the plan's
// reads are capped by the records (a sparse table per model).
func BenchmarkCheapestMisses(b *testing.B) {
	miss := map[int]int{}
	for k := 5; k <= 2000; k += 5 {
		miss[k] = 0
	}
	tr := withRecords(pricedSession(2, 1000, "claude-sonnet-4-5", 10*time.Second, 0, false), miss)
	s := Strategy(cheapestStrategy{Keep: 1})
	for b.Loop() {
		if _, err := Replay(context.Background(), tr, []Strategy{s}, ReplayOptions{Options: DefaultOptions(), Cost: &CostOptions{}}); err != nil {
			b.Fatal(err)
		}
	}
}

// An aborted turn drops clear:auto's clears and entries from its first
// position on, and only those: a clear made before the turn still
// counts (the edit is told the position, not only how many results are
// left). Replayed on generated sessions whose middle turn is aborted,
// clear:auto costs at most 1.01 × full; and its state, told of an abort
// at position 10, keeps the clears at positions 3 and 7 and the entries
// that end by 10.
func TestAutoClearAbort(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		tr := transcriptgen.Generate(transcriptgen.Config{Seed: seed, AgentCalls: 40, AgentTurns: 3, Usage: true, Overhead: 3000, MaxToolChars: 20000})
		at := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
		for i := range tr.Messages {
			at = at.Add(5 * time.Second)
			tr.Messages[i].Timestamp = at
			tr.Messages[i].Aborted = tr.Messages[i].Turn == 2 // the middle turn is aborted
			if tr.Messages[i].Role == transcript.RoleAssistant {
				tr.Messages[i].Model = "claude-sonnet-4-5"
			}
		}
		auto := withEdits{Base: fullStrategy{}, Edits: []edit{autoClearEdit{Keep: 1}}, Label: "clear:auto"}
		res, err := Replay(context.Background(), tr, []Strategy{Full, auto}, ReplayOptions{Options: DefaultOptions(), Indices: true, Cost: &CostOptions{}})
		if err != nil {
			t.Fatal(err)
		}
		if f, a := res[0].Totals.CostUSD, res[1].Totals.CostUSD; a > 1.01*f {
			t.Errorf("seed %d: clear:auto $%.6f, full $%.6f", seed, a, f)
		}
		aborted := 0
		for _, m := range tr.Messages {
			if m.Aborted {
				aborted++
			}
		}
		if aborted == 0 {
			t.Fatalf("seed %d: no aborted turn", seed)
		}
		// Direct: after an abort the state keeps the clears before it.
		s := &autoState{mine: []int{3, 7, 12}, saving: []int{100, 200, 300}, marks: []autoMark{{end: 5}, {end: 10}, {end: 14}}}
		s.abort(1, 10) // one result left (the edits' measure); positions from 10 dropped
		if !slices.Equal(s.mine, []int{3, 7}) || len(s.marks) != 2 {
			t.Errorf("after abort at 10: clears %v, %d entries; want [3 7] and 2", s.mine, len(s.marks))
		}
	}
}
