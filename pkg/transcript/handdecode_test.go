package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/internal/jsonl"
	"github.com/rogpeppe/go-internal/txtar"
)

// The hand decoders (ccRecord.parse, anBlock.parse and the fast paths of
// parseAnthropic and resultContent) must give what encoding/json gives, or
// step aside. These tests read every sample both ways and compare.

// withJSONOnly runs fn with the hand decoders off.
func withJSONOnly(fn func()) {
	handDecode = false
	defer func() { handDecode = true }()
	fn()
}

// readBoth reads data as format with the hand decoders on and off and
// fails t when the transcripts or the errors differ.
func readBoth(t *testing.T, name string, data []byte, format Format) {
	t.Helper()
	fast, ferr := Read(bytes.NewReader(data), name, format)
	var slow []*Transcript
	var serr error
	withJSONOnly(func() { slow, serr = Read(bytes.NewReader(data), name, format) })
	if fmt.Sprint(ferr) != fmt.Sprint(serr) {
		t.Fatalf("%s: error with hand decoding:\n  %v\nwith encoding/json:\n  %v", name, ferr, serr)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%s: transcripts differ:\n%s", name, firstDiff(fast, slow))
	}
}

// firstDiff names the first message that differs, for the failure text.
func firstDiff(a, b []*Transcript) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d transcripts vs %d", len(a), len(b))
	}
	for k := range a {
		ma, mb := a[k].Messages, b[k].Messages
		for i := range min(len(ma), len(mb)) {
			if !reflect.DeepEqual(ma[i], mb[i]) {
				return fmt.Sprintf("message %d:\n  %+v\nvs\n  %+v", i, ma[i], mb[i])
			}
		}
		if len(ma) != len(mb) {
			return fmt.Sprintf("%d messages vs %d", len(ma), len(mb))
		}
		ca, cb := *a[k], *b[k]
		ca.Messages, cb.Messages = nil, nil
		if !reflect.DeepEqual(ca, cb) {
			return fmt.Sprintf("%+v\nvs\n%+v", ca, cb)
		}
	}
	return "?"
}

// ccSamples returns every Claude Code and Anthropic sample: the files under
// testdata and the .json/.jsonl files inside the testscripts.
func ccSamples(t testing.TB) map[string][]byte {
	out := map[string][]byte{}
	root := filepath.Join("..", "..", "testdata")
	for _, dir := range []string{"transcripts/claude-code", "transcripts/anthropic", "transcripts/tree", "agent"} {
		filepath.Walk(filepath.Join(root, dir), func(path string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && (strings.HasSuffix(path, ".jsonl") || strings.HasSuffix(path, ".json")) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				out[path] = data
			}
			return nil
		})
	}
	scripts, _ := filepath.Glob(filepath.Join(root, "script", "*.txtar"))
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".jsonl") || strings.HasSuffix(f.Name, ".json") {
				out[s+":"+f.Name] = f.Data
			}
		}
	}
	if len(out) < 20 {
		t.Fatalf("only %d samples found", len(out))
	}
	return out
}

func TestHandDecodeSameTranscripts(t *testing.T) {
	for name, data := range ccSamples(t) {
		for _, format := range []Format{"", FormatClaudeCode, FormatAnthropic} {
			readBoth(t, name+" as "+string(format), data, format)
		}
	}
}

