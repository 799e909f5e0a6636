package main

// Samples for issue 32's detection and broken-line items:
//
//   - detect/claude-code-2.1.177.jsonl: a Claude Code 2.1.177 session, which
//     opens with "last-prompt", "mode" and "permission-mode" records (no
//     uuid, nothing that says Claude Code) and writes "ai-title",
//     "attachment", "custom-title", "agent-name", "queue-operation",
//     "file-history-snapshot" and "progress" records between its
//     messages, the first three again every few records. Two responses
//     on claude-sonnet-4-5 (input/cache read/5-minute write/output):
//     3/0/2000/20 and 2/2000/100/30;
//   - cut-line/<format>.jsonl: a session of each JSON Lines harness
//     format (claude-code, codex, gemini-cli, copilot-cli) whose third
//     line was cut at half its bytes and ended with a newline (a crash, a
//     disk full, a copy cut short), then the rest of the file. Each is
//     the sample of the same seed written whole elsewhere
//     (claude-code/quirks-thinking.jsonl, codex/quirks.jsonl,
//     gemini-cli/session.jsonl, copilot-cli/events.jsonl), whose third
//     line records no usage: the cut file bills what the whole one does.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

func claudeCode177(g *gen) []rec {
	session := g.uuid()
	parent := ""
	base := func(typ string) rec {
		r := rec{"parentUuid": nilIfEmpty(parent), "isSidechain": false, "userType": "external",
			"cwd": "/src/app", "sessionId": session, "version": "2.1.177", "gitBranch": "main",
			"type": typ, "uuid": g.uuid(), "timestamp": g.stamp(time.Second)}
		parent = r["uuid"].(string)
		return r
	}
	usage := func(in, read, write, out int) rec {
		return rec{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write,
			"cache_creation": rec{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
			"output_tokens":  out, "service_tier": "standard"}
	}
	assistant := func(text string, u rec) rec {
		a := base("assistant")
		a["message"] = rec{"model": "claude-sonnet-4-5-20250929", "id": "msg_01" + g.hex(22), "type": "message",
			"role": "assistant", "content": []rec{{"type": "text", "text": text}}, "stop_reason": "end_turn",
			"stop_sequence": nil, "usage": u}
		a["requestId"] = "req_011C" + g.hex(18)
		return a
	}
	opening := func(leaf string) []rec {
		return []rec{
			{"type": "last-prompt", "lastPrompt": "Fix " + g.text(3), "leafUuid": nilIfEmpty(leaf), "sessionId": session},
			{"type": "mode", "mode": "normal", "sessionId": session},
			{"type": "permission-mode", "permissionMode": "default", "sessionId": session},
		}
	}
	out := opening("")
	u1 := base("user")
	u1["message"] = rec{"role": "user", "content": "Fix " + g.text(6) + "."}
	out = append(out, u1, rec{"type": "ai-title", "aiTitle": "Fix the " + g.text(2), "sessionId": session})
	att := base("attachment")
	att["attachment"] = rec{"type": "hook_success", "hookName": "SessionStart:startup", "content": ""}
	out = append(out, att, assistant("The "+g.text(8)+".", usage(3, 0, 2000, 20)))
	out = append(out,
		rec{"type": "custom-title", "customTitle": "config fix", "sessionId": session},
		rec{"type": "agent-name", "agentName": "main", "sessionId": session},
		rec{"type": "queue-operation", "operation": "enqueue", "timestamp": g.stamp(time.Second), "sessionId": session, "content": "and the test"},
		rec{"type": "file-history-snapshot", "messageId": g.uuid(), "snapshot": rec{"messageId": g.uuid(), "trackedFileBackups": rec{}, "timestamp": g.stamp(0)}, "isSnapshotUpdate": false})
	p := base("progress")
	p["data"] = rec{"type": "hook_progress", "hookEvent": "UserPromptSubmit"}
	p["toolUseID"], p["parentToolUseID"] = "toolu_01"+g.hex(22), "toolu_01"+g.hex(22)
	u2 := base("user")
	u2["message"] = rec{"role": "user", "content": "And " + g.text(4) + "?"}
	a2 := assistant("Yes, "+g.text(5)+".", usage(2, 2000, 100, 30))
	out = append(out, p, u2, a2)
	return append(out, opening(a2["uuid"].(string))...)
}

// writeDetect writes the samples above under dir.
func writeDetect(dir string, mk func(uint64) *gen) error {
	if err := write(filepath.Join(dir, "detect", "claude-code-2.1.177.jsonl"), claudeCode177(mk(3201)), true); err != nil {
		return err
	}
	// Written as their whole samples are: Go's encoding, or JavaScript's
	// ("<" as is) for the harnesses of harnesses.go.
	cut := []struct {
		name string
		recs []rec
		js   bool
	}{
		{"claude-code", claudeCodeThinking(mk(4)), false},
		{"codex", codex(mk(2)), false},
		{"gemini-cli", geminiJSONL(mk(6)), true},
		{"copilot-cli", copilot(mk(7)), true},
	}
	for _, c := range cut {
		var buf bytes.Buffer
		for i, r := range c.recs {
			var line bytes.Buffer
			enc := json.NewEncoder(&line)
			enc.SetEscapeHTML(!c.js)
			if err := enc.Encode(r); err != nil {
				return err
			}
			b := bytes.TrimSuffix(line.Bytes(), []byte("\n"))
			if i == 2 {
				b = b[:len(b)/2]
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
		if err := writeFile(filepath.Join(dir, "cut-line", c.name+".jsonl"), buf.Bytes()); err != nil {
			return fmt.Errorf("cut-line/%s: %w", c.name, err)
		}
	}
	return nil
}

// claudeCodeFast is claude-code/quirks-fast.jsonl: a Claude Code 2.1.181
// session on Opus 4.8 whose responses were served in Anthropic's fast mode
// (each record's usage says "speed": "fast", beside "service_tier":
// "standard", "inference_geo" and the per-iteration usage), writing 1-hour
// cache entries. Two responses (input/cache read/1-hour write/output):
// 6/0/3000/40, the first written as two records (thinking, then text)
// with the same usage, and 2/3000/200/60; then one in standard speed,
// 1/3200/0/10.
func claudeCodeFast(g *gen) []rec {
	session := g.uuid()
	parent := ""
	base := func(typ string) rec {
		r := rec{"parentUuid": nilIfEmpty(parent), "isSidechain": false, "userType": "external",
			"entrypoint": "cli", "cwd": "/src/app", "sessionId": session, "version": "2.1.181",
			"gitBranch": "main", "type": typ, "uuid": g.uuid(), "timestamp": g.stamp(2 * time.Second)}
		parent = r["uuid"].(string)
		return r
	}
	usage := func(in, read, write, out int, speed string) rec {
		cc := rec{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write}
		return rec{"input_tokens": in, "cache_creation_input_tokens": write, "cache_read_input_tokens": read,
			"output_tokens":   out,
			"server_tool_use": rec{"web_search_requests": 0, "web_fetch_requests": 0},
			"service_tier":    "standard", "cache_creation": cc, "inference_geo": "not_available",
			"iterations": []rec{{"input_tokens": in, "output_tokens": out, "cache_read_input_tokens": read,
				"cache_creation_input_tokens": write, "cache_creation": cc, "type": "message"}},
			"speed": speed}
	}
	response := func(blocks []rec, u rec) []rec {
		id, req := "msg_01"+g.hex(22), "req_011C"+g.hex(18)
		var out []rec
		for i, b := range blocks {
			a := base("assistant")
			stop := any(nil)
			if i == len(blocks)-1 {
				stop = "end_turn"
			}
			a["message"] = rec{"model": "claude-opus-4-8", "id": id, "type": "message", "role": "assistant",
				"content": []rec{b}, "stop_reason": stop, "stop_sequence": nil, "usage": u}
			a["requestId"] = req
			out = append(out, a)
		}
		return out
	}
	user := func(text string) rec {
		u := base("user")
		u["message"] = rec{"role": "user", "content": text}
		return u
	}
	out := []rec{{"type": "last-prompt", "lastPrompt": "Fix " + g.text(3), "leafUuid": nil, "sessionId": session}}
	out = append(out, user("Fix "+g.text(6)+"."))
	out = append(out, response([]rec{
		{"type": "thinking", "thinking": g.text(12), "signature": g.hex(40)},
		{"type": "text", "text": "The " + g.text(8) + "."},
	}, usage(6, 0, 3000, 40, "fast"))...)
	out = append(out, user("And "+g.text(4)+"?"))
	out = append(out, response([]rec{{"type": "text", "text": "Yes, " + g.text(10) + "."}}, usage(2, 3000, 200, 60, "fast"))...)
	out = append(out, rec{"type": "mode", "mode": "normal", "sessionId": session})
	out = append(out, user("Thanks, "+g.text(2)+"."))
	out = append(out, response([]rec{{"type": "text", "text": "Done."}}, usage(1, 3200, 0, 10, "standard"))...)
	return out
}
