package cmd

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/cost"
	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

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

// TestTranscriptTablesWriteErrors: the message table, the breakdown and
// the summary return the error of whichever write fails.
func TestTranscriptTablesWriteErrors(t *testing.T) {
	collect := func(build transcript.Build) *transcript.Collected {
		f, err := os.Open(filepath.Join("..", "testdata", "transcripts", "claude-code", "session.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		got, err := transcript.Collect(context.Background(), f, "session.jsonl", transcript.CollectOptions{
			Build: build, Counter: tokenize.Estimate, Pricer: cost.RecordedPricer(nil)})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	listings := collect(transcript.BuildListing).Listings
	b, err := transcript.NewBreakdown(collect(transcript.BuildBreakdown).Breakdowns)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := transcript.NewSummary(collect(transcript.BuildSummary).Summaries, "session")
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(w *nthFailing) error{
		"messages":  func(w *nthFailing) error { return writeTranscriptTables(w, listings) },
		"breakdown": func(w *nthFailing) error { return writeBreakdownTable(w, b) },
		"summary":   func(w *nthFailing) error { return writeSummaryTable(w, sum, sum.Unpriced()) },
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