// TestHandDecodeSteppingAside pins inputs where the hand decoder must give
// way to encoding/json (or give exactly its result): each is read both
// ways and must come out the same, errors included.
func TestHandDecodeSteppingAside(t *testing.T) {
	const (
		user = `{"type":"user","sessionId":"s","uuid":"u1","timestamp":"2026-01-02T03:04:05Z","message":{"role":"user","content":%s}}`
		asst = `{"type":"assistant","sessionId":"s","uuid":"u2","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"ok"}],"usage":%s}}`
	)
	tests := []struct{ name, data string }{
		{"duplicate type", `{"type":"user","type":"assistant","sessionId":"s","uuid":"u","message":{"content":"hi"}}`},
		{"duplicate message merges", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"a"},"message":{"content":"x"}}`},
		{"case-folded key", `{"Type":"user","sessionId":"s","uuid":"u","message":{"content":"hi"}}`},
		{"kelvin sign key", "{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u\",\"message\":{\"content\":\"hi\",\"\u212a\":1}}"},
		{"escaped key", `{"typ\u0065":"user","sessionId":"s","uuid":"u","message":{"content":"hi"}}`},
		{"type not a string", `{"type":5,"sessionId":"s","uuid":"u"}`},
		{"isMeta a string", `{"type":"user","isMeta":"yes","sessionId":"s","uuid":"u","message":{"content":"hi"}}`},
		{"message a string", `{"type":"user","sessionId":"s","uuid":"u","message":"hi"}`},
		{"message null", `{"type":"user","sessionId":"s","uuid":"u","message":null}`},
		{"bad JSON in an unused field", `{"type":"progress","sessionId":"s","uuid":"u","data":{"x":01}}`},
		{"control character in toolUseResult", "{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u\",\"toolUseResult\":\"a\tb\",\"message\":{\"content\":\"hi\"}}"},
		{"text after the object", `{"type":"user","sessionId":"s","uuid":"u","message":{"content":"hi"}} x`},
		{"string content with escapes", fmt.Sprintf(user, `"a\n\"b\" \u00e9 \ud83d\ude00 \ud800"`)},
		{"content a number", fmt.Sprintf(user, `5`)},
		{"content null", fmt.Sprintf(user, `null`)},
		{"null block", fmt.Sprintf(user, `[null,{"type":"text","text":"x"}]`)},
		{"block a string", fmt.Sprintf(user, `["x"]`)},
		{"block text a number", fmt.Sprintf(user, `[{"type":"text","text":1}]`)},
		{"block with a duplicate text", fmt.Sprintf(user, `[{"type":"text","text":"a","text":"b"}]`)},
		{"tool_use input with spaces", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{ "command" : "ls" }}]}}`},
		{"tool_use input a string", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":"{\"a\":1}"}]}}`},
		{"tool_use without id", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"m","content":[{"type":"tool_use","name":"Bash","input":{}}]}}`},
		{"tool_result blocks", fmt.Sprintf(user, `[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"a"},{"type":"image","source":{}},null,"s",7,{"type":"tool_reference","tool_name":"X"},{"type":"text","text":2}]}]`)},
		{"tool_result content an object", fmt.Sprintf(user, `[{"type":"tool_result","tool_use_id":"t","content":{"a": 1}}]`)},
		{"tool_result content null", fmt.Sprintf(user, `[{"type":"tool_result","tool_use_id":"t","content":null}]`)},
		{"tool_result without id", fmt.Sprintf(user, `[{"type":"tool_result","content":"x"}]`)},
		{"usage ints", fmt.Sprintf(asst, `{"input_tokens":3,"cache_creation_input_tokens":4,"cache_read_input_tokens":5,"output_tokens":6,"cache_creation":{"ephemeral_1h_input_tokens":2,"ephemeral_5m_input_tokens":2}}`)},
		{"usage a float", fmt.Sprintf(asst, `{"input_tokens":3.0}`)},
		{"usage an exponent", fmt.Sprintf(asst, `{"input_tokens":3e2}`)},
		{"usage of 19 digits", fmt.Sprintf(asst, `{"input_tokens":1000000000000000000}`)},
		{"usage that overflows", fmt.Sprintf(asst, `{"input_tokens":9223372036854775807,"cache_read_input_tokens":1}`)},
		{"usage negative", fmt.Sprintf(asst, `{"input_tokens":-3}`)},
		{"usage null", fmt.Sprintf(asst, `null`)},
		{"cache_creation null", fmt.Sprintf(asst, `{"input_tokens":3,"cache_creation":null}`)},
		{"timestamp a number", `{"type":"user","sessionId":"s","uuid":"u","timestamp":1700000000,"message":{"content":"hi"}}`},
		{"timestamp with escapes", `{"type":"user","sessionId":"s","uuid":"u","timestamp":"2026-01-02T03:04:05\u005a","message":{"content":"hi"}}`},
		{"deep nesting", `{"type":"progress","sessionId":"s","uuid":"u","data":` + strings.Repeat("[", 400) + strings.Repeat("]", 400) + `}`},
		{"white space around", " \t" + fmt.Sprintf(user, `"hi"`) + " \r"},
		{"thinking only", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"m","content":[{"type":"thinking","thinking":"hm","signature":"x"}]}}` + "\n" + fmt.Sprintf(asst, `{"input_tokens":1}`)},
		{"server tool result", `{"type":"assistant","sessionId":"s","uuid":"u","message":{"id":"m","content":[{"type":"server_tool_use","id":"s1","name":"web_search","input":{"query":"q"}},{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"web_search_result","url":"u"}]},{"type":"web_fetch_tool_result","tool_use_id":"s1","content":"x\ny"}]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			readBoth(t, "in.jsonl", []byte(tt.data), FormatClaudeCode)
			readBoth(t, "in.jsonl", []byte(tt.data), "")
		})
	}
}

