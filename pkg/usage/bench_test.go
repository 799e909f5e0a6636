package usage

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// BenchmarkSessionBreakdown: counting a long Claude Code session by
// category, as `harpe transcript --breakdown` does per file.
func BenchmarkSessionBreakdown(b *testing.B) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "transcripts", "claude-code", "long.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "long", "")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := NewSessionBreakdown("long", tokenize.Estimate)
		for i := range ts[0].Messages {
			s.Add(ts[0], &ts[0].Messages[i])
		}
		s.Finish(ts[0])
	}
}
