package window_test

import (
	"context"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/window"
)

// TestCalibrate works the sizes from the records by hand (estimate
// tokens: each one-word text below is 1 token, "hello there" 2):
//
//	sys "sys" 1; turn 1 "hello there" 2; call 1 records 100;
//	reply "a", turn 2 "b", turn 3 "d"; call 2 records 107;
//	reply "c"; call 3 records 100; reply "e".
//
// Call 1's window counts 1 + 2 = 3: the front is 97. Call 2's prompt less
// the front and the 3 sized is 7, shared by "a", "b", "d" (1 each):
// ⌊7·1/3⌋ = 2, ⌊7·2/3⌋ − 2 = 4 − 2 = 2, 7 − 4 = 3. Call 3's gap is 100 −
// 97 − (3 + 7) = −7: "c" keeps its count, 1. So full's counted windows are
// 3, 1+2+2+2+3 = 10 and 11, and turn (the active turn, plus the system
// part and the call's overhead, recorded minus full's counted) sends 1 + 2
// + 97 = 100, 1 + 3 + 97 = 101 ("d" alone), 1 + 3 + 1 + 89 = 94 ("d" and
// "c"). With CountedSizes the counts stand: turn sends 100, 1 + 1 + (107 −
// 6) = 103, 1 + 1 + 1 + (100 − 7) = 96.
func TestCalibrate(t *testing.T) {
	const events = `{"type":"system","content":"sys"}
{"type":"user","content":"hello there"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":100}
{"type":"user","content":"b"}
{"type":"user","content":"d"}
{"type":"assistant","content":"c"}
{"type":"usage","input_tokens":107}
{"type":"assistant","content":"e"}
{"type":"usage","input_tokens":100}
`
	ts, err := transcript.Read(strings.NewReader(events), "cal.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		counted bool
		full    []int // full's counted window per call
		turn    []int // turn's tokens per call
		cal     *window.Calibration
	}{
		{"from the records", false, []int{3, 10, 11}, []int{100, 101, 94},
			&window.Calibration{Front: 97, Counted: 3, Recorded: 7, Ratio: 0.429, Gaps: 1, Messages: 3}},
		{"counted", true, []int{3, 6, 7}, []int{100, 103, 96}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := window.Replay(context.Background(), ts[0], []window.Strategy{window.Full, window.TurnOnly},
				window.ReplayOptions{Options: window.DefaultOptions(), CountedSizes: tc.counted})
			if err != nil {
				t.Fatal(err)
			}
			for k, c := range res[0].Calls {
				if c.Counted != tc.full[k] {
					t.Errorf("full call %d counts %d, want %d", k+1, c.Counted, tc.full[k])
				}
			}
			for k, c := range res[1].Calls {
				if c.Tokens != tc.turn[k] {
					t.Errorf("turn call %d sends %d, want %d", k+1, c.Tokens, tc.turn[k])
				}
			}
			got := res[1].Totals.Calibration
			if (got == nil) != (tc.cal == nil) || got != nil && *got != *tc.cal {
				t.Errorf("calibration %+v, want %+v", got, tc.cal)
			}
		})
	}
}
