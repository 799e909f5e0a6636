package main

// The harnesses read since issue 32, in the layout and with the quirks
// their own sources write (docs/transcripts.md names the sources and
// dates):
//
//   - gemini-cli/session.jsonl: a Gemini CLI session in its JSON Lines
//     shape (0.39 and later): a header line, the session context set as
//     the first message ($set of messages), message records written
//     again in full as a reply's tool call and tokens arrive, an info
//     record, a {"$rewindTo": id} line that drops a prompt and its reply
//     (billed all the same), and a {"$set": …} metadata patch;
//   - opencode/export.json: an OpenCode session as `opencode export`
//     writes it: {info, messages: [{info, parts}]}, an assistant message
//     of two steps (reasoning, text, tool parts, each step closed by a
//     step-finish with its tokens), a tool that failed, a prompt with a
//     synthetic text part and an image, and a reply whose steps recorded
//     no tokens (its message's own tokens stand);
//   - copilot-cli/events.jsonl: a GitHub Copilot CLI event log: session
//     start, model change, prompts, replies with tool requests and
//     outputTokens, tool executions, a session.shutdown with the
//     session's usage per model, then a resumed run with no shutdown.
//
// Their usage figures are fixed too (testdata/script/harness_*.txtar work
// them out by hand).

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"time"
)

// june sets the clock to June 2026, when these layouts were current, at
// a seeded minute.
func (g *gen) june() {
	g.at = time.Date(2026, 6, 10, 9, 0, 0, 0, time.UTC).Add(time.Duration(g.r.IntN(3600)) * time.Second)
}

// tokens is a Gemini CLI tokens summary: input includes cached.
func tokens(input, output, cached, thoughts int) rec {
	return rec{"input": input, "output": output, "cached": cached, "thoughts": thoughts, "tool": 0,
		"total": input + output + thoughts}
}

// geminiJSONL: gemini-2.5-flash. Replies (input/cached/output+thoughts):
// g1 10000/0/200+50 (written twice: first with its call, no tokens), g2
// 10600/9800/80+20 (rewound with its prompt), g3 10400/9900/60+0.
func geminiJSONL(g *gen) []rec {
	g.june()
	sid := g.uuid()
	out := []rec{{"sessionId": sid, "projectHash": g.hex(64), "startTime": g.stamp(0), "lastUpdated": g.stamp(0), "kind": "main"}}
	// Gemini CLI then sets the messages to the context it sends first.
	ctx := rec{"id": "d04923d38bb0f6017037e74183378ef4", "timestamp": g.stamp(0), "type": "user", "content": []rec{{"text": "<session_context>\nThis is the Gemini CLI. We are setting up the context for our chat.\nMy operating system is: linux\n- **Workspace Directories:**\n  - /src/app\n</session_context>"}}}
	out = append(out, rec{"$set": rec{"messages": []rec{ctx}, "lastUpdated": g.at.UTC().Format("2006-01-02T15:04:05.000Z")}})
	u1 := rec{"id": g.uuid(), "timestamp": g.stamp(time.Second), "type": "user", "content": []rec{{"text": "Fix " + g.text(5) + "."}}}
	out = append(out, rec{"id": g.uuid(), "timestamp": g.stamp(0), "type": "info", "content": "Loaded cached credentials."}, u1)
	gid, callID := g.uuid(), "read_file_"+g.hex(12)
	call := rec{"id": callID, "name": "read_file", "args": rec{"absolute_path": "/src/app/config.go"},
		"status": "executing", "timestamp": g.stamp(3 * time.Second), "displayName": "ReadFile", "renderOutputAsMarkdown": true}
	g1 := rec{"id": gid, "timestamp": g.stamp(0), "type": "gemini", "content": "", "model": "gemini-2.5-flash",
		"thoughts": []rec{{"subject": "Reading", "description": g.text(6), "timestamp": g.stamp(0)}}, "toolCalls": []rec{call}}
	out = append(out, g1)
	done := rec{}
	for k, v := range call {
		done[k] = v
	}
	done["status"] = "success"
	done["result"] = []rec{{"functionResponse": rec{"id": callID, "name": "read_file", "response": rec{"output": "package app // " + g.text(8)}}}}
	g1b := rec{}
	for k, v := range g1 {
		g1b[k] = v
	}
	g1b["toolCalls"] = []rec{done}
	g1b["tokens"] = tokens(10000, 200, 0, 50)
	out = append(out, g1b)
	u2 := rec{"id": g.uuid(), "timestamp": g.stamp(9 * time.Second), "type": "user", "content": []rec{{"text": "Now " + g.text(4) + "."}}}
	g2 := rec{"id": g.uuid(), "timestamp": g.stamp(4 * time.Second), "type": "gemini", "content": "It " + g.text(6) + ".",
		"model": "gemini-2.5-flash", "tokens": tokens(10600, 80, 9800, 20)}
	out = append(out, u2, g2, rec{"$rewindTo": u2["id"]})
	u3 := rec{"id": g.uuid(), "timestamp": g.stamp(20 * time.Second), "type": "user", "content": []rec{{"text": "Instead " + g.text(4) + "."}}}
	g3 := rec{"id": g.uuid(), "timestamp": g.stamp(3 * time.Second), "type": "gemini", "content": "Done: " + g.text(5) + ".",
		"model": "gemini-2.5-flash", "tokens": tokens(10400, 60, 9900, 0)}
	out = append(out, u3, g3, rec{"$set": rec{"lastUpdated": g.stamp(0), "summary": "Fix the config"}})
	return out
}

