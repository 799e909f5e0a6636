package prices

import "testing"

// BenchmarkLookupCall looks up the model of a call in the embedded
// snapshot, as pricing every recorded call of a session does.
func BenchmarkLookupCall(b *testing.B) {
	cat := Default()
	for _, id := range []string{"claude-sonnet-4-5-20250929", "us.anthropic.claude-sonnet-4-5-20250929-v1:0", "mystery-model-1"} {
		b.Run(id, func(b *testing.B) {
			for b.Loop() {
				cat.LookupCall(id)
			}
		})
	}
}
