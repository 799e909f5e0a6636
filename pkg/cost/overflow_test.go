package cost

import (
	"errors"
	"github.com/harpe-dev/harpe/internal/checked"
	"math"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestSimulateOverflow: a window whose blocks, or calls whose totals, add
// up past 2^63−1 are an error naming the call, never a wrapped price.
func TestSimulateOverflow(t *testing.T) {
	half := Block{ID: "h", Tokens: 1 << 62}
	tests := []struct {
		name  string
		calls []Call
		want  string // "" when it fits
	}{
		// 2^62 + (2^62 − 1) = 2^63 − 1 fits.
		{"window at the bound", []Call{{Model: "gpt-4o", Time: t0, Blocks: []Block{half, {ID: "x", Tokens: 1<<62 - 1}}}}, ""},
		{"window past the bound", []Call{{Model: "gpt-4o", Time: t0, Blocks: []Block{half, half}}},
			"call 1: the window's block tokens add up to more than 9223372036854775807 tokens"},
		// Each call's uncached 2^62 fits; the total after the second call,
		// 2·2^62 = 2^63, does not (rule none: nothing is cached).
		{"totals over calls", []Call{{Model: "gpt-4o", Time: t0, Blocks: []Block{half}}, {Model: "gpt-4o", Time: t0, Blocks: []Block{half}}},
			"call 2: the calls' cache read, cache write, uncached and output tokens add up to more than 9223372036854775807 tokens"},
		{"output over calls", []Call{{Model: "gpt-4o", Time: t0, Output: math.MaxInt}, {Model: "gpt-4o", Time: t0, Output: 1}},
			"call 2: the calls' cache read, cache write, uncached and output tokens add up to more than 9223372036854775807 tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Simulate(tt.calls, Options{Rule: "none"})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var oe *checked.OverflowError
			if err == nil || err.Error() != tt.want || !errors.As(err, &oe) {
				t.Errorf("Simulate: %v, want %s", err, tt.want)
			}
		})
	}
}

// TestRecordedOverflow: recorded totals past 2^63−1 name the message.
func TestRecordedOverflow(t *testing.T) {
	// Two calls of 5·10^18 cache reads: 10^19 > 2^63−1 ≈ 9.22·10^18.
	in := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":5000000000000000000,"cache_read_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":5000000000000000000,"cache_read_tokens":5000000000000000000}
`
	ts, err := transcript.Read(strings.NewReader(in), "s.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Recorded(ts[0], nil)
	var oe *checked.OverflowError
	if err == nil || err.Error() != "message 3: the recorded input, cache and output tokens add up to more than 9223372036854775807 tokens" || !errors.As(err, &oe) {
		t.Errorf("Recorded: %v", err)
	}
}
