package transcript

import (
	"fmt"
	"strings"
	"testing"
)

// harnessSummary renders what a table test checks: the messages (role and
// text), the turns, the unsent calls' usage and the skipped records.
func harnessSummary(tr *Transcript) string {
	var b strings.Builder
	for _, m := range tr.Messages {
		fmt.Fprintf(&b, "%s:%s", m.Role, m.Text)
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "[%s %s]", c.ID, c.Name)
		}
		if m.ToolCallID != "" {
			fmt.Fprintf(&b, "(%s)", m.ToolCallID)
		}
		if m.Usage != nil {
			fmt.Fprintf(&b, "{%d/%d/%d/%d}", m.Usage.Input, m.Usage.CacheRead, m.Usage.CacheWrite, m.Usage.Output)
		}
		b.WriteString(" ")
	}
	fmt.Fprintf(&b, "turns=%d", tr.Turns)
	for _, c := range tr.Unsent {
		fmt.Fprintf(&b, " unsent %s{%d/%d/%d/%d}", c.Model, c.Usage.Input, c.Usage.CacheRead, c.Usage.CacheWrite, c.Usage.Output)
	}
	return b.String()
}

func TestGeminiJSONL(t *testing.T) {
	const head = `{"sessionId":"s1","projectHash":"ab12","startTime":"2026-06-01T10:00:00.000Z","lastUpdated":"2026-06-01T10:00:00.000Z","kind":"main"}` + "\n"
	u := func(id, text string) string {
		return `{"id":"` + id + `","timestamp":"2026-06-01T10:00:01.000Z","type":"user","content":[{"text":"` + text + `"}]}` + "\n"
	}
	g := func(id, text string, in, cached, out int) string {
		return fmt.Sprintf(`{"id":"%s","timestamp":"2026-06-01T10:00:02.000Z","type":"gemini","content":"%s","model":"gemini-2.5-flash","tokens":{"input":%d,"output":%d,"cached":%d,"thoughts":0,"total":%d}}`+"\n",
			id, text, in, out, cached, in+out)
	}
	for _, tt := range []struct {
		name, in, want string
	}{
		// Usage parts: 1000 prompt of which 0 cached → {1000/0/0/10}.
		{"plain", head + u("a", "hi") + g("b", "yo", 1000, 0, 10),
			"user:hi assistant:yo{1000/0/0/10} turns=1"},
		// The record written again stands, in its first place.
		{"rewritten", head + u("a", "hi") + g("b", "", 0, 0, 0) + u("c", "next") + g("b", "yo", 1000, 400, 10),
			"user:hi assistant:yo{600/400/0/10} user:next turns=2"},
		// $rewindTo drops the message it names and those after it; the
		// dropped reply is billed: 2000 − 1500 = 500 uncached.
		{"rewind", head + u("a", "hi") + g("b", "yo", 1000, 0, 10) + u("c", "oops") + g("d", "no", 2000, 1500, 5) +
			`{"$rewindTo":"c"}` + "\n" + u("e", "again") + g("f", "ok", 1200, 1000, 7),
			"user:hi assistant:yo{1000/0/0/10} user:again assistant:ok{200/1000/0/7} turns=2 unsent gemini-2.5-flash{500/1500/0/5}"},
		// An id the session does not hold drops every message.
		{"rewind unknown", head + u("a", "hi") + g("b", "yo", 1000, 0, 10) + `{"$rewindTo":"zz"}` + "\n" + u("c", "new"),
			"user:new turns=1 unsent gemini-2.5-flash{1000/0/0/10}"},
		// $set with messages replaces the list; $set without changes
		// fields only.
		{"set messages", head + u("a", "hi") + g("b", "yo", 1000, 0, 10) +
			`{"$set":{"summary":"x"}}` + "\n" +
			`{"$set":{"messages":[{"id":"a","type":"user","content":"hi"}]}}` + "\n",
			"user:hi turns=1 unsent gemini-2.5-flash{1000/0/0/10}"},
		// A new list that keeps a reply (same id) bills it once.
		{"set keeps", head + u("a", "hi") + g("b", "yo", 1000, 0, 10) + g("c", "more", 2000, 0, 5) +
			`{"$set":{"messages":[{"id":"a","type":"user","content":"hi"},{"id":"b","type":"gemini","content":"yo","model":"gemini-2.5-flash","tokens":{"input":1000,"output":10,"cached":0}}]}}` + "\n",
			"user:hi assistant:yo{1000/0/0/10} turns=1 unsent gemini-2.5-flash{2000/0/0/5}"},
		{"header only", head, "turns=0"},
		// The context Gemini CLI sets first is meta: it opens no turn.
		{"session context", head + `{"$set":{"messages":[{"id":"d0","type":"user","content":[{"text":"<session_context>\nOS: linux\n</session_context>"}]}]}}` + "\n" + u("a", "hi"),
			"user:<session_context>\nOS: linux\n</session_context> user:hi turns=1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []Format{"", FormatGeminiCLI} {
				ts, err := Read(strings.NewReader(tt.in), "s.jsonl", format)
				if err != nil {
					t.Fatalf("format %q: %v", format, err)
				}
				if got := harnessSummary(ts[0]); got != tt.want || ts[0].Format != FormatGeminiCLI {
					t.Errorf("format %q: %s\n got %s\nwant %s", format, ts[0].Format, got, tt.want)
				}
			}
		})
	}
}

