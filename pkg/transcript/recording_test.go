package transcript

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/harpe-dev/harpe/pkg/tokenize"
)

// TestReadRecordings reads the HTTP recordings in testdata: the expected
// messages, usage and tools come from the recorded bodies themselves
// (read by eye), not from the reader.
func TestReadRecordings(t *testing.T) {
	type conv struct {
		id    string
		roles string         // roles in order, first letters
		input map[int]int    // message index → recorded prompt size
		tools []string       // tool definition names
		skip  map[string]int // skipped records
	}
	tests := []struct {
		name, file string
		format     Format
		convs      []conv
	}{
		{"vcrpy cassette, OpenAI chat agent loop and an Anthropic call", "vcr/openai-tools.yaml", FormatVCR, []conv{
			// prompt_tokens of the two chat completions; the models list
			// request is no provider call.
			{"1", "suata", map[int]int{2: 81, 4: 112}, []string{"get_weather"}, map[string]int{"interaction": 1}},
			// input 18, no cache.
			{"2", "sua", map[int]int{2: 18}, nil, map[string]int{}},
		}},
		{"pydantic-ai cassette, parsed bodies, Anthropic with cache", "vcr/anthropic-parsed.yaml", FormatVCR, []conv{
			// 3 + 612 written + 0 read; 12 + 0 + 612 read.
			{"", "suata", map[int]int{2: 615, 4: 624}, []string{"roll_dice"}, map[string]int{}},
		}},
		{"HAR, streamed Anthropic and OpenAI chat", "har/streamed.har", FormatHAR, []conv{
			// message_start usage 5 + 0 + 700, then 40 + 0 + 700.
			{"1", "suata", map[int]int{2: 705, 4: 740}, []string{"list_files"}, map[string]int{"entry": 1}},
			// the last chunk's usage: prompt_tokens 21.
			{"2", "sua", map[int]int{2: 21}, nil, map[string]int{}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			for _, format := range []Format{"", tt.format} {
				ts, err := Read(strings.NewReader(string(data)), tt.file, Format(format))
				if err != nil {
					t.Fatal(err)
				}
				if len(ts) != len(tt.convs) {
					t.Fatalf("%d conversations, want %d", len(ts), len(tt.convs))
				}
				for k, want := range tt.convs {
					tr := ts[k]
					if tr.Format != tt.format || tr.ID != want.id {
						t.Errorf("conversation %d: format %q id %q, want %q %q", k, tr.Format, tr.ID, tt.format, want.id)
					}
					var roles strings.Builder
					for i, m := range tr.Messages {
						roles.WriteByte(m.Role[0])
						got, ok := want.input[i]
						switch {
						case ok && (m.InputTokens == nil || *m.InputTokens != got):
							t.Errorf("conversation %d message %d: input %v, want %d", k, i, m.InputTokens, got)
						case !ok && m.InputTokens != nil:
							t.Errorf("conversation %d message %d: input %d, want none", k, i, *m.InputTokens)
						}
					}
					if roles.String() != want.roles {
						t.Errorf("conversation %d: roles %s, want %s", k, roles.String(), want.roles)
					}
					var names []string
					for _, d := range tr.Tools {
						names = append(names, d.Name)
					}
					if strings.Join(names, ",") != strings.Join(want.tools, ",") {
						t.Errorf("conversation %d: tools %v, want %v", k, names, want.tools)
					}
					for kind, n := range want.skip {
						if tr.Skipped[kind] != n {
							t.Errorf("conversation %d: skipped %s %d, want %d", k, kind, tr.Skipped[kind], n)
						}
					}
				}
			}
		})
	}
}

// TestRecordedStreamText checks the reply assembled from stream deltas.
func TestRecordedStreamText(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", "har", "streamed.har"))
	ts, err := Read(strings.NewReader(string(data)), "h.har", "")
	if err != nil {
		t.Fatal(err)
	}
	last := ts[0].Messages[4]
	if last.Text != "Three: root.go, count.go and replay.go." {
		t.Errorf("streamed text %q", last.Text)
	}
	call := ts[0].Messages[2].ToolCalls
	if len(call) != 1 || call[0].Name != "list_files" || call[0].Arguments != `{"path":"cmd"}` {
		t.Errorf("call %+v", call)
	}
	if got := ts[1].Messages[2].Text; got != "Seven." {
		t.Errorf("OpenAI streamed text %q", got)
	}
}

// TestToolDefTokens works the roll_dice definition of the pydantic-ai
// cassette by hand with the estimate (max(pieces, chars/4)): framing 3;
// "roll_dice" one piece but 9 chars → 2; the description's 11 pieces
// (Roll a six - sided die and return the result .) beat 43/4 = 10; the
// schema {"additionalProperties":false,"properties":{},"type":"object"} is
// 22 pieces (62 chars → 15). 3 + 2 + 11 + 22 = 38.
func TestToolDefTokens(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "transcripts", "vcr", "anthropic-parsed.yaml"))
	ts, err := Read(strings.NewReader(string(data)), "c.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := tokenize.New("estimate")
	if got := ToolDefTokens(ts[0].Tools, c); got != 38 {
		t.Errorf("ToolDefTokens = %d, want 38 (%+v)", got, ts[0].Tools)
	}
	if got, want := BilledTokens(ts[0], c), BilledTokens(&Transcript{Messages: ts[0].Messages}, c)+38; got != want {
		t.Errorf("BilledTokens = %d, want messages + 38 = %d", got, want)
	}
}

