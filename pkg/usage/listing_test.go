package usage

import (
	"os"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestStreamedSamples reads the streamed samples of
// testdata/agent/streamed (scripts/gen-agent-sessions) and checks the
// recorded sums against figures worked out from the records with jq,
// keeping each message.id's last record:
//
//	jq -s '[.[]|select(.type=="assistant")] | reduce .[] as $r ({};
//	  .[$r.message.id] = $r.message.usage) | [.[]] | …sum each field'
//
// The first-record sums (what ccusage 18.0.11 keeps where there is a
// requestId) are in docs/cost.md beside these.
func TestStreamedSamples(t *testing.T) {
	dir := "../../testdata/agent/streamed/claude/projects/"
	tests := []struct {
		file   string
		calls  int
		want   transcript.Usage
		unsent int
	}{
		{"-src-api/3f8a0c2e-71d4-4b59-a6e3-5c9d1e7b2a40.jsonl", 320, transcript.Usage{Input: 618, CacheRead: 25927397, CacheWrite: 678976, CacheWrite1h: 678976, Output: 98450}, 0},
		{"-src-web/b62e4d17-09c3-4a8f-8e21-7d3f5a6c9b04.jsonl", 140, transcript.Usage{Input: 277, CacheRead: 10288354, CacheWrite: 270273, Output: 41814}, 0},
		// 60 main calls (input 128, write 130,769, read 4,471,056, output
		// 17,644) and 36 sidechain calls (68, 82,959, 537,445, 10,971).
		{"-src-cli/e4a19b3c-5d26-4f70-b8c1-2a6e9d0f4c73.jsonl", 96, transcript.Usage{Input: 196, CacheRead: 5008501, CacheWrite: 213728, Output: 28615}, 36},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(dir + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ts, err := transcript.Read(f, tc.file, "")
			if err != nil {
				t.Fatal(err)
			}
			tr := ts[0]
			if len(tr.Unsent) != tc.unsent {
				t.Errorf("%d unsent calls, want %d", len(tr.Unsent), tc.unsent)
			}
			if len(tr.Warnings) != 0 {
				t.Errorf("warnings %v", tr.Warnings)
			}
			l, err := List(tr)
			if err != nil {
				t.Fatal(err)
			}
			if l.Recorded == nil || l.Recorded.Calls != tc.calls || l.Recorded.Usage != tc.want {
				t.Errorf("recorded %+v, want %d calls %+v", l.Recorded, tc.calls, tc.want)
			}
		})
	}
}
