package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The detection rules as they stood before each format's value carried its
// own sniffs (one switch over every format, in a fixed order): kept here as
// the reference the table-driven detection must agree with.

// detectLine names the format of an input whose first line is the JSON
// object obj, or "" when it cannot tell.
func refDetectLine(obj map[string]json.RawMessage) Format {
	if f := refLineSniff(obj); f != "" {
		return f
	}
	return refDetectDocument(refMustRaw(obj))
}

// refLineSniff is the JSON Lines format a record belongs to, "" for none.
func refLineSniff(obj map[string]json.RawMessage) Format {
	var typ string
	_ = json.Unmarshal(obj["type"], &typ)
	head, _, dotted := strings.Cut(typ, ".")
	switch {
	case obj["data"] != nil && bytes.HasPrefix(bytes.TrimSpace(obj["data"]), []byte("{")) &&
		(dotted && len(typ) > len(head)+1 && copilotHeads[head] || typ == "abort"):
		return FormatCopilotCLI
	case obj["$rewindTo"] != nil && obj["$rewindTo"][0] == '"',
		bytes.HasPrefix(bytes.TrimSpace(obj["$set"]), []byte("{")),
		len(obj["sessionId"]) > 0 && obj["sessionId"][0] == '"' && len(obj["projectHash"]) > 0 && obj["projectHash"][0] == '"' &&
			obj["id"] == nil && obj["messages"] == nil:
		return FormatGeminiCLI
	case obj["payload"] != nil && codexTypes[typ]:
		return FormatCodex
	case obj["payload"] == nil && responseItemTypes[typ] && (obj["role"] != nil || obj["call_id"] != nil || typ == "reasoning" || typ == "web_search_call"):
		return FormatCodex
	case obj["sessionId"] != nil && (obj["uuid"] != nil || obj["parentUuid"] != nil):
		return FormatClaudeCode
	case claudeTypes[typ] && (obj["sessionId"] != nil || obj["uuid"] != nil || obj["message"] != nil || !harpeTypes[typ]):
		return FormatClaudeCode
	case harpeTypes[typ]:
		return FormatHarpe
	case obj["role"] != nil:
		if refLooksAnthropic([]json.RawMessage{refMustRaw(obj)}) {
			return FormatAnthropic
		}
		return FormatOpenAI
	}
	return ""
}

// copilotHeads are the first words of Copilot CLI's dotted event types.
var copilotHeads = map[string]bool{"session": true, "user": true, "assistant": true, "tool": true,
	"system": true, "hook": true, "subagent": true, "skill": true}

func refMustRaw(obj map[string]json.RawMessage) json.RawMessage {
	b, _ := json.Marshal(obj)
	return b
}

// detectDocument names the format of one JSON document, or "".
func refDetectDocument(v json.RawMessage) Format {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return ""
	}
	if v[0] == '[' {
		var arr []json.RawMessage
		if json.Unmarshal(v, &arr) != nil {
			return ""
		}
		if len(arr) == 0 {
			return FormatOpenAI
		}
		var el map[string]json.RawMessage
		if json.Unmarshal(arr[0], &el) != nil {
			return ""
		}
		switch {
		case el["conversations"] != nil:
			return FormatShareGPT
		case el["source"] != nil && (el["action"] != nil || el["observation"] != nil):
			return FormatOpenHands
		case hasKey(el["conversation"], "speaker_a"):
			return FormatLongMemory
		case el["parts"] != nil:
			return FormatGemini
		case responseItemTypes[str(el["type"])] && el["payload"] == nil:
			return FormatCodex
		case el["role"] != nil:
			if refLooksAnthropic(arr) {
				return FormatAnthropic
			}
			return FormatOpenAI
		}
		return ""
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(v, &obj) != nil {
		return ""
	}
	switch {
	case hasKey(obj["log"], "entries"):
		return FormatHAR
	case obj["conversations"] != nil:
		return FormatShareGPT
	case obj["history"] != nil && (obj["trajectory"] != nil || obj["info"] != nil || obj["environment"] != nil):
		return FormatSWEAgent
	case hasKey(obj["conversation"], "speaker_a"):
		return FormatLongMemory
	case obj["info"] != nil && obj["messages"] != nil && refOpenCodeFirst(obj["messages"]):
		return FormatOpenCode
	case obj["contents"] != nil:
		return FormatGemini
	case obj["input"] != nil && obj["messages"] == nil:
		return FormatCodex
	case obj["messages"] != nil:
		var msgs []json.RawMessage
		_ = json.Unmarshal(obj["messages"], &msgs)
		if obj["sessionId"] != nil || (len(msgs) > 0 && hasKey(msgs[0], "type") && !hasKey(msgs[0], "role")) {
			return FormatGeminiCLI
		}
		if obj["system"] != nil || refLooksAnthropic(msgs) {
			return FormatAnthropic
		}
		return FormatOpenAI
	}
	return ""
}