// FuzzHandDecode reads fuzzed inputs both ways: same transcripts, same
// errors. The seeds are the lines of every sample, so mutations stay close
// to real records.
func FuzzHandDecode(f *testing.F) {
	for _, data := range ccSamples(f) {
		if len(data) > 64<<10 {
			// The long samples seed line by line.
			for i, line := range bytes.Split(data, []byte("\n")) {
				if i%25 == 0 && len(line) < 8<<10 {
					f.Add(line, false)
				}
			}
			continue
		}
		f.Add(data, false)
		f.Add(data, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, detect bool) {
		format := FormatClaudeCode
		if detect {
			format = ""
		}
		readBoth(t, "fuzz", data, format)
	})
}

// FuzzHandDecodeRecord compares one record line decoded by hand and by
// json.Unmarshal: whenever the hand decoder says it read the line, the
// record is the one encoding/json gives; whenever encoding/json fails, the
// hand decoder must not say it read the line.
func FuzzHandDecodeRecord(f *testing.F) {
	for _, data := range ccSamples(f) {
		for i, line := range bytes.Split(data, []byte("\n")) {
			if i%10 == 0 && len(line) < 8<<10 {
				f.Add(line)
			}
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if jsonl.InvalidUTF8(line) >= 0 {
			return // lineDecoder.next reports these before any decoding
		}
		var fast, slow ccRecord
		ok := fast.parse(line)
		err := json.Unmarshal(line, &slow)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("hand decoder read a line encoding/json rejects (%v)", err)
		}
		if fast.Message == nil {
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("records differ:\n%+v\n%+v\n%s", fast, slow, line)
			}
			return
		}
		// The hand decoder has read the content too; encoding/json leaves
		// it to parseAnthropic.
		c1, e1 := fast.Message.parseContent()
		var c2 anContent
		var e2 error
		withJSONOnly(func() { c2, e2 = slow.Message.parseContent() })
		if fmt.Sprint(e1) != fmt.Sprint(e2) || !reflect.DeepEqual(c1, c2) {
			t.Fatalf("content differs:\n%+v %v\n%+v %v", c1, e1, c2, e2)
		}
		fm := *fast.Message
		fm.content = nil
		fast.Message = &fm
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("records differ:\n%+v %+v\n%+v %+v\n%s", fast, fast.Message, slow, slow.Message, line)
		}
	})
}

// FuzzResultContent compares a tool result's content read by hand and
// through encoding/json, for any JSON value.
func FuzzResultContent(f *testing.F) {
	for _, s := range []string{`"a\nb"`, `null`, `[{"type":"text","text":"a"},{"type":"image"}]`, `[null,"x",1,{"a": [1, 2]}]`, `{"k": "v"}`, `[{"type":"text","text":"a","text":"b"}]`, ` [ ] `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) || jsonl.InvalidUTF8(raw) >= 0 {
			return
		}
		s1, n1 := resultContent(raw)
		s2, n2 := resultContentJSON(raw)
		if s1 != s2 || n1 != n2 {
			t.Fatalf("hand %q %d, encoding/json %q %d", s1, n1, s2, n2)
		}
	})
}

func TestFoldEqual(t *testing.T) {
	tests := []struct {
		name, k, key string
		want         bool
	}{
		{"same", "uuid", "uuid", true},
		{"upper case", "uuid", "UUID", true},
		{"mixed case", "isSidechain", "issidechain", true},
		{"other letters", "type", "typo", false},
		{"longer", "type", "types", false},
		{"underscore is not folded", "tool_use_id", "tool\x7fuse_id", false},
		{"a letter after a digit", "ephemeral_5m_input_tokens", "ephemeral_5M_input_tokens", true},
		{"symbols one case bit apart", "a@b", "a`b", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := foldEqual(tt.k, []byte(tt.key)); got != tt.want {
				t.Fatalf("foldEqual(%q, %q) = %v, want %v", tt.k, tt.key, got, tt.want)
			}
		})
	}
}
