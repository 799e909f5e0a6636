package transcript

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestRegistryKeySets: the keys the pre-check of an input wants
// ([mayBeTranscript]), gathered from every format's value, are the ones
// the sniffer listed by hand before each format carried its own, and so
// are the file name endings a walk reads.
func TestRegistryKeySets(t *testing.T) {
	// As sniff.go and internal/inputs listed them at ce6454f.
	wantStart := []string{"log", "conversations", "history", "conversation", "contents", "input", "messages",
		"type", "payload", "role", "call_id", "sessionId", "uuid", "parentUuid", "message"}
	wantElement := []string{"conversations", "source", "conversation", "parts", "type", "role"}
	wantExts := []string{".jsonl", ".ndjson", ".json", ".traj", ".yaml", ".yml", ".har"}
	keysOf := func(m map[string]bool) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return ks
	}
	sorted := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }
	if got, want := keysOf(startKeys), sorted(wantStart); !slices.Equal(got, want) {
		t.Errorf("start keys %q, want %q", got, want)
	}
	if got, want := keysOf(elementKeys), sorted(wantElement); !slices.Equal(got, want) {
		t.Errorf("element keys %q, want %q", got, want)
	}
	if got := Extensions(); !slices.Equal(got, wantExts) {
		t.Errorf("Extensions() = %q, want %q", got, wantExts)
	}
}

// TestRegistryValues: every format in the list has a name, says what it
// is, comes in some file name ending and can be read, and is listed once.
func TestRegistryValues(t *testing.T) {
	seen := map[Format]bool{}
	for _, f := range formats {
		if f.name == "" || seen[f.name] {
			t.Errorf("format %q: empty or listed twice", f.name)
		}
		seen[f.name] = true
		if f.about.harness == "" || f.about.files == "" {
			t.Errorf("%s: no about", f.name)
		}
		if len(f.exts) == 0 {
			t.Errorf("%s: no file name endings", f.name)
		}
		if f.lines == nil && f.document == nil && f.stream == nil && f.readText == nil {
			t.Errorf("%s: no reader", f.name)
		}
		if (f.text == nil) != (f.readText == nil) {
			t.Errorf("%s: a text format needs both its sniff and its reader", f.name)
		}
		if (f.line != nil || f.doc != nil) && len(f.keys)+len(f.itemKeys) == 0 {
			t.Errorf("%s: sniffs JSON but names no key", f.name)
		}
	}
}

// checkKeys fails when a format's sniff claims data's first line or its
// first document while that value has none of the format's keys (an
// object) or item keys (an array's first element): the pre-check would
// then refuse an input the format reads.
func checkKeys(t *testing.T, name string, data []byte) {
	t.Helper()
	has := func(obj map[string]json.RawMessage, keys []string) bool {
		for _, k := range keys {
			if _, ok := obj[k]; ok {
				return true
			}
		}
		return false
	}
	first, _, _ := bytes.Cut(bytes.TrimLeft(data, " \t\r\n"), []byte("\n"))
	var obj map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimSpace(first), &obj) == nil && obj != nil {
		for _, f := range formats {
			if f.line != nil && f.line(obj) && !has(obj, f.keys) {
				t.Errorf("%s: %s's line sniff claims the first line, which has none of its keys %q", name, f.name, f.keys)
			}
		}
	}
	v := bytes.TrimSpace(data)
	p := probeDocument(v)
	if p == nil || p.empty {
		return
	}
	var top map[string]json.RawMessage
	if p.array {
		var elems []json.RawMessage
		if json.Unmarshal(v, &elems) != nil || len(elems) == 0 || json.Unmarshal(elems[0], &top) != nil {
			return
		}
	} else if json.Unmarshal(v, &top) != nil {
		return
	}
	for _, f := range formats {
		if f.doc == nil || !f.doc(p) {
			continue
		}
		keys := f.keys
		if p.array {
			keys = f.itemKeys
		}
		if !has(top, keys) {
			t.Errorf("%s: %s's document sniff claims it, but it has none of the keys %q", name, f.name, keys)
		}
	}
}

// TestRegistrySamples: each sample's format names the sample's file name
// ending, and the keys of the value its sniff claims.
func TestRegistrySamples(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "transcripts")
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got, err := Detect(data)
		if err != nil {
			return nil
		}
		n++
		f := formatOf(got)
		if !slices.ContainsFunc(f.exts, func(e string) bool { return strings.HasSuffix(path, e) }) {
			t.Errorf("%s: read as %s, whose endings %q do not name it", path, got, f.exts)
		}
		checkKeys(t, path, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Errorf("only %d samples detected", n)
	}
}

// TestLayoutFormat: the harness whose layout a path follows, from the
// formats' own path shapes (as internal/inputs told them at ce6454f).
func TestLayoutFormat(t *testing.T) {
	tests := []struct {
		name, path string
		want       Format
	}{
		{"claude code session", "/home/u/.claude/projects/-home-u-app/5f1c2e.jsonl", FormatClaudeCode},
		{"claude code subagent", "/home/u/.claude/projects/-home-u-app/5f1c2e/subagents/agent-a1b2.jsonl", FormatClaudeCode},
		{"subagent file not an agent's", "/home/u/x/subagents/notes.jsonl", ""},
		{"codex rollout", "/home/u/.codex/sessions/2025/11/03/rollout-2025-11-03T10-00-00-0199.jsonl", FormatCodex},
		{"codex rollout, bad month", "/home/u/.codex/sessions/2025/1/03/rollout-x.jsonl", ""},
		{"gemini cli json", "/home/u/.gemini/tmp/ab12/chats/session-2026-01-01T10-00-x.json", FormatGeminiCLI},
		{"gemini cli jsonl", "/home/u/.gemini/tmp/ab12/chats/session-2026-01-01T10-00-x.jsonl", FormatGeminiCLI},
		{"gemini cli, not a session", "/home/u/.gemini/tmp/ab12/chats/logs.json", ""},
		// Both shapes: Claude Code's was tried first, and is still.
		{"a project hash named projects", "/home/u/.gemini/tmp/projects/chats/session-x.jsonl", FormatClaudeCode},
		{"copilot cli", "/home/u/.copilot/session-state/0199-ab/events.jsonl", FormatCopilotCLI},
		{"copilot cli, other file", "/home/u/.copilot/session-state/0199-ab/workspace.yaml", ""},
		{"windows slashes", `C:\Users\u\.claude\projects\C--app\s.jsonl`, ""},
		{"other file", "/tmp/chat.jsonl", ""},
		{"not jsonl under projects", "/home/u/.claude/projects/-home-u-app/notes.txt", ""},
		{"one part", "s.jsonl", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LayoutFormat(tt.path); got != tt.want {
				t.Errorf("LayoutFormat(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}