// refOpenCodeFirst: the first of msgs is an object with "info" and
// "parts".
func refOpenCodeFirst(msgs json.RawMessage) bool {
	var list []map[string]json.RawMessage
	if json.Unmarshal(msgs, &list) != nil {
		var any []json.RawMessage
		if json.Unmarshal(msgs, &any) != nil || len(any) == 0 {
			return false
		}
		var first map[string]json.RawMessage
		if json.Unmarshal(any[0], &first) != nil {
			return false
		}
		list = []map[string]json.RawMessage{first}
	}
	return len(list) > 0 && list[0]["info"] != nil && list[0]["parts"] != nil
}

// refLooksAnthropic tells Anthropic messages from OpenAI ones by what only
// one of them has: Anthropic content block types, or OpenAI roles, tool
// calls and part types. Plain text messages read the same either way.
func refLooksAnthropic(msgs []json.RawMessage) bool {
	for _, m := range msgs {
		var probe struct {
			Role      string          `json:"role"`
			ToolCalls json.RawMessage `json:"tool_calls"`
			Content   json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m, &probe) != nil {
			continue
		}
		switch probe.Role {
		case "system", "developer", "tool", "function":
			return false
		}
		if probe.ToolCalls != nil {
			return false
		}
		var blocks []struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(probe.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch b.Type {
			case "image_url", "input_audio", "refusal", "file":
				return false
			case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document",
				"server_tool_use", "web_search_tool_result", "web_fetch_tool_result",
				"code_execution_tool_result", "mcp_tool_use", "mcp_tool_result":
				return true
			}
		}
	}
	return false
}

// refDetect is the old Detect for inputs that are not VCR cassettes.
func refDetect(data []byte) Format {
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(first, bom))
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Valid(trimmed) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(trimmed, &obj) == nil {
			if f := refDetectLine(obj); f != "" {
				return f
			}
			// Records no format claims are looked past: the first of the
			// first 100 non-blank lines within 1 MiB that a JSON Lines
			// format claims names it.
			lines := strings.Split(string(data[:min(len(data), 1<<20)]), "\n")
			n := 0
			for _, l := range lines {
				l = strings.TrimSpace(strings.TrimPrefix(l, string(bom)))
				if l == "" {
					continue
				}
				if n++; n > 100 {
					break
				}
				var o map[string]json.RawMessage
				if json.Unmarshal([]byte(l), &o) == nil && o != nil {
					if f := refLineSniff(o); f != "" {
						return f
					}
				}
			}
		}
	}
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(bytes.TrimSpace(data), bom)))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return ""
	}
	return refDetectDocument(v)
}

