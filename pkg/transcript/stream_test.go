package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// pipe hides a reader's Seek, as standard input or a wrapping reader does.
type pipe struct{ r io.Reader }

func (p pipe) Read(b []byte) (int, error) { return p.r.Read(b) }

// readAllWays reads data from a file-like reader (streamed from it), from
// a pipe (held in chunks, then streamed) and whole (the in-memory path),
// and returns what each gives, as text.
func readAllWays(data []byte, format Format) (file, piped, whole string) {
	show := func(ts []*Transcript, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		b, err := json.Marshal(ts) // follows the pointers (usage)
		if err != nil {
			return "marshal: " + err.Error()
		}
		return string(b)
	}
	file = show(Read(bytes.NewReader(data), "in", format))
	piped = show(Read(pipe{bytes.NewReader(data)}, "in", format))
	whole = show(wholeDocuments(context.Background(), data, "in", format, nil))
	return
}

// TestStreamedSame reads every JSON document sample the three ways.
func TestStreamedSame(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", "*", "*.traj"))
	for _, path := range append(files, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, format := range []Format{"", mustDetect(t, data)} {
			file, piped, whole := readAllWays(data, format)
			if file != whole || piped != whole {
				t.Errorf("%s as %q:\nfile:  %s\npiped: %s\nwhole: %s", path, format, file, piped, whole)
			}
		}
	}
}

// lineInput reports whether data's first line is a whole JSON object that
// a line sniff claims (Read then takes it as JSON Lines).
func lineInput(data []byte) bool {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(bytes.TrimPrefix(first, bom)), &obj) != nil || obj == nil {
		return false
	}
	for _, f := range formats {
		if f.line != nil && f.line(obj) {
			return true
		}
	}
	return false
}

// linesAs reports whether format, named, reads data as its JSON Lines
// (its first line is an object the format's lines take).
func linesAs(data []byte, format Format) bool {
	f := formatOf(format)
	if f == nil || f.lines == nil {
		return false
	}
	first, _, _ := bytes.Cut(bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n"), []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(first), &obj) != nil || obj == nil {
		return false
	}
	return f.linesWhen == nil || f.linesWhen(obj)
}

func mustDetect(t *testing.T, data []byte) Format {
	f, err := Detect(data)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestStreamedScan: Scan of a streamed document hands over the messages
// Read returns, in order, conversation by conversation.
func TestStreamedScan(t *testing.T) {
	for _, path := range []string{"anthropic/long.json", "openai/chat.json", "sharegpt/conversations.json"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", path))
		if err != nil {
			t.Fatal(err)
		}
		ts, err := Read(bytes.NewReader(data), path, "")
		if err != nil {
			t.Fatal(err)
		}
		var want, got []string
		for _, tr := range ts {
			for _, m := range tr.Messages {
				want = append(want, fmt.Sprintf("%s %d %s %s", tr.ID, m.Index, m.Role, m.Text))
			}
		}
		err = Scan(context.Background(), bytes.NewReader(data), path, "", func(tr *Transcript, m *Message) error {
			got = append(got, fmt.Sprintf("%s %d %s %s", tr.ID, m.Index, m.Role, m.Text))
			return nil
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Scan handed over\n%q\nRead has\n%q", path, got, want)
		}
	}
}

// FuzzStreamed checks that a document reads the same streamed from a
// file, held from a pipe, and whole.
func FuzzStreamed(f *testing.F) {
	addSeeds(f, "anthropic")
	addSeeds(f, "sharegpt")
	addSeeds(f, "openai")
	f.Add([]byte(`{"messages":[{"role":"user","content":"a"}],"messages":[{"role":"user","content":"b"}]}`))
	f.Add([]byte("\xef\xbb\xbf[{\"id\":\"1\",\"conversations\":[]},{\"conversations\":[{\"from\":\"human\",\"value\":\"x\"}]}]"))
	f.Add([]byte(`{"system":"s","messages":[{"role":"user","content":"a"}]} {"messages":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		readsSame(t, data, FormatAnthropic, FormatShareGPT)
	})
}

// readsSame checks that data reads the same from a file, from a pipe and
// whole, detected and as each of formats.
func readsSame(t *testing.T, data []byte, formats ...Format) {
	for _, format := range append([]Format{""}, formats...) {
		file, piped, whole := readAllWays(data, format)
		bothErr := strings.HasPrefix(file, "error") && strings.HasPrefix(piped, "error")
		if file != piped && !bothErr {
			// (A file is first sniffed for whether it can be a
			// transcript at all, so its error may be that one.)
			t.Fatalf("as %q:\nfile:  %s\npiped: %s", format, file, piped)
		}
		if lineInput(data) || linesAs(data, format) || len(bytes.Trim(bytes.ReplaceAll(data, bom, nil), " \t\r\n")) == 0 {
			continue // read as JSON Lines or as an empty input, not by the document path
		}
		if file != whole && !(bothErr && strings.HasPrefix(whole, "error")) {
			t.Fatalf("as %q:\nfile:  %s\npiped: %s\nwhole: %s", format, file, piped, whole)
		}
	}
}
