// Command simulate runs harpe's engine over a long synthetic agent session
// and reports how many calls went over the budget and the share of tokens
// the budget saved against sending the whole context.
//
//	go run ./scripts/simulate -turns 100000 -budget 1200
//	go run ./scripts/simulate -policy knapsack
//
// Besides tokens, it sums the utility each call kept, as the knapsack
// policy scores it ((1 + relevance) / (1 + priority), always-kept items
// left out), so policies can be compared on what they keep.
//
// # The data
//
// A fixed-seed generator plays an agent session. Every call sees a pinned
// system prompt (about 60 words) and the goal (priority 0, about 25 words),
// then the newest -window items of the session, each counted once with the
// estimate counter when it is made (as an agent caches counts). Each turn
// adds:
//
//   - the user's message (history, priority 6, 15–60 words);
//   - with probability 0.7, a tool call (priority 4, 8–15 words) and its
//     result (priority 5, 40–400 words), one group;
//   - with probability 0.2, a memory (priority 3, 10–30 words);
//   - with probability 0.3, a retrieved chunk (priority 7, 60–200 words,
//     a relevance score);
//   - the assistant's reply (history, priority 6, 20–120 words).
//
// Timestamps advance 20–140 seconds per item. A call is over budget when
// the report says so or when the kept tokens exceed the effective budget.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/engine"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// Result sums up a simulation.
type Result struct {
	Turns      int
	OverBudget int
	InputTok   int64   // tokens a call would send with the whole context
	SentTok    int64   // tokens the budgeted calls sent
	Utility    float64 // knapsack utility of the selected (not always-kept) items
}

// Saved is the share of tokens the budget saved.
func (r Result) Saved() float64 {
	if r.InputTok == 0 {
		return 0
	}
	return 1 - float64(r.SentTok)/float64(r.InputTok)
}

var words = strings.Fields(`the a to of and in is that for it on with as was be
this are by not or from at an but have which we can all will if one their
there has been more when out so up what about into than them some could only
other then its over also time after new first two use way should work our
file test build error parser function value line token budget context model
call tool result memory goal system deploy rollback migration schema column
index query cache request response latency retry timeout config flag branch
commit review patch release version module package import export handler`)

type gen struct {
	rng  *rand.Rand
	now  time.Time
	next int
}

func (g *gen) text(lo, hi int) string {
	n := lo + g.rng.IntN(hi-lo+1)
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if g.rng.IntN(12) == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(words[g.rng.IntN(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

func (g *gen) item(dim string, priority, lo, hi int) engine.Item {
	g.now = g.now.Add(time.Duration(20+g.rng.IntN(121)) * time.Second)
	ts := g.now
	content := g.text(lo, hi)
	tc := tokenize.EstimateTokens(content)
	g.next++
	return engine.Item{ID: fmt.Sprint("i", g.next), Content: content, Priority: priority,
		Dimension: dim, Timestamp: &ts, TokenCount: &tc}
}

// Run simulates turns calls with the given budget and policy ("" is the
// default), keeping the newest window items of the session as candidates.
func Run(turns, budget, window int, seed uint64, policy string) (Result, error) {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 1)), now: time.Date(2026, 5, 20, 9, 0, 0, 0, time.UTC)}
	sys := g.item("system", 0, 55, 65)
	sys.Pinned = true
	goal := g.item("goal", 0, 20, 30)
	var session []engine.Item
	ctx := make([]engine.Item, 0, window+2)
	var res Result
	b := engine.Budget{Total: budget}
	for t := 0; t < turns; t++ {
		session = append(session, g.item("history", 6, 15, 60))
		if g.rng.Float64() < 0.7 {
			call, result := g.item("tool", 4, 8, 15), g.item("tool", 5, 40, 400)
			call.Group, result.Group = call.ID, call.ID
			session = append(session, call, result)
		}
		if g.rng.Float64() < 0.2 {
			session = append(session, g.item("memory", 3, 10, 30))
		}
		if g.rng.Float64() < 0.3 {
			it := g.item("retrieval", 7, 60, 200)
			r := float64(g.rng.IntN(100)) / 100
			it.Relevance = &r
			session = append(session, it)
		}
		session = append(session, g.item("history", 6, 20, 120))
		if len(session) > 4*window { // keep memory bounded
			session = append(session[:0], session[len(session)-window:]...)
		}
		recent := session[max(len(session)-window, 0):]
		ctx = append(append(ctx[:0], sys, goal), recent...)
		rep, err := engine.Synthesize(context.Background(), ctx, b, engine.Options{Policy: policy})
		if err != nil {
			return res, err
		}
		utilities := engine.KnapsackUtilities(ctx)
		for _, k := range rep.Kept {
			if k.Reason == engine.ReasonSelected {
				res.Utility += utilities[k.Index]
			}
		}
		res.Turns++
		if rep.OverBudget || rep.ConsumedTokens > rep.EffectiveBudget || rep.EffectiveBudget > budget {
			res.OverBudget++
		}
		res.InputTok += int64(rep.Input.Tokens)
		res.SentTok += int64(rep.ConsumedTokens)
	}
	return res, nil
}

func main() {
	turns := flag.Int("turns", 100000, "number of simulated turns (one call each)")
	budget := flag.Int("budget", 1200, "token budget per call")
	window := flag.Int("window", 40, "newest session items each call may choose from")
	seed := flag.Uint64("seed", 1, "random seed")
	policy := flag.String("policy", engine.DefaultPolicy, "selection policy")
	flag.Parse()
	start := time.Now()
	res, err := Run(*turns, *budget, *window, *seed, *policy)
	if err != nil {
		fmt.Fprintln(os.Stderr, "simulate:", err)
		os.Exit(1)
	}
	report(os.Stdout, res, *budget, *policy, time.Since(start))
}

func report(w io.Writer, r Result, budget int, policy string, took time.Duration) {
	fmt.Fprintf(w, "turns:            %d at a %d-token budget, policy %s\n", r.Turns, budget, policy)
	fmt.Fprintf(w, "over budget:      %d\n", r.OverBudget)
	fmt.Fprintf(w, "tokens, whole:    %d\n", r.InputTok)
	fmt.Fprintf(w, "tokens, budgeted: %d\n", r.SentTok)
	fmt.Fprintf(w, "saved:            %.1f%%\n", 100*r.Saved())
	fmt.Fprintf(w, "utility kept:     %.1f\n", r.Utility)
	fmt.Fprintf(w, "time:             %.2fs\n", took.Seconds())
}
