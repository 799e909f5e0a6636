package report_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/internal/table"
	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
	"github.com/harpe-dev/harpe/report"
)

func ExampleWriteTranscriptListings() {
	events := `{"type":"system","content":"You are terse."}
{"type":"user","content":"List the files."}
{"type":"assistant","content":"","tool_calls":[{"id":"c1","name":"ls","arguments":"{}"}]}
{"type":"usage","input_tokens":40}
{"type":"tool_result","tool_call_id":"c1","content":"go.mod main.go"}
{"type":"assistant","content":"go.mod and main.go."}
`
	ts, err := transcript.Read(strings.NewReader(events), "chat.jsonl", "")
	if err != nil {
		panic(err)
	}
	l, err := usage.List(ts[0])
	if err != nil {
		panic(err)
	}
	if err := report.WriteTranscriptListings(os.Stdout, []*usage.Listing{l}, table.Options{Width: 80}); err != nil {
		panic(err)
	}
	// Output:
	// harpe transcript: 5 messages, 1 turn, 0 unpaired, 0 compactions
	// +---+------+-----------+-------+-------+--------+-------+
	// | # | turn | role      | chars | input | tool   | notes |
	// +---+------+-----------+-------+-------+--------+-------+
	// | 0 | 0    | system    | 14    |       |        |       |
	// | 1 | 1    | user      | 15    |       |        |       |
	// | 2 | 1    | assistant | 4     | 40    | 1 call |       |
	// | 3 | 1    | tool      | 14    |       | result |       |
	// | 4 | 1    | assistant | 19    |       |        |       |
	// +---+------+-----------+-------+-------+--------+-------+
	// |   |      | total     | 66    |       |        |       |
	// +---+------+-----------+-------+-------+--------+-------+
}

// nthFailing fails its n-th Write (counting from 0) and takes every
// other, as a pipe with a transient error would: a writer whose error is
// dropped once loses it for good.
type nthFailing struct {
	n, calls int
	buf      bytes.Buffer
}

var errNth = errors.New("write failed")

func (f *nthFailing) Write(p []byte) (int, error) {
	defer func() { f.calls++ }()
	if f.calls == f.n {
		return 0, errNth
	}
	return f.buf.Write(p)
}

// TestTablesWriteErrors: the message table, the breakdown and the
// summary return the error of whichever write fails.
func TestTablesWriteErrors(t *testing.T) {
	collect := func(build usage.Build) *usage.Collected {
		f, err := os.Open(filepath.Join("..", "testdata", "transcripts", "claude-code", "session.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := usage.Collect(context.Background(), f, "session.jsonl", usage.CollectOptions{
			Build: build, Counter: tokenize.Estimate, Catalog: prices.Default()})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	listings := collect(usage.BuildListing).Listings
	b, err := usage.NewBreakdown(collect(usage.BuildBreakdown).Breakdowns)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := usage.NewSummary(collect(usage.BuildSummary).Summaries, "session")
	if err != nil {
		t.Fatal(err)
	}
	o := table.Options{Width: 80}
	for name, write := range map[string]func(w *nthFailing) error{
		"messages":  func(w *nthFailing) error { return report.WriteTranscriptListings(w, listings, o) },
		"breakdown": func(w *nthFailing) error { return report.WriteTranscriptBreakdown(w, b, o) },
		"summary":   func(w *nthFailing) error { return report.WriteTranscriptSummary(w, sum) },
	} {
		all := &nthFailing{n: -1}
		if err := write(all); err != nil {
			t.Fatal(err)
		}
		for n := range all.calls {
			if err := write(&nthFailing{n: n}); !errors.Is(err, errNth) {
				t.Errorf("%s: write %d of %d failed, the writer returned %v", name, n, all.calls, err)
			}
		}
	}
}

// The summary of one session of two calls, as ExampleNewSummary builds
// it: tokens from 10,000 up in three digits, no cost without a pricer.
func ExampleWriteTranscriptSummary() {
	at := time.Date(2026, 11, 24, 9, 12, 3, 0, time.UTC)
	s := usage.NewSessionSummary("projects/-src-shop/s.jsonl", "/src/shop")
	for i, u := range []transcript.Usage{{Input: 2, CacheWrite: 12000, Output: 400}, {Input: 1, CacheRead: 12000, CacheWrite: 800, Output: 90}} {
		m := transcript.Message{Role: transcript.RoleAssistant, Model: "claude-sonnet-4-5", Timestamp: at.Add(time.Duration(i) * time.Minute), Usage: &u}
		if err := s.Add(&m); err != nil {
			panic(err)
		}
	}
	if err := s.Finish(&transcript.Transcript{Format: "claude-code"}); err != nil {
		panic(err)
	}
	var ss usage.SessionSummaries
	ss.Add(s)
	sum, err := usage.NewSummary(ss, "session")
	if err != nil {
		panic(err)
	}
	if err := report.WriteTranscriptSummary(os.Stdout, sum); err != nil {
		panic(err)
	}
	// Output:
	// start (UTC)        calls   input  cache read  cache write   output     cost $
	// 2026-11-24 09:12       2       3       12.0k        12.8k      490          -
	//   /src/shop  claude-code: sonnet-4-5
	// total                  2       3       12.0k        12.8k      490          -
}