// TestRecordingErrors: bad recordings name the file and where.
func TestRecordingErrors(t *testing.T) {
	tests := []struct {
		name, in string
		format   Format
		want     string
	}{
		{"bad YAML", "interactions:\n- request: [\n", "", "c.yaml:2: invalid YAML"},
		{"no interactions", "version: 1\n", FormatVCR, `c.yaml: no "interactions" list`},
		{"request not JSON", "interactions:\n- request: {uri: 'https://api.openai.com/v1/chat/completions', body: 'nope'}\n  response: {status: {code: 200}, body: {string: '{}'}}\n", "",
			"c.yaml: interactions[0]: request body is not a JSON object"},
		{"request without messages", "interactions:\n- request: {uri: 'https://api.openai.com/v1/chat/completions', body: '{}'}\n  response: {status: {code: 200}, body: {string: '{}'}}\n", "",
			`c.yaml: interactions[0]: request body has no "messages"`},
		{"HAR without entries", `{"log":{"version":"1.2"}}`, FormatHAR, `c.yaml: log: no "entries" array`},
		{"HAR named on a Claude Code file", `{"type":"user","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}` + "\n", FormatHAR,
			"c.yaml: no har records here; it reads as claude-code"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "c.yaml", Format(tt.format))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v\nwant prefix %q", err, tt.want)
			}
		})
	}
}