func TestGeminiJSONLErrors(t *testing.T) {
	const head = `{"sessionId":"s1","projectHash":"ab12"}` + "\n"
	for _, tt := range []struct{ name, in, want string }{
		{"rewind not a string", head + `{"$rewindTo":3}` + "\n", `s.jsonl:2: "$rewindTo" must be a message id (a string)`},
		{"bad message", head + `{"id":"a","type":"user","content":"x"}` + "\n" + `{"id":"b","type":"gemini","content":7}` + "\n",
			`s.jsonl:3: "content" must be a string or an array of parts, got number`},
		{"no type", head + `{"id":"a","content":"x"}` + "\n", `s.jsonl:2: missing "type"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "s.jsonl", "")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestCopilot(t *testing.T) {
	ev := func(typ, data string) string {
		return `{"type":"` + typ + `","data":` + data + `,"id":"x","timestamp":"2026-06-01T10:00:00.000Z","parentId":null}` + "\n"
	}
	start := ev("session.start", `{"sessionId":"s1","version":1,"producer":"copilot-agent","copilotVersion":"1.0.64","context":{"cwd":"/w"}}`)
	for _, tt := range []struct {
		name, in, want string
		warnings       int
	}{
		// No shutdown: each reply's output alone, with a warning.
		{"no shutdown", start + ev("session.model_change", `{"newModel":"gpt-5"}`) +
			ev("user.message", `{"content":"hi"}`) +
			ev("assistant.message", `{"messageId":"m1","content":"yo","toolRequests":[{"toolCallId":"c1","name":"view","arguments":{"path":"a"}}],"outputTokens":12}`) +
			ev("tool.execution_start", `{"toolCallId":"c1","toolName":"view"}`) +
			ev("tool.execution_complete", `{"toolCallId":"c1","success":true,"result":{"content":"file"}}`) +
			ev("assistant.message", `{"messageId":"m2","content":"done","outputTokens":3}`),
			"user:hi assistant:yo[c1 view] tool:file(c1) assistant:done turns=1 unsent gpt-5{0/0/0/12} unsent gpt-5{0/0/0/3}", 1},
		// A shutdown covers the replies before it: its models, sorted,
		// inputTokens split as 100 − 60 read − 10 written = 30 uncached.
		{"shutdown", start + ev("user.message", `{"content":"hi"}`) +
			ev("assistant.message", `{"content":"yo","outputTokens":12}`) +
			ev("session.shutdown", `{"shutdownType":"routine","modelMetrics":{"m2":{"usage":{"inputTokens":5,"outputTokens":1}},"m1":{"requests":{"count":2},"usage":{"inputTokens":100,"outputTokens":12,"cacheReadTokens":60,"cacheWriteTokens":10}}}}`),
			"user:hi assistant:yo turns=1 unsent m1{30/60/10/12} unsent m2{5/0/0/1}", 1},
		// A subagent's events (agentId) are billed, not messages here: its
		// reply's output waits for a shutdown like any other.
		{"subagent", start + ev("user.message", `{"content":"hi"}`) +
			`{"type":"assistant.message","agentId":"a1","data":{"model":"m-small","content":"sub","outputTokens":4}}` + "\n" +
			ev("assistant.message", `{"model":"m","content":"yo","outputTokens":2}`),
			"user:hi assistant:yo turns=1 unsent m-small{0/0/0/4} unsent m{0/0/0/2}", 1},
		// An error result is the tool message's text; abort marks the turn.
		{"error and abort", start + ev("user.message", `{"content":"hi"}`) +
			ev("assistant.message", `{"content":"","toolRequests":[{"toolCallId":"c1","name":"bash","arguments":{}}]}`) +
			ev("tool.execution_complete", `{"toolCallId":"c1","success":false,"error":{"message":"denied"}}`) +
			ev("abort", `{"reason":"user initiated"}`),
			"user:hi assistant:[c1 bash] tool:denied(c1) turns=1", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts, err := Read(strings.NewReader(tt.in), "events.jsonl", "")
			if err != nil {
				t.Fatal(err)
			}
			tr := ts[0]
			if got := harnessSummary(tr); got != tt.want || tr.Format != FormatCopilotCLI {
				t.Errorf("%s\n got %s\nwant %s", tr.Format, got, tt.want)
			}
			if len(tr.Warnings) != tt.warnings {
				t.Errorf("warnings %v, want %d", tr.Warnings, tt.warnings)
			}
		})
	}
}

func TestCopilotErrors(t *testing.T) {
	const start = `{"type":"session.start","data":{"sessionId":"s"}}` + "\n"
	for _, tt := range []struct{ name, in, want string }{
		{"negative output", start + `{"type":"assistant.message","data":{"outputTokens":-1}}` + "\n",
			`events.jsonl:2: "data.outputTokens" must be a whole number ≥ 0, got -1`},
		{"no call id", start + `{"type":"assistant.message","data":{"toolRequests":[{"name":"x"}]}}` + "\n",
			`events.jsonl:2: data.toolRequests[0]: "toolCallId" is required`},
		{"data not an object", start + `{"type":"user.message","data":[]}` + "\n",
			`events.jsonl:2: "data" must be an object`},
		{"negative usage", start + `{"type":"session.shutdown","data":{"modelMetrics":{"m":{"usage":{"inputTokens":-5}}}}}` + "\n",
			`events.jsonl:2: data.modelMetrics["m"].usage: token counts must be whole numbers ≥ 0: "inputTokens" (-5)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "events.jsonl", "")
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestOpenCode(t *testing.T) {
	doc := func(msgs ...string) string {
		return `{"info":{"id":"ses_1","title":"t"},"messages":[` + strings.Join(msgs, ",") + `]}`
	}
	user := `{"info":{"id":"msg_u","role":"user","time":{"created":1790000000000}},"parts":[{"type":"text","text":"hi"},{"type":"text","text":"shown","ignored":true}]}`
	tok := func(in, out, reasoning, read, write int) string {
		return fmt.Sprintf(`{"input":%d,"output":%d,"reasoning":%d,"cache":{"read":%d,"write":%d}}`, in, out, reasoning, read, write)
	}
	for _, tt := range []struct{ name, in, want string }{
		// Two steps, two calls: output + reasoning = 5 + 2; the second
		// step's call failed, its error is the result.
		{"steps", doc(user, `{"info":{"role":"assistant","modelID":"m","tokens":`+tok(99, 99, 0, 0, 0)+`},"parts":[`+
			`{"type":"step-start"},{"type":"reasoning","text":"r"},{"type":"text","text":"a"},`+
			`{"type":"tool","callID":"c1","tool":"read","state":{"status":"completed","input":{"p":1},"output":"file"}},`+
			`{"type":"step-finish","tokens":`+tok(10, 5, 2, 100, 20)+`},`+
			`{"type":"tool","callID":"c2","tool":"edit","state":{"status":"error","input":{},"error":"stale"}},`+
			`{"type":"step-finish","tokens":`+tok(3, 4, 0, 120, 0)+`}]}`),
			"user:hi assistant:a[c1 read]{10/100/20/7} tool:file(c1) assistant:[c2 edit]{3/120/0/4} tool:stale(c2) turns=1"},
		// No step records tokens (zeros, or none): the message's stand,
		// on its last step.
		{"message tokens", doc(user, `{"info":{"role":"assistant","tokens":`+tok(8, 20, 1, 50, 5)+`},"parts":[`+
			`{"type":"text","text":"b"},{"type":"step-finish","tokens":`+tok(0, 0, 0, 0, 0)+`},{"type":"text","text":"c"},{"type":"step-finish"}]}`),
			"user:hi assistant:b assistant:c{8/50/5/21} turns=1"},
		// total tells whether output held the reasoning: 116 − 100 read −
		// 10 = 6 = output (OpenAI's way, reasoning inside); 120 − 110 =
		// 10 = output 6 + reasoning 4 (reasoning outside).
		{"total", doc(user, `{"info":{"role":"assistant"},"parts":[`+
			`{"type":"step-finish","tokens":{"total":116,"input":10,"output":6,"reasoning":4,"cache":{"read":100,"write":0}}},`+
			`{"type":"text","text":"d"},{"type":"step-finish","tokens":{"total":120,"input":10,"output":6,"reasoning":4,"cache":{"read":100,"write":0}}}]}`),
			"user:hi assistant:{10/100/0/6} assistant:d{10/100/0/10} turns=1"},
		// Redacted tokens (opencode export --sanitize) record nothing.
		{"redacted", doc(user, `{"info":{"role":"assistant","tokens":"***"},"parts":[{"type":"text","text":"e"},{"type":"step-finish","tokens":"***"}]}`),
			"user:hi assistant:e turns=1"},
		// A reply with no parts at all, its tokens recorded: one call.
		{"no parts", doc(user, `{"info":{"role":"assistant","tokens":`+tok(1, 2, 0, 0, 0)+`},"parts":[]}`),
			"user:hi assistant:{1/0/0/2} turns=1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, format := range []Format{"", FormatOpenCode} {
				ts, err := Read(strings.NewReader(tt.in), "export.json", format)
				if err != nil {
					t.Fatalf("format %q: %v", format, err)
				}
				if got := harnessSummary(ts[0]); got != tt.want || ts[0].Format != FormatOpenCode {
					t.Errorf("format %q: %s\n got %s\nwant %s", format, ts[0].Format, got, tt.want)
				}
			}
		})
	}
}