// TestDetectSamples detects every file under testdata/transcripts and
// checks the format named by hand for it, the reference rules' answer,
// and that no two formats' sniffs claim it.
func TestDetectSamples(t *testing.T) {
	want := map[string]Format{
		"anthropic/long.json":                FormatAnthropic,
		"anthropic/request.json":             FormatAnthropic,
		"anthropic/server-tools.json":        FormatAnthropic,
		"anthropic/system-only.json":         FormatAnthropic,
		"claude-code/agent-sidechain.jsonl":  FormatClaudeCode,
		"claude-code/long.jsonl":             FormatClaudeCode,
		"claude-code/quirks-joined.jsonl":    FormatClaudeCode,
		"claude-code/quirks-compacted.jsonl": FormatClaudeCode,
		"claude-code/quirks-fast.jsonl":      FormatClaudeCode,
		"claude-code/quirks-thinking.jsonl":  FormatClaudeCode,
		"claude-code/quirks.jsonl":           FormatClaudeCode,
		"claude-code/session.jsonl":          FormatClaudeCode,
		"detect/claude-code-2.1.177.jsonl":   FormatClaudeCode, // told from its 4th record
		"cut-line/claude-code.jsonl":         FormatClaudeCode,
		"cut-line/codex.jsonl":               FormatCodex,
		"cut-line/copilot-cli.jsonl":         FormatCopilotCLI,
		"cut-line/gemini-cli.jsonl":          FormatGeminiCLI,
		"codex/long.jsonl":                   FormatCodex,
		"codex/quirks.jsonl":                 FormatCodex,
		"codex/quirks-counted.jsonl":         FormatCodex,
		"codex/quirks-tool-search.jsonl":     FormatCodex,
		"codex/quirks-unpriced.jsonl":        FormatCodex,
		"codex/responses-request.json":       FormatCodex,
		"codex/rollout.jsonl":                FormatCodex,
		"copilot-cli/events.jsonl":           FormatCopilotCLI,
		"gemini-cli/long.json":               FormatGeminiCLI,
		"gemini-cli/session.jsonl":           FormatGeminiCLI,
		"gemini-cli/quirks.jsonl":            FormatGeminiCLI,
		"gemini-cli/session.json":            FormatGeminiCLI,
		"gemini/contents.json":               FormatGemini,
		"opencode/export.json":               FormatOpenCode,
		"har/streamed.har":                   FormatHAR,
		"harpe/aborted.jsonl":                FormatHarpe,
		"harpe/basic.jsonl":                  FormatHarpe,
		"harpe/empty.jsonl":                  "", // nothing to tell; Read takes it as an empty harpe transcript
		"harpe/long.jsonl":                   FormatHarpe,
		"harpe/orphan.jsonl":                 FormatHarpe,
		"harpe/system-only.jsonl":            FormatHarpe,
		"long-memory/sessions.json":          FormatLongMemory,
		"openai/chat.json":                   FormatOpenAI,
		"openai/empty.json":                  FormatOpenAI,
		"openai/finetune.jsonl":              FormatOpenAI,
		"openai/legacy-function.json":        FormatOpenAI,
		"openai/long.jsonl":                  FormatOpenAI,
		"openai/messages.jsonl":              FormatOpenAI,
		"openai/orphan.json":                 FormatOpenAI,
		"openhands/events.json":              FormatOpenHands,
		"sharegpt/conversations.json":        FormatShareGPT,
		"sharegpt/single.json":               FormatShareGPT,
		"swe-agent/fix-issue.traj":           FormatSWEAgent,
		"swe-agent/text-mode.traj":           FormatSWEAgent,
		"tree/.DS_Store":                     "",
		"tree/claude/projects/-home-dev-app/7d1e9b20-4c3a-4f5e-9a8b-2c6d0e1f3a57.jsonl":                      FormatClaudeCode,
		"tree/claude/projects/-home-dev-app/c5e0a3f1-8d2b-4e6a-b1c9-0a7f3e2d1b40.jsonl":                      FormatClaudeCode,
		"tree/claude/projects/-home-dev-app/c5e0a3f1-8d2b-4e6a-b1c9-0a7f3e2d1b40/subagents/agent-a91f.jsonl": FormatClaudeCode,
		"tree/claude/settings.json": "",
		"tree/codex/sessions/2025/11/03/rollout-2025-11-03T10-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl": FormatCodex,
		"tree/notes.md":             "",
		"vcr/anthropic-parsed.yaml": FormatVCR,
		"vcr/openai-tools.yaml":     FormatVCR,
	}
	root := filepath.Join("..", "..", "testdata", "transcripts")
	seen := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		w, ok := want[rel]
		if !ok {
			t.Errorf("%s: a sample with no expected format in this table", rel)
			return nil
		}
		seen++
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, derr := Detect(data)
		if got != w || (w == "") != (derr != nil) {
			t.Errorf("%s: Detect = %q, %v; want %q", rel, got, derr, w)
		}
		if w != FormatVCR {
			if ref := refDetect(data); ref != got {
				t.Errorf("%s: Detect = %q, the reference rules %q", rel, got, ref)
			}
		}
		checkExclusive(t, rel, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("read %d samples, the table lists %d", seen, len(want))
	}
}

// checkExclusive fails when two formats' sniffs claim data: its first
// line (line sniffs) or the whole of it (document sniffs).
func checkExclusive(t *testing.T, name string, data []byte) {
	t.Helper()
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(first), &obj) == nil && obj != nil {
		var claim []string
		for _, f := range formats {
			if f.line != nil && f.line(obj) {
				claim = append(claim, string(f.name))
			}
		}
		if len(claim) > 1 {
			t.Errorf("%s: line sniffs of %s all claim the first line", name, strings.Join(claim, ", "))
		}
	}
	if p := probeDocument(bytes.TrimSpace(data)); p != nil {
		var claim []string
		for _, f := range formats {
			if f.doc != nil && f.doc(p) {
				claim = append(claim, string(f.name))
			}
		}
		if len(claim) > 1 {
			t.Errorf("%s: document sniffs of %s all claim it", name, strings.Join(claim, ", "))
		}
	}
}

// FuzzDetect checks the table-driven detection against the reference
// rules, and the sniffs' exclusivity, on any input.
func FuzzDetect(f *testing.F) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".yaml") {
			if data, err := os.ReadFile(path); err == nil && len(data) < 64<<10 {
				f.Add(data)
			}
		}
		return nil
	})
	f.Add([]byte(`{"type":"user","sessionId":"s","uuid":"u","payload":{},"role":"user"}`))
	f.Add([]byte(`[{"conversations":[],"source":"x","action":"y","parts":[],"role":"user"}]`))
	f.Add([]byte(`{"log":{"entries":[]},"conversations":[],"history":[],"info":{},"messages":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if isVCR(data) {
			return
		}
		got, _ := Detect(data)
		if ref := refDetect(data); got != ref {
			t.Fatalf("Detect = %q, the reference rules %q", got, ref)
		}
		checkExclusive(t, "input", data)
		checkKeys(t, "input", data)
	})
}
