package usage

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/checked"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

// TestListingOverflow: totals over calls that pass the largest int are an
// error naming the line of the call's usage, for the listing and the
// breakdown fed from Scan.
func TestListingOverflow(t *testing.T) {
	// 5·10^18 twice is 10^19 > 2^63−1 ≈ 9.22·10^18.
	in := `{"type":"user","content":"one"}
{"type":"assistant","content":"a"}
{"type":"usage","input_tokens":10,"output_tokens":5000000000000000000}
{"type":"user","content":"two"}
{"type":"assistant","content":"b"}
{"type":"usage","input_tokens":10,"output_tokens":5000000000000000000}
`
	const want = "s.jsonl:6: the recorded output tokens add up to more than " + maxInt + " tokens"
	var l Listing
	err := transcript.Scan(context.Background(), strings.NewReader(in), "s.jsonl", "", func(t *transcript.Transcript, m *transcript.Message) error { return l.Add(m) }, nil)
	if err == nil || err.Error() != want {
		t.Errorf("listing: %v, want %s", err, want)
	}
	var tally UsageTally
	err = transcript.Scan(context.Background(), strings.NewReader(in), "s.jsonl", "", func(t *transcript.Transcript, m *transcript.Message) error {
		return tally.Add(m, nil)
	}, nil)
	if err == nil || err.Error() != want {
		t.Errorf("tally: %v, want %s", err, want)
	}
	// List on a transcript read whole names the message.
	ts, err := transcript.Read(strings.NewReader(in), "s.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := List(ts[0]); err == nil || err.Error() != "message 3: the recorded output tokens add up to more than "+maxInt+" tokens" {
		t.Errorf("List: %v", err)
	}
	// One call alone fits.
	one := strings.Join(strings.Split(in, "\n")[:3], "\n") + "\n"
	ts, err = transcript.Read(strings.NewReader(one), "s.jsonl", "")
	if err != nil {
		t.Fatal(err)
	}
	if l, err := List(ts[0]); err != nil || l.Recorded.Output != 5e18 {
		t.Errorf("List of one call: %v, %+v", err, l)
	}
}

// TestNewBreakdownOverflow: totals over sessions that pass the largest
// int name the file of the session that took them there.
func TestNewBreakdownOverflow(t *testing.T) {
	mk := func(file string, user int, out int) *SessionBreakdown {
		s := NewSessionBreakdown(file, nil)
		s.Tokens.User = user
		if out > 0 {
			s.Recorded = &RecordedUsage{Calls: 1, Usage: transcript.Usage{Output: out}}
		}
		return s
	}
	tests := []struct {
		name     string
		sessions []*SessionBreakdown
		want     string
	}{
		{"fits", []*SessionBreakdown{mk("a", 1, 1), mk("b", 2, 2)}, ""},
		{"user tokens", []*SessionBreakdown{mk("a", math.MaxInt, 0), mk("b", 1, 0)}, "b: totals over the sessions: the user messages' tokens add up to more than " + maxInt + " tokens"},
		{"recorded output", []*SessionBreakdown{mk("a", 0, 1<<62), mk("b", 0, 1<<62), mk("c", 0, 1)}, "b: totals over the sessions: the recorded output tokens add up to more than " + maxInt + " tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := NewBreakdown(tt.sessions)
			if tt.want == "" {
				if err != nil || b.Totals.Tokens.User != 3 || b.Totals.Recorded.Output != 3 {
					t.Errorf("NewBreakdown = %v, %+v", err, b)
				}
				return
			}
			var oe *checked.OverflowError
			if err == nil || err.Error() != tt.want || !errors.As(err, &oe) {
				t.Errorf("NewBreakdown: %v, want %s", err, tt.want)
			}
		})
	}
}

func TestRecordedUsageAdd(t *testing.T) {
	tests := []struct {
		name string
		a, b RecordedUsage
		want string // "" when it fits
	}{
		{"fits", RecordedUsage{Calls: 1, Usage: transcript.Usage{Input: 2}}, RecordedUsage{Calls: 2, Usage: transcript.Usage{Input: 3}}, ""},
		{"input", RecordedUsage{Usage: transcript.Usage{Input: math.MaxInt}}, RecordedUsage{Usage: transcript.Usage{Input: 1}}, "the recorded input tokens"},
		{"cache read", RecordedUsage{Usage: transcript.Usage{CacheRead: math.MaxInt}}, RecordedUsage{Usage: transcript.Usage{CacheRead: 1}}, "the recorded cache read tokens"},
		{"cache write", RecordedUsage{Usage: transcript.Usage{CacheWrite: 1 << 62}}, RecordedUsage{Usage: transcript.Usage{CacheWrite: 1 << 62}}, "the recorded cache write tokens"},
		{"1h cache write", RecordedUsage{Usage: transcript.Usage{CacheWrite1h: math.MaxInt}}, RecordedUsage{Usage: transcript.Usage{CacheWrite1h: math.MaxInt}}, "the recorded 1-hour cache write tokens"},
		{"output", RecordedUsage{Usage: transcript.Usage{Output: math.MaxInt}}, RecordedUsage{Usage: transcript.Usage{Output: 1}}, "the recorded output tokens"},
		{"calls", RecordedUsage{Calls: math.MaxInt}, RecordedUsage{Calls: 1}, "the recorded calls"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.a
			err := r.Add(&tt.b)
			if tt.want == "" {
				if err != nil || r.Calls != 3 || r.Input != 5 {
					t.Errorf("Add = %v, %+v; want 3 calls, 5 input", err, r)
				}
				return
			}
			var oe *checked.OverflowError
			if !errors.As(err, &oe) || oe.What != tt.want {
				t.Errorf("Add: %v, want an overflow of %s", err, tt.want)
			}
			if r != tt.a {
				t.Errorf("after the error r = %+v, want it unchanged %+v", r, tt.a)
			}
		})
	}
}

// TestSortToolsLarge: tools sort by result tokens even when their
// difference does not fit an int (a subtraction used to wrap).
func TestSortToolsLarge(t *testing.T) {
	got := sortTools(map[string]*ToolTokens{"big": {Name: "big", ResultTokens: math.MaxInt}, "neg": {Name: "neg", ResultTokens: -2}})
	if got[0].Name != "big" {
		t.Errorf("order %v, want big first", got)
	}
}
