package play

import (
	"encoding/json"
	"os"
	"testing"
)

// BenchmarkSynthesizeSample is what the page pays on every edit of the
// sample items: arguments decoded, the report built and encoded.
func BenchmarkSynthesizeSample(b *testing.B) {
	items, err := os.ReadFile("../../testdata/items/agent.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	args, err := json.Marshal(SynthesizeArgs{Items: string(items), Budget: 1200, ReserveOutput: 200, SafetyMargin: "5%"})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if out := Call("synthesize", string(args)); len(out) < 100 {
			b.Fatal(out)
		}
	}
}