func TestOpenCodeErrors(t *testing.T) {
	for _, tt := range []struct{ name, in, want string }{
		{"no call id", `{"info":{},"messages":[{"info":{"role":"assistant"},"parts":[{"type":"tool","tool":"x"}]}]}`,
			`export.json: messages[0].parts[0]: "callID" is required`},
		{"role", `{"info":{},"messages":[{"info":{"role":"system"},"parts":[]}]}`,
			`export.json: messages[0].info: unknown role "system"; valid: user, assistant`},
		{"negative", `{"info":{},"messages":[{"info":{"role":"assistant"},"parts":[{"type":"step-finish","tokens":{"input":-1}}]}]}`,
			`export.json: messages[0].parts[0].tokens: token counts must be whole numbers ≥ 0: "input" (-1)`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tt.in), "export.json", FormatOpenCode)
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestHarnessFirstRecords: each record type these harnesses write first
// (or that a cut or resumed file may start with) is detected.
func TestHarnessFirstRecords(t *testing.T) {
	const reply = `{"type":"assistant.message","data":{"content":"yo"}}` + "\n"
	for _, tt := range []struct {
		first string
		want  Format
	}{
		{`{"type":"session.start","data":{"sessionId":"s","copilotVersion":"1.0.64"},"id":"e","timestamp":"2026-06-01T10:00:00Z","parentId":null}`, FormatCopilotCLI},
		{`{"type":"session.resume","data":{"resumeTime":"2026-06-01T10:00:00Z","eventCount":9}}`, FormatCopilotCLI},
		{`{"type":"session.warning","data":{"warningType":"policy","message":"x"},"ephemeral":true}`, FormatCopilotCLI},
		{`{"type":"session.mcp_servers_loaded","data":{"servers":[]},"ephemeral":true}`, FormatCopilotCLI},
		{`{"type":"user.message","data":{"content":"hi"}}`, FormatCopilotCLI},
		{`{"type":"hook.start","data":{"hookType":"sessionStart"}}`, FormatCopilotCLI},
		{`{"sessionId":"s","projectHash":"ab","startTime":"2026-06-01T10:00:00Z","kind":"main"}`, FormatGeminiCLI},
		{`{"sessionId":"s","projectHash":"ab","startTime":"2026-06-01T10:00:00Z","lastUpdated":"2026-06-01T10:00:00Z","kind":"subagent","directories":["/w"]}`, FormatGeminiCLI},
	} {
		ts, err := Read(strings.NewReader(tt.first+"\n"+reply), "f.jsonl", "")
		if tt.want == FormatGeminiCLI && err != nil {
			// A Gemini CLI file holds no Copilot event: the reply line is
			// an error there; detection is what is checked.
			ts, err = Read(strings.NewReader(tt.first+"\n"), "f.jsonl", "")
		}
		if err != nil {
			t.Errorf("%s: %v", tt.first, err)
			continue
		}
		if ts[0].Format != tt.want {
			t.Errorf("%s: format %s, want %s", tt.first, ts[0].Format, tt.want)
		}
	}
	// An OpenCode export, indented as opencode export writes it.
	doc := "{\n  \"info\": {\n    \"id\": \"ses_1\",\n    \"version\": \"1.2.5\"\n  },\n  \"messages\": [\n    {\n      \"info\": {\"role\": \"user\"},\n      \"parts\": []\n    }\n  ]\n}\n"
	if ts, err := Read(strings.NewReader(doc), "s.json", ""); err != nil || ts[0].Format != FormatOpenCode {
		t.Errorf("OpenCode export: %v, %v", ts, err)
	}
}