// copilot: replies on claude-sonnet-4.5 with outputTokens 120, 40, 75;
// the shutdown records claude-sonnet-4.5 input 30000 (cache read 24000,
// write 3000), output 235 (the three replies and one whose message was
// not kept), and gpt-5-mini input 1500 (cache read 0), output 20; then a
// resumed run: one reply of 55 output tokens and no shutdown.
func copilot(g *gen) []rec {
	g.june()
	sid := g.uuid()
	var out []rec
	parent := any(nil)
	ev := func(typ string, d time.Duration, data rec) {
		id := g.uuid()
		out = append(out, rec{"type": typ, "data": data, "id": id, "timestamp": g.stamp(d), "parentId": parent})
		parent = id
	}
	ev("session.start", 0, rec{"sessionId": sid, "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.64",
		"startTime": g.at.UTC().Format("2006-01-02T15:04:05.000Z"), "context": rec{"cwd": "/src/app", "gitRoot": "/src/app", "branch": "main", "repository": "example/app"}})
	ev("session.model_change", time.Second, rec{"newModel": "claude-sonnet-4.5"})
	ev("session.info", 0, rec{"infoType": "folder_trust", "message": "Folder /src/app has been added to trusted folders."})
	ev("user.message", 5*time.Second, rec{"content": "Why " + g.text(6) + "?", "transformedContent": "<current_datetime>…</current_datetime>\n\nWhy?", "attachments": []any{}, "interactionId": g.uuid()})
	ev("assistant.turn_start", 0, rec{"turnId": "0", "interactionId": g.uuid()})
	call := "toolu_" + g.hex(20)
	ev("assistant.message", 4*time.Second, rec{"messageId": g.uuid(), "content": "Let me look at " + g.text(3) + ".",
		"toolRequests": []rec{{"toolCallId": call, "name": "view", "arguments": rec{"path": "/src/app/main.go"}, "type": "function"}},
		"outputTokens": 120, "interactionId": g.uuid()})
	ev("tool.execution_start", 0, rec{"toolCallId": call, "toolName": "view", "arguments": rec{"path": "/src/app/main.go"}})
	ev("tool.execution_complete", time.Second, rec{"toolCallId": call, "success": true,
		"result": rec{"content": "package main // " + g.text(8), "detailedContent": "package main"}, "toolTelemetry": rec{}})
	ev("assistant.message", 3*time.Second, rec{"messageId": g.uuid(), "content": "It " + g.text(6) + ".", "toolRequests": []any{}, "outputTokens": 40})
	ev("assistant.turn_end", 0, rec{"turnId": "0"})
	ev("user.message", 8*time.Second, rec{"content": "Thanks, " + g.text(3) + ".", "attachments": []any{}})
	ev("assistant.turn_start", 0, rec{"turnId": "1"})
	ev("assistant.message", 2*time.Second, rec{"messageId": g.uuid(), "content": g.text(5) + ".", "toolRequests": []any{}, "outputTokens": 75})
	ev("assistant.turn_end", 0, rec{"turnId": "1"})
	ev("session.shutdown", 30*time.Second, rec{"shutdownType": "routine", "totalPremiumRequests": 2, "totalApiDurationMs": 9120,
		"sessionStartTime": g.at.Add(-54 * time.Second).UnixMilli(), "codeChanges": rec{"linesAdded": 0, "linesRemoved": 0, "filesModified": []any{}},
		"modelMetrics": rec{
			"gpt-5-mini":        rec{"requests": rec{"count": 1, "cost": 0}, "usage": rec{"inputTokens": 1500, "outputTokens": 20, "cacheReadTokens": 0, "cacheWriteTokens": 0}},
			"claude-sonnet-4.5": rec{"requests": rec{"count": 4, "cost": 1}, "usage": rec{"inputTokens": 30000, "outputTokens": 235, "cacheReadTokens": 24000, "cacheWriteTokens": 3000}},
		}, "currentModel": "claude-sonnet-4.5"})
	ev("session.resume", time.Hour, rec{"resumeTime": g.at.UTC().Format("2006-01-02T15:04:05.000Z"), "eventCount": len(out)})
	ev("user.message", 6*time.Second, rec{"content": "And " + g.text(4) + "?", "attachments": []any{}})
	ev("assistant.message", 3*time.Second, rec{"messageId": g.uuid(), "content": g.text(6) + ".", "toolRequests": []any{}, "outputTokens": 55})
	return out
}

