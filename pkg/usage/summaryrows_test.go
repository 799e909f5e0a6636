package usage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/harpe-dev/harpe/pkg/transcript"
)

// summaryOracle is a [Summary] as plain fields, encoding/json's to
// write: the shape the summary's JSON has always had.
type summaryOracle struct {
	By       string            `json:"by"`
	Sessions []*SessionSummary `json:"sessions,omitempty"`
	Groups   []*SummaryGroup   `json:"groups,omitempty"`
	Totals   SummaryGroup      `json:"totals"`
}

func oracleOf(s *Summary) *summaryOracle {
	o := &summaryOracle{By: s.By, Groups: s.Groups, Totals: s.Totals}
	for i := range s.Sessions.Len() {
		o.Sessions = append(o.Sessions, s.Sessions.At(i))
	}
	return o
}

// collectTestdata is the summaries of every transcript under
// testdata/transcripts, priced from datedPrices, in path order.
func collectTestdata(t *testing.T) SessionSummaries {
	t.Helper()
	var all Collected
	root := filepath.Join("..", "..", "testdata", "transcripts")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := Collect(context.Background(), bytes.NewReader(data), filepath.ToSlash(path), CollectOptions{Catalog: datedPrices})
		if err != nil {
			return nil // not a transcript (or one made to fail)
		}
		all.Append(got)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all.Summaries
}

// TestSummaryJSONOracle: json.Marshal of a summary, its sessions
// encoded a session at a time, is json.Marshal of the same figures as
// plain fields, in every grouping, with no session, and with names that
// HTML would escape, and so inside another value. (The indented writer
// of `harpe transcript --format json` is report's, checked there.)
func TestSummaryJSONOracle(t *testing.T) {
	sums := collectTestdata(t)
	if sums.Len() < 20 {
		t.Fatalf("%d sessions in testdata, want at least 20", sums.Len())
	}
	odd := NewSessionSummary(`a<b>&"c".jsonl`, "")
	if err := odd.Finish(&transcript.Transcript{Format: "harpe", ID: "<x>"}); err != nil {
		t.Fatal(err)
	}
	sums.Add(odd)
	for _, tc := range []struct {
		name string
		in   SessionSummaries
		by   string
	}{
		{"session", sums, "session"},
		{"day", sums, "day"},
		{"project", sums, "project"},
		{"model", sums, "model"},
		{"no session", SessionSummaries{}, "session"},
		{"no day", SessionSummaries{}, "day"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSummary(tc.in, tc.by)
			if err != nil {
				t.Fatal(err)
			}
			gotM, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			wantM, _ := json.Marshal(oracleOf(s))
			if !bytes.Equal(gotM, wantM) {
				t.Errorf("json.Marshal:\n%s\nwant:\n%s", gotM, wantM)
			}
			inside, _ := json.Marshal([]Summary{*s})
			if want := "[" + string(wantM) + "]"; string(inside) != want {
				t.Errorf("json.Marshal of a []Summary:\n%s\nwant:\n%s", inside, want)
			}
		})
	}
}

