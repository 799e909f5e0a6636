package usage

import (
	"os"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// A subagent's run kept in the main Claude Code session file (sidechain
// records) is not part of the conversation, but the provider billed it:
// its usage counts in the recorded sums, once per message.id, the last
// record of each call giving it. Figures read off the sample with jq:
// main calls msg_01…msg_05 (last record of each) input 4+2+2+3+3 = 14,
// cache write 5200+410+300+900+120 = 6930, cache read
// 11000+16200+16610+6100+7100 = 57010, output 61+130+25+52+15 = 283
// (the first records say 8 and 40 for msg_01 and msg_02: 140); the
// sidechain call msg_side1 (claude-haiku-4-5) input 10, cache read 2000,
// output 12.
func TestUnsentUsageCounts(t *testing.T) {
	f, err := os.Open("../../testdata/transcripts/claude-code/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ts, err := transcript.Read(f, "session.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	tr := ts[0]
	if len(tr.Unsent) != 1 || tr.Unsent[0].Model != "claude-haiku-4-5" ||
		tr.Unsent[0].Usage != (transcript.Usage{Input: 10, CacheRead: 2000, Output: 12}) {
		t.Fatalf("unsent %+v, want one haiku call of 10/2000/12", tr.Unsent)
	}
	for _, m := range tr.Messages {
		if m.Model == "claude-haiku-4-5" {
			t.Fatalf("message %d is the sidechain's: it must not be in the conversation", m.Index)
		}
	}
	l, err := List(tr)
	if err != nil {
		t.Fatal(err)
	}
	want := RecordedUsage{Calls: 6, Usage: transcript.Usage{Input: 24, CacheRead: 59010, CacheWrite: 6930, Output: 295}}
	if l.Recorded == nil || *l.Recorded != want {
		t.Errorf("listing recorded %+v, want %+v", l.Recorded, want)
	}
	models, usage := l.RecordedByModel()
	if len(models) != 2 || models[0] != "claude-haiku-4-5" || usage[0].Calls != 1 || usage[1].Calls != 5 {
		t.Errorf("by model %v %+v, want haiku 1 call and sonnet 5", models, usage)
	}
}
