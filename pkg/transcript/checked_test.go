package transcript

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// checkedSeeds are inputs that are not one valid JSON document: cut
// short, broken inside, with invalid UTF-8, a byte order mark, several
// documents, on one line or several.
var checkedSeeds = []string{
	`{"messages":[{"role":"user","content":"a"}`,
	`{"messages":[{"role":"user","content":"a"}]}` + "\n" + `{"messages":[{"role":"user","content":"b"}]}`,
	`{"messages":[{"role":"user","content":"a"}]} {"messages":[{"role":"bot"}]}`,
	`{"messages":[]} {"messages":[{"role":"user","content":"b"}]} {"mess`,
	"{\n  \"contents\": [\n    {\"role\": \"user\", \"parts\": [{\"text\": \"a\"}]},\n    x\n  ]\n}",
	"\xef\xbb\xbf{\"history\": [1, 2,}",
	"\xef\xbb\xbf{\"history\": [\"\xff\"]",
	"{\"history\": [\"a\"]}\n{\"history\": \"\xc3\"}",
	"\xef\xbb\xbf\n\n  [{\"from\":\"human\"",
	`[{"id":"1","conversations":[{"from":"human","value":"x"}]}] [{"id":"2","conversations":[{"from":"gpt","value":"y"}]}]`,
	`{"log":{"entries":[]}} 12 {"a":tru}`,
	"\v{\"messages\":[}",
	`{"info":{},"history":[{"role":"user","content":"a"},{"role":"assistant","content":"b"` + strings.Repeat(" ", 70000),
	strings.Repeat(`{"role":"user","content":"`+strings.Repeat("a", 100)+`"},`, 1000),
	`{"messages":[{"role":"user","content":"` + strings.Repeat("é", 40000) + "\xe9\"}]}",
	// A long first line (past 64 KiB) that is one document, then more.
	long(`{"history":[{"role":"user","content":"%s"}]}`) + "\n" + `{"history":[{"role":"assistant","content":"b"}]}`,
	"\xef\xbb\xbf\n " + long(`{"contents":[{"role":"user","parts":[{"text":"%s"}]}]}`) + " \r\n" + `{"contents":[{"role":"model","parts":[{"text":"b"}]}]} {"contents":[`,
	long(`[{"id":"1","conversations":[{"from":"human","value":"%s"}]}]`) + "\n" + `[{"id":"2","conversations":[{"from":"gpt","value":"y"}]}]`,
	long(`{"history":[{"role":"user","content":"%s"}]}`) + ` {"history":[]}`,
	long(`{"history":{"role":"user","content":"%s"}}`) + "\n",
	long(`{"history":[{"role":"user","content":"%s"}]}`) + "\n" + `{"log":{"entries":[]}}`,
	long(`{"log":{"entries":[]},"x":"%s"}`) + "\n" + `{"log":{"entries":[]}}`,
	long(`{"messages":[{"role":"user","content":"%s"}]}`) + "\n\n" + `{"messages":[{"role":"assistant","content":"b"}]}`,
}

// long is format with a string of 70000 bytes in place of its %s.
func long(format string) string { return fmt.Sprintf(format, strings.Repeat("a", 70000)) }

// readsExactlySame checks that data reads the same from a file, from a
// pipe and whole, error texts included word for word, detected and as
// each of formats.
func readsExactlySame(t *testing.T, data []byte, formats ...Format) {
	t.Helper()
	for _, format := range append([]Format{""}, formats...) {
		if lineInput(data) || linesAs(data, format) || len(bytes.TrimSpace(bytes.ReplaceAll(data, bom, nil))) == 0 {
			continue // read as JSON Lines or as an empty input
		}
		file, piped, whole := readAllWays(data, format)
		if piped != whole {
			t.Fatalf("%.60q as %q:\npiped: %s\nwhole: %s", data, format, piped, whole)
		}
		if file != whole && file != "error: in: "+undetectable().Error() {
			t.Fatalf("%.60q as %q:\nfile:  %s\nwhole: %s", data, format, file, whole)
		}
	}
}

// TestCheckedSame: inputs that are not one valid document read the same
// checked and read document by document as whole.
func TestCheckedSame(t *testing.T) {
	for _, s := range checkedSeeds {
		readsExactlySame(t, []byte(s), FormatAnthropic, FormatSWEAgent, FormatShareGPT, FormatHAR, FormatGemini)
	}
}

func FuzzCheckedSame(f *testing.F) {
	for _, s := range checkedSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		readsExactlySame(t, data, FormatAnthropic, FormatSWEAgent, FormatShareGPT, FormatHAR, FormatGemini)
	})
}