// TestRecordedResponsesAndGemini covers the OpenAI Responses and Gemini
// shapes, plain and streamed, with bodies written inline from the
// providers' documented layouts.
func TestRecordedResponsesAndGemini(t *testing.T) {
	responses := `{"model":"gpt-5","instructions":"Be brief.","input":"Weather in Oslo?","tools":[{"type":"function","name":"weather","description":"Weather now.","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]}`
	responsesOut := `{"id":"resp_1","object":"response","output":[{"type":"function_call","id":"fc_1","call_id":"call_1","name":"weather","arguments":"{\"city\":\"Oslo\"}","status":"completed"}],"usage":{"input_tokens":57,"input_tokens_details":{"cached_tokens":0},"output_tokens":18,"total_tokens":75}}`
	gemini := `{"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":[{"role":"user","parts":[{"text":"Hi"}]}]}`
	geminiStream := "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Hel\"}]}}]}\r\n\r\n" +
		"data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"lo\"}]}}],\"usageMetadata\":{\"promptTokenCount\":9,\"candidatesTokenCount\":2}}\r\n\r\n"
	responsesStream := "event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"output\":[]}}\n\n" +
		"event: response.completed\ndata: {\"type\":\"response.completed\",\"response\":{\"output\":[{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Sunny.\"}]}],\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}}\n\n"
	// A JSON string is a YAML double-quoted scalar: newlines stay.
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	cassette := "interactions:\n" +
		"- request: {method: POST, uri: 'https://api.openai.com/v1/responses', body: " + q(responses) + "}\n" +
		"  response: {status: {code: 200}, body: {string: " + q(responsesOut) + "}}\n" +
		"- request: {method: POST, uri: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', body: " + q(gemini) + "}\n" +
		"  response: {status: {code: 200}, headers: {Content-Type: [text/event-stream]}, body: {string: " + q(geminiStream) + "}}\n" +
		"- request: {method: POST, uri: 'https://api.openai.com/v1/responses', body: " + q(`{"input":[{"role":"user","content":"Sky?"}]}`) + "}\n" +
		"  response: {status: {code: 200}, headers: {content-type: [text/event-stream; charset=utf-8]}, body: {string: " + q(responsesStream) + "}}\n" +
		"- request: {method: POST, uri: 'https://api.openai.com/v1/responses', body: '{}'}\n" +
		"  response: {status: {code: 429}, body: {string: '{}'}}\n"
	ts, err := Read(strings.NewReader(cassette), "c.yaml", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 3 {
		t.Fatalf("%d conversations, want 3", len(ts))
	}
	type want struct {
		texts string // role:text of each message, tool calls as name(args)
		input int    // the prompt size on the reply
		tools int
	}
	wants := []want{
		{"system:Be brief.|user:Weather in Oslo?|assistant:weather({\"city\":\"Oslo\"})", 57, 1},
		{"system:Be brief.|user:Hi|assistant:Hello", 9, 0}, // the chunks' text parts joined
		{"user:Sky?|assistant:Sunny.", 12, 0},
	}
	for k, w := range wants {
		var parts []string
		for _, m := range ts[k].Messages {
			s := string(m.Role) + ":" + m.Text
			for _, c := range m.ToolCalls {
				s += c.Name + "(" + c.Arguments + ")"
			}
			parts = append(parts, s)
		}
		if got := strings.Join(parts, "|"); got != w.texts {
			t.Errorf("conversation %d: %q, want %q", k, got, w.texts)
		}
		last := ts[k].Messages[len(ts[k].Messages)-1]
		if last.InputTokens == nil || *last.InputTokens != w.input {
			t.Errorf("conversation %d: input %v, want %d", k, last.InputTokens, w.input)
		}
		if len(ts[k].Tools) != w.tools {
			t.Errorf("conversation %d: %d tools, want %d", k, len(ts[k].Tools), w.tools)
		}
	}
	if ts[0].Skipped["interaction:error"] != 1 {
		t.Errorf("skipped %v, want the 429 counted", ts[0].Skipped)
	}
}

// TestRecordedEncodings: gzip and base64 bodies as vcrpy (!!binary) and
// HAR (encoding: base64) write them read as the plain ones.
func TestRecordedEncodings(t *testing.T) {
	req := `{"messages":[{"role":"user","content":"Hi"}]}`
	resp := `{"choices":[{"message":{"role":"assistant","content":"Hello"}}],"usage":{"prompt_tokens":8,"completion_tokens":1}}`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(resp))
	zw.Close()
	b64 := base64.StdEncoding.EncodeToString(gz.Bytes())
	cassette := "interactions:\n- request:\n    uri: https://api.openai.com/v1/chat/completions\n    body: '" + req + "'\n" +
		"  response:\n    status: {code: 200}\n    body:\n      string: !!binary |\n        " + b64 + "\n"
	harDoc, _ := json.Marshal(map[string]any{"log": map[string]any{"entries": []any{map[string]any{
		"request":  map[string]any{"method": "POST", "url": "https://api.openai.com/v1/chat/completions", "postData": map[string]any{"mimeType": "application/json", "text": req}},
		"response": map[string]any{"status": 200, "content": map[string]any{"mimeType": "application/json", "encoding": "base64", "text": b64}},
	}}}})
	for _, in := range []struct{ name, data string }{{"vcr !!binary gzip", cassette}, {"har base64 gzip", string(harDoc)}} {
		t.Run(in.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(in.data), "r", "")
			if err != nil {
				t.Fatal(err)
			}
			ms := ts[0].Messages
			if len(ms) != 2 || ms[1].Text != "Hello" || ms[1].InputTokens == nil || *ms[1].InputTokens != 8 {
				t.Errorf("messages %+v", ms)
			}
		})
	}
}

