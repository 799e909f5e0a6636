package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// addSeeds adds every sample of a format directory as a fuzz seed.
func addSeeds(f *testing.F, dir string, extra ...string) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "transcripts", dir, "*"))
	for _, p := range files {
		if st, err := os.Stat(p); err != nil || st.Size() > 64<<10 {
			continue // the long generated samples make slow seeds
		}
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

// checkInvariants checks what must hold for any transcript Read returns.
func checkInvariants(t *testing.T, tr *Transcript) {
	t.Helper()
	turn := 0
	for i, m := range tr.Messages {
		if m.Index != i {
			t.Fatalf("message %d has Index %d", i, m.Index)
		}
		if m.Turn < turn || m.Turn > turn+1 {
			t.Fatalf("message %d: turn %d after turn %d", i, m.Turn, turn)
		}
		turn = m.Turn
		switch m.Role {
		case RoleSystem, RoleUser, RoleAssistant, RoleTool:
		default:
			t.Fatalf("message %d: role %q", i, m.Role)
		}
	}
	if turn != tr.Turns {
		t.Fatalf("last turn %d, Turns %d", turn, tr.Turns)
	}
	for _, u := range tr.Unpaired {
		if u.Message < 0 || u.Message >= len(tr.Messages) || (u.Kind != "call" && u.Kind != "result") {
			t.Fatalf("bad unpaired entry %+v", u)
		}
	}
	for _, c := range tr.Compactions {
		if c < 0 || c >= len(tr.Messages) {
			t.Fatalf("compaction index %d out of range", c)
		}
	}
	if tr.Skipped == nil {
		t.Fatal("Skipped is nil")
	}
	// That its listing always encodes is package usage's FuzzCollect's.
}

func fuzzFormat(f *testing.F, format Format, dir string, extra ...string) {
	addSeeds(f, dir, extra...)
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := Read(bytes.NewReader(data), "fuzz", Format(format))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		for _, tr := range ts {
			checkInvariants(t, tr)
		}
	})
}

func FuzzRead(f *testing.F) {
	fuzzFormat(f, "", "harpe", `[{"role":"user","content":"a"}]`, `{"contents":[]}`, `{"conversations":[]}`, "\xef\xbb\xbf[]")
}
func FuzzReadOpenAI(f *testing.F)    { fuzzFormat(f, FormatOpenAI, "openai") }
func FuzzReadAnthropic(f *testing.F) { fuzzFormat(f, FormatAnthropic, "anthropic") }
func FuzzReadClaudeCode(f *testing.F) {
	fuzzFormat(f, FormatClaudeCode, "claude-code")
}
func FuzzReadCodex(f *testing.F)  { fuzzFormat(f, FormatCodex, "codex") }
func FuzzReadGemini(f *testing.F) { fuzzFormat(f, FormatGemini, "gemini") }
func FuzzReadGeminiCLI(f *testing.F) {
	fuzzFormat(f, FormatGeminiCLI, "gemini-cli", "{\"sessionId\":\"s\",\"projectHash\":\"p\"}\n{\"id\":\"a\",\"type\":\"user\",\"content\":\"x\"}\n{\"$rewindTo\":\"a\"}\n")
}
func FuzzReadCopilotCLI(f *testing.F) {
	fuzzFormat(f, FormatCopilotCLI, "copilot-cli", `{"type":"session.shutdown","data":{"modelMetrics":{"m":{"usage":{"inputTokens":1}}}}}`)
}
func FuzzReadOpenCode(f *testing.F) {
	fuzzFormat(f, FormatOpenCode, "opencode", `{"info":{},"messages":[{"info":{"role":"assistant"},"parts":[{"type":"step-finish","tokens":{"input":1}}]}]}`)
}
func FuzzReadShareGPT(f *testing.F)  { fuzzFormat(f, FormatShareGPT, "sharegpt") }
func FuzzReadSWEAgent(f *testing.F)  { fuzzFormat(f, FormatSWEAgent, "swe-agent") }
func FuzzReadOpenHands(f *testing.F) { fuzzFormat(f, FormatOpenHands, "openhands") }
func FuzzReadLongMemory(f *testing.F) {
	fuzzFormat(f, FormatLongMemory, "long-memory")
}

// FuzzReadHarpe also checks a round trip: a transcript written back as
// harpe events reads back with the same messages, turns and usage.
func FuzzReadHarpe(f *testing.F) {
	addSeeds(f, "harpe")
	f.Fuzz(func(t *testing.T, data []byte) {
		ts, err := Read(bytes.NewReader(data), "fuzz", FormatHarpe)
		if err != nil {
			return
		}
		tr := ts[0]
		checkInvariants(t, tr)
		back, err := Read(bytes.NewReader(writeHarpe(tr)), "back", FormatHarpe)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if got, want := summarize(back[0]), summarize(tr); got != want {
			t.Fatalf("round trip\n got %s\nwant %s", got, want)
		}
	})
}

// writeHarpe writes t as harpe events.
func writeHarpe(t *Transcript) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	for i, m := range t.Messages {
		ev := map[string]any{"content": m.Text}
		switch m.Role {
		case RoleTool:
			ev["type"], ev["tool_call_id"] = "tool_result", m.ToolCallID
		default:
			ev["type"] = m.Role
		}
		if m.Name != "" {
			ev["name"] = m.Name
		}
		var calls []map[string]any
		for _, c := range m.ToolCalls {
			calls = append(calls, map[string]any{"id": c.ID, "name": c.Name, "arguments": c.Arguments})
		}
		if calls != nil {
			ev["tool_calls"] = calls
		}
		enc.Encode(ev)
		if m.InputTokens != nil {
			enc.Encode(map[string]any{"type": "usage", "input_tokens": *m.InputTokens})
		}
		// An aborted turn ends with an abort event.
		if m.Aborted && (i+1 == len(t.Messages) || !t.Messages[i+1].Aborted || t.Messages[i+1].Turn != m.Turn) {
			enc.Encode(map[string]any{"type": "abort"})
		}
	}
	return buf.Bytes()
}

func summarize(t *Transcript) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d turns, %d unpaired;", t.Turns, len(t.Unpaired))
	for _, m := range t.Messages {
		in := -1
		if m.InputTokens != nil {
			in = *m.InputTokens
		}
		fmt.Fprintf(&b, " %s/%d/%q/%d/%v/%d", m.Role, m.Turn, m.Text, len(m.ToolCalls), m.Aborted, in)
	}
	return b.String()
}

func FuzzReadVCR(f *testing.F) {
	fuzzFormat(f, FormatVCR, "vcr", "interactions: []\n", "interactions:\n- request: {uri: https://api.openai.com/v1/chat/completions, body: '{\"messages\":[]}'}\n  response: {status: {code: 200}, body: {string: '{}'}}\n")
}
func FuzzReadHAR(f *testing.F) {
	fuzzFormat(f, FormatHAR, "har", `{"log":{"entries":[]}}`, `{"log":{"entries":[{"request":{"url":"https://api.anthropic.com/v1/messages","postData":{"text":"{\"messages\":[]}"}},"response":{"status":200,"content":{"mimeType":"text/event-stream","text":"data: {\"type\":\"message_start\"}\n"}}}]}}`)
}