// countLive counts the file at path as CountBilledEach does and returns
// the heap it held at most beyond what was live before, and its error.
func countLive(t *testing.T, path string) (live uint64, err error) {
	t.Helper()
	counter, err := tokenize.New("estimate")
	if err != nil {
		t.Fatal(err)
	}
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	l := &memtest.LiveFile{F: file}
	_, counts, _, err := CountBilledEach(context.Background(), l, path, "", []tokenize.Counter{counter})
	if err == nil && counts[0] == 0 {
		t.Errorf("%s: counted nothing", path)
	}
	return l.Max - min(l.Max, m.HeapAlloc), err
}

// TestCheckedNotHeld: a document cut short, and a sequence of documents,
// are not read whole (they were, at 5–10 times the file): the one is
// checked in one pass that holds a few bytes, the other read one
// document at a time.
func TestCheckedNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 8 MB files")
	}
	path, _ := bigRecords(t, "swe-agent/fix-issue.traj", []string{"history"}, 8<<20)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(t.TempDir(), "broken.traj")
	if err := os.WriteFile(broken, data[:len(data)-50], 0o644); err != nil {
		t.Fatal(err)
	}
	// Every record is on the one line: the error is at its end.
	want := fmt.Sprintf("%s:1:%d: invalid JSON: unexpected end of input", broken, len(data)-50+1)
	live, err := countLive(t, broken)
	if err == nil || err.Error() != want {
		t.Errorf("cut short: %v, want %s", err, want)
	}
	if live > 3<<20 {
		t.Errorf("cut short: %d MB live while checking an 8 MB file", live>>20)
	}

	one, _ := bigRecords(t, "gemini/contents.json", []string{"contents"}, 1<<20)
	doc, err := os.ReadFile(one)
	if err != nil {
		t.Fatal(err)
	}
	seq := filepath.Join(t.TempDir(), "sequence.json")
	if err := os.WriteFile(seq, bytes.Repeat(append(doc, '\n'), 8), 0o644); err != nil {
		t.Fatal(err)
	}
	live, err = countLive(t, seq)
	if err != nil {
		t.Fatal(err)
	}
	if live > 3<<20 {
		t.Errorf("sequence: %d MB live while counting 8 documents of 1 MB", live>>20)
	}
}

// TestSequenceLinesNotHeld: a sequence of documents one a line, each on
// one long line, is read one document at a time from a file. Its first
// line was read whole (and its members copied) to be sniffed as a JSON
// Lines record: 8 MB documents held 8 MB, counted every 2 MB read.
func TestSequenceLinesNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 8 MB files")
	}
	for _, c := range []struct {
		sample string
		key    []string
	}{
		{"swe-agent/fix-issue.traj", []string{"history"}},
		{"gemini/contents.json", []string{"contents"}},
	} {
		one, _ := bigRecords(t, c.sample, c.key, 8<<20)
		doc, err := os.ReadFile(one)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.IndexByte(doc, '\n') >= 0 {
			t.Fatalf("%s: want a document on one line", c.sample)
		}
		seq := filepath.Join(t.TempDir(), "sequence.json")
		if err := os.WriteFile(seq, bytes.Repeat(append(doc, '\n'), 2), 0o644); err != nil {
			t.Fatal(err)
		}
		live, err := countLive(t, seq)
		if err != nil {
			t.Fatal(err)
		}
		if live > 3<<20 {
			t.Errorf("%s: %d MB live while counting 2 documents of 8 MB, one a line", c.sample, live>>20)
		}
		if testing.Verbose() {
			t.Logf("%s: %d KB live", c.sample, live>>10)
		}
	}
}

// TestSequenceScan: Scan of a sequence of documents hands over the
// messages Read returns, in order, document by document, from a file and
// from a pipe.
func TestSequenceScan(t *testing.T) {
	for _, in := range []string{
		`{"contents":[{"role":"user","parts":[{"text":"a"}]},{"role":"model","parts":[{"text":"b"}]}]}` + "\n" +
			`{"contents":[{"role":"user","parts":[{"text":"c"}]}]}`,
		`[{"id":"1","conversations":[{"from":"human","value":"x"}]}] [{"id":"2","conversations":[{"from":"gpt","value":"y"},{"from":"human","value":"z"}]}]`,
	} {
		ts, err := wholeDocuments(context.Background(), []byte(in), "in", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, tr := range ts {
			for _, m := range tr.Messages {
				want = append(want, fmt.Sprintf("%s %d %s %s", tr.ID, m.Index, m.Role, m.Text))
			}
		}
		for _, r := range []io.Reader{strings.NewReader(in), pipe{strings.NewReader(in)}} {
			var got []string
			err := Scan(context.Background(), r, "in", "", func(tr *Transcript, m *Message) error {
				got = append(got, fmt.Sprintf("%s %d %s %s", tr.ID, m.Index, m.Role, m.Text))
				return nil
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%.30s…: Scan handed over\n%q\nwhole has\n%q", in, got, want)
			}
		}
	}
}
