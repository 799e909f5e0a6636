// Command gen-miss-session writes an agent session in harpe's event format
// whose provider misses its prompt cache, as a real Bedrock session was seen
// to do: go run ./scripts/gen-miss-session -seed 21 > testdata/replay/miss.jsonl
// (the same flags always give the same file).
//
// One prompt, then -calls model calls (and a last one that answers) on claude-sonnet-4-5, each calling a
// tool whose result is 100 to 3,000 tokens. Each call records a prompt of
// its visible window (counted with harpe's estimate, so harpe sees the
// front exactly) plus -front tokens of unseen front (system prompt and
// tools), and the cache usage of this rule, applied here its own way:
//
//   - normally a call reads the previous call's whole prompt and writes the
//     rest;
//   - after a pause of more than 5 minutes nothing is live: read 0;
//   - with probability -p-zero (seeded) the call is a routing miss: read 0
//     although the previous call wrote a few seconds before;
//   - with probability -p-front the read falls back to the front alone.
//
// Nothing is uncached; every call writes what it does not read, and
// records 50 to 400 output tokens.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

var words = strings.Fields("the build fails on a line of the config file while the test of the replay " +
	"package reads the window and writes a summary of every token budget path module error")

type event map[string]any

func main() {
	seed := flag.Uint64("seed", 21, "PRNG seed")
	calls := flag.Int("calls", 60, "model calls")
	front := flag.Int("front", 12000, "tokens of unseen front (system prompt, tools)")
	pZero := flag.Float64("p-zero", 0.08, "probability of a routing miss (read 0)")
	pFront := flag.Float64("p-front", 0.08, "probability of a read falling back to the front")
	flag.Parse()
	r := rand.New(rand.NewPCG(*seed, 0x6d697373))
	text := func(tokens int) string {
		var b strings.Builder
		for tokenize.EstimateTokens(b.String()) < tokens {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	put := func(e event) {
		if err := enc.Encode(e); err != nil {
			fmt.Fprintln(os.Stderr, "gen-miss-session:", err)
			os.Exit(1)
		}
	}
	at := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
	prompt := "fix the failing build in pkg/replay and make the tests pass"
	put(event{"type": "user", "content": prompt, "timestamp": at.Format(time.RFC3339)})
	visible := tokenize.EstimateTokens(prompt)
	prev, prevAt := 0, time.Time{}
	pauseAt := *calls / 2
	for k := 1; k <= *calls; k++ {
		gap := time.Duration(3+r.IntN(25)) * time.Second
		if k == pauseAt {
			gap = 7 * time.Minute // the cache expires
		}
		at = at.Add(gap)
		say := text(20 + r.IntN(60))
		id := fmt.Sprintf("toolu_%03d", k)
		args := fmt.Sprintf(`{"path":"pkg/replay/f%d.go"}`, r.IntN(40))
		put(event{"type": "assistant", "content": say, "timestamp": at.Format(time.RFC3339),
			"tool_calls": []event{{"id": id, "name": "Read", "arguments": json.RawMessage(args)}}})
		prompt := *front + visible
		read := 0
		switch u := r.Float64(); {
		case k == 1 || (!prevAt.IsZero() && at.Sub(prevAt) > 5*time.Minute):
		case u < *pZero:
		case u < *pZero+*pFront:
			read = *front
		default:
			read = prev
		}
		put(event{"type": "usage", "model": "claude-sonnet-4-5", "input_tokens": prompt,
			"cache_read_tokens": read, "cache_write_tokens": prompt - read, "output_tokens": 50 + r.IntN(351)})
		visible += tokenize.EstimateTokens(say) + tokenize.EstimateTokens("Read") + tokenize.EstimateTokens(args)
		result := text(100 + r.IntN(2901))
		put(event{"type": "tool_result", "tool_call_id": id, "content": result})
		visible += tokenize.EstimateTokens(result)
		prev, prevAt = prompt, at
	}
	at = at.Add(5 * time.Second)
	put(event{"type": "assistant", "content": "The build passes now.", "timestamp": at.Format(time.RFC3339)})
	put(event{"type": "usage", "model": "claude-sonnet-4-5", "input_tokens": *front + visible,
		"cache_read_tokens": prev, "cache_write_tokens": *front + visible - prev, "output_tokens": 12})
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "gen-miss-session:", err)
		os.Exit(1)
	}
}