// openCode: claude-sonnet-4-5. Steps (input/read/write/output+reasoning):
// reply 1 step 1 12/0/9000/40+25, step 2 30/9000/400/60+0; reply 2 (its
// message's tokens) 8/9400/160/20+0.
func openCode(g *gen) rec {
	g.june()
	sid := "ses_" + g.hex(12) + "ffe" + g.hex(11)
	ms := func() int64 { return g.at.UnixMilli() }
	id := func(prefix string) string { return prefix + g.hex(12) + "001" + g.hex(11) }
	tok := func(in, out, reasoning, read, write int) rec {
		return rec{"total": in + out + reasoning + read + write, "input": in, "output": out, "reasoning": reasoning,
			"cache": rec{"read": read, "write": write}}
	}
	part := func(msg string, p rec) rec {
		p["id"], p["sessionID"], p["messageID"] = id("prt_"), sid, msg
		return p
	}
	created := ms()
	var msgs []any
	user := func(parts ...rec) string {
		mid := id("msg_")
		g.stamp(20 * time.Second)
		info := rec{"id": mid, "sessionID": sid, "role": "user", "time": rec{"created": ms()}, "agent": "build",
			"model": rec{"providerID": "anthropic", "modelID": "claude-sonnet-4-5"}}
		ps := []any{}
		for _, p := range parts {
			ps = append(ps, part(mid, p))
		}
		msgs = append(msgs, rec{"info": info, "parts": ps})
		return mid
	}
	assistant := func(parent string, tokens rec, cost float64, parts ...rec) {
		mid := id("msg_")
		start := ms() + 1000
		g.stamp(15 * time.Second)
		info := rec{"id": mid, "sessionID": sid, "role": "assistant", "time": rec{"created": start, "completed": ms()},
			"parentID": parent, "modelID": "claude-sonnet-4-5", "providerID": "anthropic", "mode": "build", "agent": "build",
			"path": rec{"cwd": "/src/app", "root": "/src/app"}, "cost": cost, "tokens": tokens, "finish": "stop"}
		ps := []any{}
		for _, p := range parts {
			ps = append(ps, part(mid, p))
		}
		msgs = append(msgs, rec{"info": info, "parts": ps})
	}
	u1 := user(rec{"type": "text", "text": "Fix " + g.text(6) + "."})
	read, edit := "toolu_"+g.hex(20), "toolu_"+g.hex(20)
	assistant(u1, tok(42, 100, 25, 9000, 9400), 0.0409,
		rec{"type": "step-start", "snapshot": g.hex(40)},
		rec{"type": "reasoning", "text": g.text(9), "time": rec{"start": ms(), "end": ms()}},
		rec{"type": "text", "text": "Let me read " + g.text(3) + ".", "time": rec{"start": ms(), "end": ms()}},
		rec{"type": "tool", "callID": read, "tool": "read", "state": rec{"status": "completed", "input": rec{"filePath": "/src/app/config.go"},
			"output": "<file>\n00001| package app // " + g.text(6) + "\n</file>", "title": "config.go", "metadata": rec{}, "time": rec{"start": ms(), "end": ms()}}},
		rec{"type": "step-finish", "reason": "tool-calls", "snapshot": g.hex(40), "cost": 0.0349, "tokens": tok(12, 40, 25, 0, 9000)},
		rec{"type": "step-start", "snapshot": g.hex(40)},
		rec{"type": "text", "text": "Now " + g.text(4) + ".", "time": rec{"start": ms(), "end": ms()}},
		rec{"type": "tool", "callID": edit, "tool": "edit", "state": rec{"status": "error", "input": rec{"filePath": "/src/app/config.go", "oldString": "a", "newString": "b"},
			"error": "File /src/app/config.go has been modified since it was last read.", "time": rec{"start": ms(), "end": ms()}}},
		rec{"type": "step-finish", "reason": "stop", "snapshot": g.hex(40), "cost": 0.006, "tokens": tok(30, 60, 0, 9000, 400)},
		rec{"type": "patch", "hash": g.hex(40), "files": []any{}},
	)
	u2 := user(rec{"type": "text", "text": "Look at this screenshot: " + g.text(3) + "."},
		rec{"type": "text", "synthetic": true, "text": "Called the Read tool with the following input: {\"filePath\":\"/src/app/shot.png\"}"},
		rec{"type": "file", "mime": "image/png", "filename": "shot.png", "url": "file:///src/app/shot.png"})
	assistant(u2, tok(8, 20, 0, 9400, 160), 0.0037,
		rec{"type": "step-start"},
		rec{"type": "text", "text": "The " + g.text(5) + ".", "time": rec{"start": ms(), "end": ms()}},
		rec{"type": "step-finish", "reason": "stop", "cost": 0.0037},
	)
	return rec{"info": rec{"id": sid, "version": "0.15.8", "projectID": g.hex(40), "directory": "/src/app", "title": "Fix the config",
		"time": rec{"created": created, "updated": ms()}}, "messages": msgs}
}

// writeHarnesses writes the three samples, as JavaScript writes JSON
// ("<" as is): the JSON Lines one record a line, the export indented.
func writeHarnesses(dir string, mk func(uint64) *gen) error {
	lines := []struct {
		path string
		recs []rec
	}{
		{"gemini-cli/session.jsonl", geminiJSONL(mk(6))},
		{"copilot-cli/events.jsonl", copilot(mk(7))},
	}
	for _, f := range lines {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		for _, r := range f.recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		if err := writeFile(filepath.Join(dir, f.path), buf.Bytes()); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(openCode(mk(8))); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, "opencode", "export.json"), buf.Bytes())
}

func writeFile(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
