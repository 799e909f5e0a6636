package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/harpe-dev/harpe/pkg/prices"
	"github.com/harpe-dev/harpe/pkg/transcript"
	"github.com/harpe-dev/harpe/pkg/usage"
)

// indented is what an indenting json.Encoder without HTML escaping writes for
// v: the reference WriteTranscriptListingsJSON must match byte for byte.
func indented(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWriteTranscriptListingsJSON checks that the streaming writer gives
// exactly the bytes json.Encoder gives for the same value, for every sample.
func TestWriteTranscriptListingsJSON(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "transcripts", "*", "*"))
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	for _, p := range files {
		if filepath.Base(filepath.Dir(p)) == "tree" {
			continue // a directory tree, read by testdata/script/transcript_dirs.txtar
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		ts, err := transcript.Read(f, p, "")
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var ls []*usage.Listing
		for _, tr := range ts {
			ls = append(ls, mustList(t, tr))
		}
		want := indented(t, ls)
		if len(ls) == 1 {
			want = indented(t, ls[0])
		}
		var got bytes.Buffer
		if err := WriteTranscriptListingsJSON(&got, ls); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: streaming JSON differs from json.Encoder's", p)
		}
	}
	// None, and several listings, one of them empty, and a conversation
	// id that holds the marker text.
	var got bytes.Buffer
	if err := WriteTranscriptListingsJSON(&got, nil); err != nil || got.String() != "[]\n" {
		t.Errorf("no listings: %q, %v", got.String(), err)
	}
	ls := []*usage.Listing{mustList(t, &transcript.Transcript{Format: "sharegpt", ID: `"messages": null`}),
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "b", Messages: []transcript.Message{{Role: "user", Text: "<hi>"}}})}
	want := indented(t, ls)
	got.Reset()
	if err := WriteTranscriptListingsJSON(&got, ls); err != nil || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want)
	}
}

// onceFailing fails its n-th Write (counting from 0) and takes every
// other, as a pipe with a transient error would: a writer whose error is
// ignored once loses it for good.
type onceFailing struct {
	n, calls int
	buf      bytes.Buffer
}

var errOnce = errors.New("write failed")

func (o *onceFailing) Write(p []byte) (int, error) {
	defer func() { o.calls++ }()
	if o.calls == o.n {
		return 0, errOnce
	}
	return o.buf.Write(p)
}

// TestWriteTranscriptListingsJSONErrors: WriteTranscriptListingsJSON returns
// the error of every write it makes, whichever one fails.
func TestWriteTranscriptListingsJSONErrors(t *testing.T) {
	ls := []*usage.Listing{
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "a", Messages: []transcript.Message{{Role: "user", Text: "hi"}, {Role: "assistant", Text: "yo"}}}),
		mustList(t, &transcript.Transcript{Format: "sharegpt", ID: "b"}),
	}
	// Count the writes of a whole run first.
	all := &onceFailing{n: -1}
	if err := WriteTranscriptListingsJSON(all, ls); err != nil {
		t.Fatal(err)
	}
	if all.calls < 10 {
		t.Fatalf("only %d writes: the test would prove little", all.calls)
	}
	for n := range all.calls {
		w := &onceFailing{n: n}
		if err := WriteTranscriptListingsJSON(w, ls); !errors.Is(err, errOnce) {
			t.Errorf("write %d of %d failed, WriteTranscriptListingsJSON returned %v", n, all.calls, err)
		}
	}
}

// mustList is usage.List, failing the test on an error.
func mustList(t *testing.T, tr *transcript.Transcript) *usage.Listing {
	t.Helper()
	l, err := usage.List(tr)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// transcriptSummaryOracle is a [usage.Summary] as plain fields,
// encoding/json's to write: the shape the summary's JSON has always had.
type transcriptSummaryOracle struct {
	By          string                  `json:"by"`
	Sessions    []*usage.SessionSummary `json:"sessions,omitempty"`
	Groups      []*usage.SummaryGroup   `json:"groups,omitempty"`
	Totals      usage.SummaryGroup      `json:"totals"`
	Skipped     []usage.SkippedFile     `json:"skipped,omitempty"`
	BrokenLines int                     `json:"broken_lines,omitempty"`
	BrokenAt    []string                `json:"broken_at,omitempty"`
}

func transcriptOracleOf(s *usage.Summary) *transcriptSummaryOracle {
	o := &transcriptSummaryOracle{By: s.By, Groups: s.Groups, Totals: s.Totals,
		Skipped: s.Skipped, BrokenLines: s.BrokenLines, BrokenAt: s.BrokenAt}
	for i := range s.Sessions.Len() {
		o.Sessions = append(o.Sessions, s.Sessions.At(i))
	}
	return o
}

// TestTranscriptSummaryJSONOracle: the summary's JSON, written a session
// at a time, is byte for byte what an indenting json.Encoder (no HTML
// escaping) writes of the same figures as plain fields, in every
// grouping, with no session, with what the report leaves out, and with
// names that HTML would escape; and it is the JSON of the summary's own
// encoding (usage.Summary.MarshalJSON), indented.
func TestTranscriptSummaryJSONOracle(t *testing.T) {
	var all usage.Collected
	root := filepath.Join("..", "testdata", "transcripts")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := usage.Collect(context.Background(), bytes.NewReader(data), filepath.ToSlash(path),
			usage.CollectOptions{Catalog: prices.Default()})
		if err != nil {
			return nil // not a transcript (or one made to fail)
		}
		all.Append(got)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sums := all.Summaries
	if sums.Len() < 20 {
		t.Fatalf("%d sessions in testdata, want at least 20", sums.Len())
	}
	odd := usage.NewSessionSummary(`a<b>&"c".jsonl`, "")
	if err := odd.Finish(&transcript.Transcript{Format: "harpe", ID: "<x>"}); err != nil {
		t.Fatal(err)
	}
	sums.Add(odd)
	for _, tc := range []struct {
		name    string
		in      usage.SessionSummaries
		by      string
		leftOut bool
	}{
		{"session", sums, "session", false},
		{"day", sums, "day", false},
		{"project", sums, "project", true},
		{"model", sums, "model", false},
		{"no session", usage.SessionSummaries{}, "session", true},
		{"no day", usage.SessionSummaries{}, "day", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := usage.NewSummary(tc.in, tc.by)
			if err != nil {
				t.Fatal(err)
			}
			if tc.leftOut {
				s.Skipped = []usage.SkippedFile{{File: "notes<1>.txt", Reason: "not a transcript"}}
				s.BrokenLines, s.BrokenAt = 2, []string{"a.jsonl:3:1", "a.jsonl:9:1"}
			}
			var got bytes.Buffer
			if err := WriteTranscriptSummaryJSON(&got, s); err != nil {
				t.Fatal(err)
			}
			if want := indented(t, transcriptOracleOf(s)); !bytes.Equal(got.Bytes(), want) {
				t.Errorf("WriteTranscriptSummaryJSON:\n%s\nwant:\n%s", got.String(), want)
			}
			// json.Marshal compacts both the same way (HTML escaped).
			own, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			written, err := json.Marshal(json.RawMessage(got.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(own, written) {
				t.Errorf("the summary's own JSON:\n%s\nwritten:\n%s", own, written)
			}
		})
	}
}
