package cost

import (
	"math"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// TestRecorded prices a two-call Claude Code session from its usage
// alone, worked by hand: call 1 on claude-opus-4-5 ($5 input, $0.50 read,
// $6.25 5-minute write, $10 1-hour write, $25 output), call 2 on an
// unknown model (priced at zero and listed).
func TestRecorded(t *testing.T) {
	in := `{"type":"user","uuid":"u1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1000,"cache_read_input_tokens":20000,"cache_creation":{"ephemeral_5m_input_tokens":600,"ephemeral_1h_input_tokens":400},"output_tokens":200}}}
{"type":"assistant","uuid":"a2","timestamp":"2026-01-01T00:00:01.000Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1000,"cache_read_input_tokens":20000,"output_tokens":200}}}
{"type":"user","uuid":"u2","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"user","content":"more"}}
{"type":"assistant","uuid":"a3","timestamp":"2026-01-01T00:00:03.000Z","message":{"id":"m2","role":"assistant","model":"my-model","content":"c","usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":5}}}
`
	ts, err := transcript.Read(strings.NewReader(in), "s.jsonl", "claude-code")
	if err != nil {
		t.Fatal(err)
	}
	calls, tot, err := Recorded(ts[0], nil)
	if err != nil {
		t.Fatal(err)
	}
	// 3×5 + 20000×0.50 + 600×6.25 + 400×10 + 200×25 = 15 + 10000 + 3750 + 4000 + 5000
	const want = 22765e-6
	if len(calls) != 2 || math.Abs(calls[0].CostUSD-want) > 1e-12 || calls[1].CostUSD != 0 {
		t.Fatalf("calls %+v", calls)
	}
	if tot.Calls != 2 || tot.Input != 13 || tot.CacheRead != 20000 || tot.CacheWrite != 1000 || tot.CacheWrite1h != 400 ||
		tot.Output != 205 || math.Abs(tot.CostUSD-want) > 1e-12 || len(tot.Unpriced) != 1 || tot.Unpriced[0] != "my-model" {
		t.Errorf("totals %+v", tot)
	}
}

// TestRecordedSamples checks the sample sessions' recorded totals against
// sums taken with jq over the files (one usage per message.id for Claude
// Code; one last_token_usage per change of total_token_usage for Codex):
//
//	jq -s '[.[]|select(.type=="assistant")]|unique_by(.message.id)|map(.message.usage)|
//	  {i:(map(.input_tokens)|add), r:(map(.cache_read_input_tokens)|add),
//	   w:(map(.cache_creation_input_tokens)|add), o:(map(.output_tokens)|add)}' FILE
//
// (for Codex, input is input_tokens − cached_input_tokens).
func TestRecordedSamples(t *testing.T) {
	tests := []struct {
		rel                               string
		calls, input, read, write, output int
	}{
		{agentSamples[0], 230, 460, 17158013, 737580, 68183},
		{agentSamples[1], 30, 61, 1148538, 67789, 9500},
		{agentSamples[2], 220, 554607, 22092928, 0, 69727},
	}
	for _, tc := range tests {
		t.Run(tc.rel, func(t *testing.T) {
			_, tot, err := Recorded(readSample(t, tc.rel), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tot.Calls != tc.calls || tot.Input != tc.input || tot.CacheRead != tc.read || tot.CacheWrite != tc.write || tot.Output != tc.output {
				t.Errorf("got %+v, want %d calls, input %d, read %d, write %d, output %d", tot, tc.calls, tc.input, tc.read, tc.write, tc.output)
			}
		})
	}
}

// TestListingCostSample prices the main Claude Code sample call by call
// through a listing. Every call is below 200,000 prompt tokens and the
// models' prices have no dates, so the sum is the per-model one, by
// hand, from the jq sums per model:
//
//	opus-4-5:   226×5 + 8,574,973×0.50 + 276,749×6.25 + 33,076×25 = 6,845,197.75 µ$
//	sonnet-4-5: 234×3 + 8,583,040×0.30 + 460,831×3.75 + 35,107×15 = 4,830,335.25 µ$
//
// $11.675533 in all; Recorded gives the same from the calls.
func TestListingCostSample(t *testing.T) {
	tr := readSample(t, agentSamples[0])
	l := pricedListing(t, tr)
	if l.CostUSD == nil || len(l.UnpricedModels) != 0 || math.Abs(*l.CostUSD-11.675533) > 1e-9 {
		t.Errorf("listing cost = %v %v, want 11.675533", l.CostUSD, l.UnpricedModels)
	}
	if _, tot, _ := Recorded(tr, nil); math.Abs(tot.CostUSD-11.675533) > 1e-9 {
		t.Errorf("Recorded = %v", tot.CostUSD)
	}
}

// pricedListing is the listing of tr with each call priced from the
// built-in catalog.
func pricedListing(t *testing.T, tr *transcript.Transcript) *usage.Listing {
	t.Helper()
	l := &usage.Listing{Catalog: prices.Default()}
	for i := range tr.Messages {
		if err := l.Add(&tr.Messages[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.SetHeader(tr); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestRoundUSD: sums of token costs come out as the decimal the prices
// give, worked by hand. 0.1+0.2 in float64 is the classic residue
// (0.30000000000000004); the agent sample's subagent costs $0.24715105 by
// hand (see TestListingCostSubagent), which the per-model float sum misses
// in the 17th digit.
func TestRoundUSD(t *testing.T) {
	tests := []struct {
		name string
		in   float64
		want float64
	}{
		{"zero", 0, 0},
		{"float residue", 0.30000000000000004, 0.3}, // 0.1 + 0.2 in float64
		{"residue below", 0.24715104999999998, 0.24715105},
		{"a tenth of a nano-dollar kept", 3.75e-8 * 3, 1.125e-7},
		{"whole dollars", 11.675533000000005, 11.675533},
		{"negative", -0.30000000000000004, -0.3},
		{"large left as is", 123456.78900000001, 123456.78900000001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RoundUSD(tt.in); got != tt.want {
				t.Errorf("RoundUSD(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

// TestListingCostSubagent: the subagent sample's cost is exactly the
// decimal worked by hand, with no float residue, so the JSON reads
// 0.24715105: claude-haiku-4-5 at $1 input, $0.10 cache read, $1.25
// 5-minute write, $5 output per million, on its recorded sums (61, 1,148,538,
// 67,789, 9,500): 61 + 114,853.8 + 84,736.25 + 47,500 = 247,151.05 µ$.
func TestListingCostSubagent(t *testing.T) {
	tr := readSample(t, agentSamples[1])
	if l := pricedListing(t, tr); l.CostUSD == nil || *l.CostUSD != 0.24715105 {
		t.Errorf("listing cost = %v, want exactly 0.24715105", l.CostUSD)
	}
}
