package transcript

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// TestScanMatchesRead reads every sample both ways: Scan must hand on
// the same messages, in order, with the same turns, aborts, usage and
// metadata, and report the same counts, pairs and skipped records.
func TestScanMatchesRead(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", "*", "*"))
	if err != nil || len(files) < 20 {
		t.Fatalf("%d samples, %v", len(files), err)
	}
	for _, p := range files {
		if filepath.Base(filepath.Dir(p)) == "tree" {
			continue // a directory tree, read by testdata/script/transcript_dirs.txtar
		}
		t.Run(filepath.Base(filepath.Dir(p))+"/"+filepath.Base(p), func(t *testing.T) {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Read(strings.NewReader(string(data)), p, "")
			if err != nil {
				t.Fatal(err)
			}
			var got []Message
			var seen []*Transcript
			var heads []*Transcript
			err = Scan(context.Background(), strings.NewReader(string(data)), p, "", func(tr *Transcript, m *Message) error {
				if !slices.Contains(seen, tr) {
					seen = append(seen, tr)
				}
				got = append(got, *m)
				return nil
			}, func(t *Transcript) error { heads = append(heads, t); return nil })
			if err != nil {
				t.Fatal(err)
			}
			if len(heads) != len(want) {
				t.Fatalf("%d transcripts, want %d", len(heads), len(want))
			}
			var all []Message
			for i, w := range want {
				all = append(all, w.Messages...)
				h := heads[i]
				if h.Messages != nil {
					t.Errorf("Scan kept %d messages", len(h.Messages))
				}
				if h.Turns != w.Turns || fmt.Sprint(h.Unpaired) != fmt.Sprint(w.Unpaired) ||
					fmt.Sprint(h.Skipped) != fmt.Sprint(w.Skipped) || fmt.Sprint(h.Compactions) != fmt.Sprint(w.Compactions) {
					t.Errorf("transcript %d:\n got %d %v %v %v\nwant %d %v %v %v", i, h.Turns, h.Unpaired, h.Skipped, h.Compactions,
						w.Turns, w.Unpaired, w.Skipped, w.Compactions)
				}
			}
			if len(got) != len(all) {
				t.Fatalf("%d messages, want %d", len(got), len(all))
			}
			for i := range got {
				if g, w := msgString(got[i]), msgString(all[i]); g != w {
					t.Fatalf("message %d\n got %s\nwant %s", i, g, w)
				}
			}
			// CountBilled streams to what BilledTokens counts on the whole.
			sum := 0
			for _, w := range want {
				sum += BilledTokens(w, tokenize.Estimate)
			}
			n, err := CountBilled(context.Background(), strings.NewReader(string(data)), p, "", tokenize.Estimate)
			if err != nil || n != sum {
				t.Errorf("CountBilled = %d, %v; BilledTokens sum %d", n, err, sum)
			}
		})
	}
}

// TestScanStops checks that an error from fn stops the reading and is
// returned.
func TestScanStops(t *testing.T) {
	stop := errors.New("enough")
	n := 0
	in := strings.Repeat("{\"type\":\"user\",\"content\":\"a\"}\n", 100)
	err := Scan(context.Background(), strings.NewReader(in), "x", "", func(*Transcript, *Message) error {
		n++
		return stop
	}, nil)
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want %v", err, stop)
	}
	if n != 1 {
		t.Errorf("fn called %d times after its error", n)
	}
}

// msgString prints every field of m, InputTokens by value.
func msgString(m Message) string {
	in := "nil"
	if m.InputTokens != nil {
		in = fmt.Sprint(*m.InputTokens)
	}
	usage := "nil"
	if m.Usage != nil {
		usage = fmt.Sprintf("%+v", *m.Usage)
	}
	m.InputTokens, m.Usage = nil, nil
	return fmt.Sprintf("%+v input=%s usage=%s", m, in, usage)
}
