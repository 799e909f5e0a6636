package transcript

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/memtest"
	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// The formats streamed record by record beside their whole-document
// readers (the reference the streamed path is held to), with the sample
// of each and the path to its records.
var recordFormats = []struct {
	format Format
	sample string
	key    []string // path to the records' array; none: the document is one
}{
	{FormatGemini, "gemini/contents.json", []string{"contents"}},
	{FormatGeminiCLI, "gemini-cli/session.json", []string{"messages"}},
	{FormatCodex, "codex/responses-request.json", []string{"input"}},
	{FormatSWEAgent, "swe-agent/fix-issue.traj", []string{"history"}},
	{FormatSWEAgent, "swe-agent/text-mode.traj", []string{"history"}},
	{FormatOpenHands, "openhands/events.json", nil},
	{FormatLongMemory, "long-memory/sessions.json", nil},
	{FormatHAR, "har/streamed.har", []string{"log", "entries"}},
}

func readSample(t testing.TB, path string) []byte {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", path))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRecordsStreamedSame reads documents of the record-streamed formats
// from a file, from a pipe and whole (the whole-document reader): the
// results, and the errors word for word, must be the same. want is a
// piece of the error, worked out from the input by hand.
func TestRecordsStreamedSame(t *testing.T) {
	tests := []struct {
		name, in string
		format   Format
		want     string // "" for no error
	}{
		{"openhands event time", `[{"id":1,"source":"user","action":"message","args":{"content":"a"}},{"id":2,"source":"agent","action":"run","timestamp":"noon"}]`,
			"", `in: [1]: "timestamp": `},
		{"openhands event not an object", `[{"id":1,"source":"user","action":"message","args":{"content":"a"}},3]`,
			"", `in: [1]: want an event object, got number`},
		{"openhands object named", `{"source":"user","action":"message"}`, FormatOpenHands, `in: want an array, got object`},
		{"swe-agent role type", `{"history":[{"role":"user","content":"a"},{"role":5}],"info":{}}`,
			"", `in: history[1]: "oaMessage.role" must be a string, got number`},
		{"swe-agent history not an array", `{"history":"x","info":{}}`, FormatSWEAgent, `in: "history" must be an array, got string`},
		{"gemini role", `{"contents":[{"role":"user","parts":[{"text":"a"}]},{"role":"bot","parts":[]}]}`,
			"", `in: contents[1]: unknown role "bot"; valid: user, model`},
		{"gemini array", `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"yo"}]}]`, "", ""},
		{"gemini usage on the last reply", `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"text":"a"}]},{"role":"user","parts":[{"text":"q2"}]}],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":2},"modelVersion":"gemini-2.5-pro"}`, "", ""},
		{"gemini contents duplicated", `{"contents":[{"role":"user","parts":[{"text":"a"}]}],"contents":[{"role":"user","parts":[{"text":"b"}]}]}`, "", ""},
		{"gemini-cli type missing", `{"sessionId":"s","messages":[{"type":"user","content":"a"},{"content":"b"}]}`,
			"", `in: messages[1]: missing "type"`},
		{"codex call output without id", `{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"q"}]},{"type":"function_call_output"}]}`,
			"", `in: input[1]: payload: a function_call_output needs "call_id"`},
		{"codex input text", `{"instructions":"sys","input":"just text"}`, "", ""},
		{"codex input number", `{"input":5}`, FormatCodex, `in: input: want a string or an array of items, got number`},
		{"codex prompts", `{"input":[{"type":"message","role":"user","content":"<environment_context>x</environment_context>"},{"type":"message","role":"user","content":"fix it"},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]},{"type":"message","role":"user","content":"thanks"}]}`, FormatCodex, ""},
		{"long-memory speaker", `[{"sample_id":"a","conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"speaker":"C","text":"x"}]}}]`,
			"", `in: [0].conversation.session_1[0].speaker: speaker "C" is neither speaker_a ("A") nor speaker_b ("B")`},
		{"long-memory two samples", `[{"sample_id":"a","conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"speaker":"A","text":"x"},{"speaker":"B","text":"y"}]}},{"conversation":{"speaker_a":"A","speaker_b":"B","session_2":[{"speaker":"A","text":"z"}]}}]`, "", ""},
		// The HAR errors as the reader of whole documents gave them before
		// entries were read one at a time, but for an entry that is no
		// object: its type was unnamed, and its text (which holds "int")
		// made it "a whole number".
		{"har url type", `{"log":{"entries":[{"request":{"url":5}}]}}`, "", `in: "log.entries.request.url" must be a string, got number`},
		{"har entry not an object", `{"log":{"entries":[3]}}`, FormatHAR, `in: "log.entries" must be an object, got number`},
		{"har base64", `{"log":{"entries":[{"request":{"url":"https://api.openai.com/v1/chat/completions","postData":{"text":"{}"}},"response":{"status":200,"content":{"encoding":"base64","text":"!!"}}}]}}`,
			"", `in: log.entries[0].response.content.text: base64: illegal base64 data at input byte 0`},
		{"har log twice", `{"log":{"entries":[]},"log":{"version":"1.2","entries":[{"request":{"url":"https://example.com/"}}]}}`, "", ""},
		// encoding/json takes a member whose name differs in case.
		{"gemini contents in capitals", `{"sYstemInstruCtion":{},"ContentS":[{}]}`, FormatGemini, ""},
		{"har entries in capitals", `{"log":{"Entries":[{"request":{"url":"https://example.com/"}}]}}`, FormatHAR, `in: no har records here`},
		{"swe-agent history twice", `{"history":[{"role":"user","content":"a"}],"History":[{"role":"user","content":"b"}],"info":{}}`, "", ""},
		{"broken JSON", "{\"history\":[{\"role\":\"user\",\n\"content\":\"a\"},]", FormatSWEAgent, `in:2:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file, piped, whole := readAllWays([]byte(tc.in), tc.format)
			if file != whole || piped != whole {
				t.Fatalf("file:  %s\npiped: %s\nwhole: %s", file, piped, whole)
			}
			switch {
			case tc.want == "" && strings.HasPrefix(whole, "error"):
				t.Fatalf("got %s", whole)
			case tc.want != "" && !strings.Contains(whole, "error: "+tc.want):
				t.Fatalf("got %s, want the error %q", whole, tc.want)
			}
		})
	}
	for _, rf := range recordFormats {
		data := readSample(t, rf.sample)
		for _, format := range []Format{"", rf.format} {
			file, piped, whole := readAllWays(data, format)
			if file != whole || piped != whole {
				t.Errorf("%s as %q:\nfile:  %s\npiped: %s\nwhole: %s", rf.sample, format, file, piped, whole)
			}
		}
	}
}

// scanned is every message Scan hands over, as JSON, conversation by
// conversation.
func scanned(t *testing.T, r interface{ Read([]byte) (int, error) }, format Format) string {
	var b strings.Builder
	err := Scan(context.Background(), r, "in", format, func(tr *Transcript, m *Message) error {
		j, _ := json.Marshal(m)
		fmt.Fprintf(&b, "%s %s\n", tr.ID, j)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRecordsStreamedScan: Scan of a streamed document hands over the
// messages the whole-document reader returns (usage, turns and pairing
// included), though it hands each on as soon as its turn is settled.
func TestRecordsStreamedScan(t *testing.T) {
	for _, rf := range recordFormats {
		data := readSample(t, rf.sample)
		ts, err := wholeDocuments(context.Background(), data, "in", rf.format, nil)
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, tr := range ts {
			for i := range tr.Messages {
				j, _ := json.Marshal(&tr.Messages[i])
				fmt.Fprintf(&want, "%s %s\n", tr.ID, j)
			}
		}
		if got := scanned(t, bytes.NewReader(data), ""); got != want.String() {
			t.Errorf("%s from a file: Scan handed over\n%s\nthe whole reader has\n%s", rf.sample, got, want.String())
		}
		if got := scanned(t, pipe{bytes.NewReader(data)}, ""); got != want.String() {
			t.Errorf("%s from a pipe: Scan handed over\n%s\nthe whole reader has\n%s", rf.sample, got, want.String())
		}
	}
}

// bigRecords writes the sample of rf with its records repeated to about
// size bytes, and returns the file's path and how many records it has.
func bigRecords(t *testing.T, sample string, key []string, size int) (string, int) {
	data := readSample(t, sample)
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	arr := &doc
	var parent map[string]any
	for _, k := range key {
		parent = (*arr).(map[string]any)
		v := parent[k]
		arr = &v
	}
	records := (*arr).([]any)
	var body bytes.Buffer
	n := 0
	for body.Len() < size {
		for _, r := range records {
			if n > 0 {
				body.WriteByte(',')
			}
			j, _ := json.Marshal(r)
			body.Write(j)
			n++
		}
	}
	hole := "\x00records\x00"
	if parent != nil {
		parent[key[len(key)-1]] = hole
	} else {
		doc = hole
	}
	frame, _ := json.Marshal(doc)
	before, after, _ := bytes.Cut(frame, []byte(`"\u0000records\u0000"`))
	path := filepath.Join(t.TempDir(), filepath.Base(sample))
	out := append(append(append(append(before, '['), body.Bytes()...), ']'), after...)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path, n
}

// TestRecordsNotHeld: counting a document of each record-streamed format
// from a file holds a few records at a time, not the document (read
// whole, the heap grew to 5–15 times the file).
func TestRecordsNotHeld(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 8 MB files")
	}
	const size = 8 << 20
	counter, err := tokenize.New("estimate")
	if err != nil {
		t.Fatal(err)
	}
	for _, rf := range recordFormats {
		if rf.format == FormatHAR {
			continue // its calls are held to be grouped (TestHARNotHeld)
		}
		path, _ := bigRecords(t, rf.sample, rf.key, size)
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		l := &memtest.LiveFile{F: file}
		_, counts, _, err := CountBilledEach(context.Background(), l, path, "", []tokenize.Counter{counter})
		file.Close()
		if err != nil {
			t.Fatal(err)
		}
		if counts[0] == 0 {
			t.Errorf("%s: counted nothing", rf.sample)
		}
		if live := l.Max - min(l.Max, m.HeapAlloc); live > 3<<20 {
			t.Errorf("%s: %d MB live while counting a %d MB file", rf.sample, live>>20, size>>20)
		}
	}
}

// FuzzRecordsStreamed checks that a document of the record-streamed
// formats reads the same streamed from a file, held from a pipe, and
// whole (by the whole-document reader).
func FuzzRecordsStreamed(f *testing.F) {
	for _, dir := range []string{"gemini", "gemini-cli", "codex", "swe-agent", "openhands", "long-memory", "har"} {
		addSeeds(f, dir)
	}
	f.Add([]byte(`{"log":{"entries":[]},"log":{"entries":[{"request":{"url":"https://example.com/"}}]}}`))
	f.Add([]byte(`{"contents":[{"role":"model","parts":[{"text":"a"}]}],"usageMetadata":{"promptTokenCount":3}}`))
	f.Add([]byte(`[{"sample_id":"a","conversation":{"speaker_a":"A","speaker_b":"B","session_1":[{"speaker":"A","text":"x"}]}},{}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		readsSame(t, data, FormatGemini, FormatGeminiCLI, FormatCodex, FormatSWEAgent, FormatOpenHands, FormatLongMemory, FormatHAR)
	})
}

// cancelAtEOF is a pipe that cancels its context once it has been read
// to the end (a SIGINT just after standard input is held).
type cancelAtEOF struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (c cancelAtEOF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.cancel()
	}
	return n, err
}

// TestPipedCancelled: an input held from a pipe is not read on (nor read
// whole, as a document that is not valid JSON would be) once the context
// is done: Scan returns the context's error.
func TestPipedCancelled(t *testing.T) {
	broken := `{"info":{},"history":[` + strings.Repeat(`{"role":"user","content":"a"},`, 1000) // cut short
	for _, in := range []string{broken, string(readSample(t, "swe-agent/fix-issue.traj"))} {
		ctx, cancel := context.WithCancel(context.Background())
		err := Scan(ctx, cancelAtEOF{strings.NewReader(in), cancel}, "in", "", func(*Transcript, *Message) error { return nil }, nil)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%.40s…: got %v, want %v", in, err, context.Canceled)
		}
	}
}
