package cost

import (
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// BenchmarkSimulateFull prices the 230-call Claude Code sample under
// `full`: each call hashes its whole window, so the cost grows with the
// square of the calls.
func BenchmarkSimulateFull(b *testing.B) {
	tr := readSample(b, agentSamples[0])
	calls, _ := FullCalls(tr, tokenize.Estimate, "")
	for b.Loop() {
		if _, err := Simulate(calls, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
