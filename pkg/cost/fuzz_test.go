package cost

import (
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/prices"
)

// FuzzSimulate builds calls from fuzz bytes (each byte a block: its low
// bits pick one of a few IDs and sizes, its high bits cut a new call, a
// pause or a model switch) and checks the invariants of every rule: the
// parts add up to the window, reads never exceed the window, only
// Anthropic writes, OpenAI reads are multiples of 128 of at least 1,024,
// and nothing is negative.
func FuzzSimulate(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0x84, 5, 6, 0xc7, 1, 2})
	f.Add([]byte{0x10, 0x11, 0x92, 0x13, 0xd4, 0x10, 0x11, 0x52})
	f.Fuzz(func(t *testing.T, data []byte) {
		models := []string{"claude-sonnet-4-5", "claude-haiku-4-5", "gpt-5", "gemini-2.5-pro"}
		var calls []Call
		var blocks []Block
		at := t0
		model := 0
		for _, b := range data {
			blocks = append(blocks, Block{ID: string(rune('a' + b%16)), Tokens: int(b%16) * 700, Breakpoint: b%16 == 0})
			switch b >> 6 {
			case 1:
				at = at.Add(10 * time.Second)
			case 2:
				at = at.Add(7 * time.Minute)
			case 3:
				model = (model + 1) % len(models)
			default:
				continue
			}
			calls = append(calls, Call{Model: models[model], Time: at, Blocks: append([]Block(nil), blocks...), Output: int(b)})
		}
		for _, rule := range []prices.CacheRule{"", "anthropic", "openai", "none"} {
			rep, err := Simulate(calls, Options{Rule: rule})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range rep.Calls {
				p, total := c.Cache, calls[i].Tokens()
				if p.Read < 0 || p.Write < 0 || p.Uncached < 0 || p.Read+p.Write+p.Uncached != total || c.CostUSD < 0 {
					t.Fatalf("rule %q call %d: %+v for %d tokens", rule, i, c, total)
				}
				if c.Rule != "anthropic" && p.Write != 0 {
					t.Fatalf("rule %q call %d writes %d", c.Rule, i, p.Write)
				}
				if c.Rule == "openai" && p.Read != 0 && (p.Read%OpenAIStep != 0 || p.Read < OpenAIMinTokens) {
					t.Fatalf("openai call %d reads %d", i, p.Read)
				}
				if c.Rule == "none" && p.Read != 0 {
					t.Fatalf("none call %d reads %d", i, p.Read)
				}
			}
		}
	})
}