// TestSessionSummariesOrder: sessions sort by start time to the
// nanosecond (a year outside int64 nanoseconds included), those with
// no time last in the order added; a session added to the sorted view
// is not seen by what it was sorted from, nor the other way.
func TestSessionSummariesOrder(t *testing.T) {
	session := func(id, ts string) *SessionSummary {
		s := NewSessionSummary("f.json", "/p")
		if ts != "" {
			at, err := time.Parse(time.RFC3339Nano, ts)
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Add(&transcript.Message{Role: transcript.RoleUser, Timestamp: at}); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Finish(&transcript.Transcript{Format: "harpe", ID: id}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	var ss SessionSummaries
	ss.Add(session("none1", ""), session("half", "2026-01-02T10:00:00.5Z"), session("quarter", "2026-01-02T10:00:00.25Z"),
		session("none2", ""), session("y1500", "1500-01-01T00:00:00Z"), session("y3000", "3000-01-01T00:00:00+01:00"))
	sum, err := NewSummary(ss, "session")
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ss *SessionSummaries) string {
		var out []string
		for i := range ss.Len() {
			out = append(out, ss.At(i).Conversation)
		}
		return strings.Join(out, " ")
	}
	if got, want := ids(&sum.Sessions), "y1500 quarter half y3000 none1 none2"; got != want {
		t.Errorf("sorted %s, want %s", got, want)
	}
	if s := sum.Sessions.At(3); *s.Start != "2999-12-31T23:00:00Z" || *s.End != *s.Start {
		t.Errorf("y3000: start %s end %s, want 2999-12-31T23:00:00Z for both", *s.Start, *s.End)
	}
	sum.Sessions.Add(session("late", "2026-05-05T00:00:00Z"))
	ss.Add(session("later", "2026-06-06T00:00:00Z"))
	if got, want := ids(&sum.Sessions), "y1500 quarter half y3000 none1 none2 late"; got != want {
		t.Errorf("sorted view after an add: %s, want %s", got, want)
	}
	if got, want := ids(&ss), "none1 half quarter none2 y1500 y3000 later"; got != want {
		t.Errorf("added after the view: %s, want %s", got, want)
	}
}

// TestSessionSummariesAppend: Append joins files' sessions in order,
// whether it takes a file's chunks of rows as they are (the report's
// chunks full) or copies its rows (not); rows added afterwards to a file
// or to the report are not seen by the other.
func TestSessionSummariesAppend(t *testing.T) {
	file := func(name string, n int) SessionSummaries {
		var ss SessionSummaries
		for i := range n {
			s := NewSessionSummary(name, "")
			if err := s.Finish(&transcript.Transcript{Format: "sharegpt", ID: fmt.Sprint(i)}); err != nil {
				t.Fatal(err)
			}
			ss.Add(s)
		}
		return ss
	}
	a, b, c := file("a", 2*rowsPerChunk), file("b", rowsPerChunk+5), file("c", 3)
	var all Collected
	for _, f := range []SessionSummaries{a, b, c} {
		all.Append(&Collected{Summaries: f})
	}
	late := file("late", 1)
	a.Add(late.At(0))
	b.Add(late.At(0))
	end := file("end", 1)
	all.Summaries.Add(end.At(0))
	want := func(i int) string {
		switch {
		case i < 2*rowsPerChunk:
			return fmt.Sprintf("a:%d", i)
		case i < 3*rowsPerChunk+5:
			return fmt.Sprintf("b:%d", i-2*rowsPerChunk)
		case i < 3*rowsPerChunk+8:
			return fmt.Sprintf("c:%d", i-3*rowsPerChunk-5)
		}
		return "end:0"
	}
	if n := all.Summaries.Len(); n != 3*rowsPerChunk+9 {
		t.Fatalf("%d sessions, want %d", n, 3*rowsPerChunk+9)
	}
	for i := range all.Summaries.Len() {
		s := all.Summaries.At(i)
		if got := s.File + ":" + s.Conversation; got != want(i) {
			t.Fatalf("session %d: %s, want %s", i, got, want(i))
		}
	}
	if s := b.At(rowsPerChunk + 5); b.Len() != rowsPerChunk+6 || s.File != "late" {
		t.Errorf("b after the append: %d sessions, the last of %s", b.Len(), s.File)
	}
}

// TestSummaryLongIDs: ids that would take a chunk's names past what its
// offsets reach are kept apart, and every id comes back as given, in the
// order added and in a sorted view.
func TestSummaryLongIDs(t *testing.T) {
	defer func(n int) { maxChunkNames = n }(maxChunkNames)
	maxChunkNames = 10
	ids := []string{"abc", "defgh", "ij", "klmnopqrstu", "v", ""}
	var ss SessionSummaries
	for _, id := range ids {
		s := NewSessionSummary("f.json", "")
		if err := s.Finish(&transcript.Transcript{ID: id, Format: transcript.FormatShareGPT}); err != nil {
			t.Fatal(err)
		}
		ss.Add(s)
	}
	// "abc" (3), "defgh" (8), "ij" (10) fit; "klmnopqrstu" would make 21,
	// "v" 11: both apart; "" fits (10).
	if n := len(ss.chunks[0].long); n != 2 {
		t.Errorf("%d ids kept apart, want 2", n)
	}
	sorted := ss.byStart()
	for i, want := range ids {
		if got := ss.At(i).Conversation; got != want {
			t.Errorf("session %d: %q, want %q", i, got, want)
		}
		if got := sorted.At(i).Conversation; got != want {
			t.Errorf("sorted session %d: %q, want %q", i, got, want)
		}
	}
}