// TestRecordedAnthropicThinking: a streamed thinking block (thinking_delta
// events) lands in Message.Thinking; message_delta's usage overrides
// message_start's.
func TestRecordedAnthropicThinking(t *testing.T) {
	events := []string{
		`{"type":"message_start","message":{"usage":{"input_tokens":10,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1}}}`,
		`{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two plus "}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"two."}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}`,
		`{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`,
		`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"4"}}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":12,"cache_read_input_tokens":100,"output_tokens":30}}`,
	}
	var sse strings.Builder
	for _, e := range events {
		sse.WriteString("event: x\ndata: " + e + "\n\n")
	}
	harDoc, _ := json.Marshal(map[string]any{"log": map[string]any{"entries": []any{map[string]any{
		"request":  map[string]any{"url": "https://api.anthropic.com/v1/messages", "postData": map[string]any{"text": `{"messages":[{"role":"user","content":"2+2?"}]}`}},
		"response": map[string]any{"status": 200, "content": map[string]any{"mimeType": "text/event-stream", "text": sse.String()}},
	}}}})
	ts, err := Read(bytes.NewReader(harDoc), "h.har", "")
	if err != nil {
		t.Fatal(err)
	}
	m := ts[0].Messages[1]
	if m.Text != "4" || m.Thinking != "Two plus two." || m.InputTokens == nil || *m.InputTokens != 112 {
		t.Errorf("reply %+v (input %v), want text 4, thinking \"Two plus two.\", input 12 + 100", m, m.InputTokens)
	}
}

// TestRecordedStreamIndex: a streamed reply that numbers a content block
// or a tool call past 4,096 is a corrupt recording: an error naming the
// entry, where it was skipped before (and its text lost unsaid).
func TestRecordedStreamIndex(t *testing.T) {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	for _, tt := range []struct{ name, uri, body, want string }{
		{"anthropic block", "https://api.anthropic.com/v1/messages",
			"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":5000,\"content_block\":{\"type\":\"text\",\"text\":\"Hi\"}}\n\n",
			"streamed content block index 5000: want 0 to 4096"},
		{"openai tool call", "https://api.openai.com/v1/chat/completions",
			"data: {\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-1,\"id\":\"c\",\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}\n\ndata: [DONE]\n\n",
			"streamed tool call index -1: want 0 to 4096"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			req := `{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"Hi"}],"stream":true}`
			cassette := "interactions:\n" +
				"- request: {method: POST, uri: '" + tt.uri + "', body: " + q(req) + "}\n" +
				"  response: {status: {code: 200}, headers: {Content-Type: [text/event-stream]}, body: {string: " + q(tt.body) + "}}\n"
			_, err := Read(strings.NewReader(cassette), "c.yaml", "")
			if err == nil || !strings.HasPrefix(err.Error(), "c.yaml: ") || !strings.HasSuffix(err.Error(), tt.want) {
				t.Errorf("error %v\nwant c.yaml: … %s", err, tt.want)
			} else {
				t.Log(err)
			}
		})
	}
}
