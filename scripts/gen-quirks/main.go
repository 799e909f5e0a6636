// Command gen-quirks writes small sessions that reproduce, in their field
// layout, the quirks seen in real public Claude Code, Codex and Gemini CLI
// logs (docs/real-sessions.md lists them). The usage figures are fixed, so
// that the testscripts (testdata/script/real_*.txtar) can work them out by
// hand; the seed only chooses ids, the start time and the words:
//
//	go run ./scripts/gen-quirks -seed 21 -dir testdata/transcripts
//
// writes claude-code/quirks.jsonl, claude-code/quirks-thinking.jsonl,
// claude-code/quirks-joined.jsonl, claude-code/quirks-compacted.jsonl,
// claude-code/quirks-fast.jsonl, codex/quirks.jsonl,
// codex/quirks-counted.jsonl, codex/quirks-tool-search.jsonl,
// codex/quirks-unpriced.jsonl and gemini-cli/quirks.jsonl, and the samples
// of the harnesses read since issue 32 (harnesses.go):
// gemini-cli/session.jsonl, copilot-cli/events.jsonl and
// opencode/export.json, and those of detection past unknown records and
// of broken lines (detect.go): detect/claude-code-2.1.177.jsonl and
// cut-line/*.jsonl (the same flags always give the same files).
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

var words = strings.Fields("the build fails on a line of the config file while the test of the replay " +
	"package reads the window and writes a summary of every token budget path module error")

type rec = map[string]any

type gen struct {
	r  *rand.Rand
	at time.Time
}

func (g *gen) text(n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = words[g.r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

func (g *gen) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[g.r.IntN(16)]
	}
	return string(b)
}

func (g *gen) uuid() string {
	return g.hex(8) + "-" + g.hex(4) + "-4" + g.hex(3) + "-8" + g.hex(3) + "-" + g.hex(12)
}

// stamp advances the clock by d and returns it as Claude Code writes it.
func (g *gen) stamp(d time.Duration) string {
	g.at = g.at.Add(d)
	return g.at.UTC().Format("2006-01-02T15:04:05.000Z")
}

// joined marks a record written with no newline after it, so that the
// next record shares its line.
const joined = "\x00joined"

func write(path string, recs []rec, lines bool) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if lines {
		for _, r := range recs {
			_, join := r[joined]
			delete(r, joined)
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			w.Write(b)
			if !join {
				w.WriteByte('\n')
			}
		}
	} else {
		b, err := json.MarshalIndent(recs[0], "", "  ")
		if err != nil {
			return err
		}
		w.Write(b)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// claudeCode: first-party Anthropic, claude-sonnet-4-5, three responses.
//   - the first call reads 4,000 tokens from a cache an earlier session
//     wrote (the same system prompt and tools): a read no model of this
//     session alone predicts;
//   - every cache write is a 1-hour write (cache_creation splits it);
//   - response 1 is streamed as two records (text, then tool_use) whose
//     output grows from 5 to 120: the last record holds the bill;
//   - a progress record quotes a subagent's response with its usage,
//     which the subagent's own file bills: it must not count here;
//   - response 3 comes 15 minutes after response 2: past a 5-minute TTL,
//     inside a 1-hour one, and the record reads the cache.
func claudeCode(g *gen) []rec {
	session := g.uuid()
	base := func(typ, parent string) rec {
		return rec{"parentUuid": nilIfEmpty(parent), "isSidechain": false, "userType": "external",
			"cwd": "/src/quirks", "sessionId": session, "version": "2.1.39", "gitBranch": "main",
			"type": typ, "uuid": g.uuid()}
	}
	usage := func(in, read, write, out int) rec {
		return rec{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write,
			"cache_creation": rec{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write},
			"output_tokens":  out, "service_tier": "standard"}
	}
	msg := func(id string, content []rec, u rec, stop any) rec {
		return rec{"model": "claude-sonnet-4-5-20250929", "id": id, "type": "message", "role": "assistant",
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": u}
	}
	var out []rec
	user := base("user", "")
	user["message"] = rec{"role": "user", "content": "Why does " + g.text(6) + "?"}
	user["timestamp"] = g.stamp(0)
	out = append(out, user)

	id1, req1, tool := "msg_01"+g.hex(22), "req_011C"+g.hex(18), "toolu_01"+g.hex(22)
	a := base("assistant", user["uuid"].(string))
	a["message"] = msg(id1, []rec{{"type": "text", "text": "Reading the " + g.text(3) + "."}}, usage(3, 4000, 2000, 5), nil)
	a["requestId"], a["timestamp"] = req1, g.stamp(3*time.Second)
	out = append(out, a)
	b := base("assistant", a["uuid"].(string))
	b["message"] = msg(id1, []rec{{"type": "tool_use", "id": tool, "name": "Read",
		"input": rec{"file_path": "/src/quirks/" + g.hex(6) + ".go"}}}, usage(3, 4000, 2000, 120), "tool_use")
	b["requestId"], b["timestamp"] = req1, g.stamp(time.Second)
	out = append(out, b)

	p := base("progress", b["uuid"].(string))
	p["timestamp"] = g.stamp(time.Second)
	p["data"] = rec{"type": "agent_progress", "message": rec{"type": "assistant", "timestamp": p["timestamp"],
		"message": rec{"model": "claude-haiku-4-5-20251001", "id": "msg_01" + g.hex(22), "type": "message",
			"role": "assistant", "content": []rec{{"type": "text", "text": g.text(5)}},
			"usage": usage(1000, 0, 0, 500)}}}
	out = append(out, p)

	res := base("user", b["uuid"].(string))
	res["message"] = rec{"role": "user", "content": []rec{{"type": "tool_result", "tool_use_id": tool, "content": g.text(40)}}}
	res["timestamp"] = g.stamp(time.Second)
	out = append(out, res)

	c := base("assistant", res["uuid"].(string))
	c["message"] = msg("msg_01"+g.hex(22), []rec{{"type": "text", "text": "The " + g.text(8) + "."}}, usage(2, 6000, 300, 80), "end_turn")
	c["requestId"], c["timestamp"] = "req_011C"+g.hex(18), g.stamp(4*time.Second)
	out = append(out, c)

	u2 := base("user", c["uuid"].(string))
	u2["message"] = rec{"role": "user", "content": "And " + g.text(4) + "?"}
	u2["timestamp"] = g.stamp(15 * time.Minute)
	out = append(out, u2)

	d := base("assistant", u2["uuid"].(string))
	d["message"] = msg("msg_01"+g.hex(22), []rec{{"type": "text", "text": "Yes, " + g.text(5) + "."}}, usage(2, 6300, 200, 40), "end_turn")
	d["requestId"], d["timestamp"] = "req_011C"+g.hex(18), g.stamp(3*time.Second)
	out = append(out, d)
	return out
}

// claudeCodeThinking: a session saved while a response streamed, as real
// sessions checkpointed mid-response show: response 2's only record is
// its thinking block, with the usage of its prompt (output 1). The
// provider billed that prompt; no message holds it. 5-minute writes.
// Between the two, Claude Code's own "No response requested." stands in
// the assistant's place with model "<synthetic>" and zero usage.
func claudeCodeThinking(g *gen) []rec {
	session := g.uuid()
	base := func(typ string) rec {
		return rec{"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/src/quirks",
			"sessionId": session, "version": "2.1.29", "gitBranch": "main", "type": typ, "uuid": g.uuid()}
	}
	usage := func(in, read, write, out int) rec {
		return rec{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write,
			"cache_creation": rec{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
			"output_tokens":  out, "service_tier": "standard"}
	}
	assistant := func(content []rec, u rec, stop any, d time.Duration) rec {
		a := base("assistant")
		a["message"] = rec{"model": "claude-sonnet-4-5-20250929", "id": "msg_01" + g.hex(22), "type": "message",
			"role": "assistant", "content": content, "stop_reason": stop, "stop_sequence": nil, "usage": u}
		a["requestId"], a["timestamp"] = "req_011C"+g.hex(18), g.stamp(d)
		return a
	}
	u1 := base("user")
	u1["message"] = rec{"role": "user", "content": "What " + g.text(5) + "?"}
	u1["timestamp"] = g.stamp(0)
	a1 := assistant([]rec{{"type": "text", "text": "It " + g.text(6) + "."}}, usage(3, 0, 2000, 20), "end_turn", 3*time.Second)
	u2 := base("user")
	u2["message"] = rec{"role": "user", "content": "Why " + g.text(4) + "?"}
	u2["timestamp"] = g.stamp(30 * time.Second)
	a2 := assistant([]rec{{"type": "thinking", "thinking": "The " + g.text(8) + ".", "signature": g.hex(40)}},
		usage(2, 2000, 100, 1), nil, 2*time.Second)
	// Claude Code's own "No response requested." in the assistant's
	// place, with zero usage: no model call made it.
	syn := base("assistant")
	syn["message"] = rec{"model": "<synthetic>", "id": g.uuid(), "type": "message", "role": "assistant",
		"content": []rec{{"type": "text", "text": "No response requested."}}, "stop_reason": "stop_sequence",
		"stop_sequence": "", "usage": rec{"input_tokens": 0, "output_tokens": 0, "cache_creation_input_tokens": 0,
			"cache_read_input_tokens": 0}}
	syn["timestamp"] = g.stamp(time.Second)
	return []rec{u1, a1, syn, u2, a2}
}

// claudeCodeJoined: a session file whose last line had no newline when
// Claude Code appended to it again: a summary record shares the line of
// response 1. Response 1: input 3, write 2,000, output 20; response 2:
// input 2, read 2,000, write 50, output 10 (5-minute writes).
func claudeCodeJoined(g *gen) []rec {
	t := claudeCodeThinking(g)
	u1, a1, u2 := t[0], t[1], t[3]
	a1[joined] = true
	sum := rec{"type": "summary", "summary": "Why " + g.text(3), "leafUuid": a1["uuid"]}
	a2 := rec{}
	for k, v := range t[4] {
		a2[k] = v
	}
	m := rec{}
	for k, v := range a1["message"].(rec) {
		m[k] = v
	}
	m["id"] = "msg_01" + g.hex(22)
	m["content"] = []rec{{"type": "text", "text": "Because " + g.text(5) + "."}}
	m["usage"] = rec{"input_tokens": 2, "cache_read_input_tokens": 2000, "cache_creation_input_tokens": 50,
		"cache_creation": rec{"ephemeral_5m_input_tokens": 50, "ephemeral_1h_input_tokens": 0},
		"output_tokens":  10, "service_tier": "standard"}
	a2["message"] = m
	return []rec{u1, a1, sum, u2, a2}
}

// claudeCodeCompacted: a session that Claude Code compacted on its own
// (compact_boundary with trigger auto, then the isCompactSummary record),
// in the layout of the real 2.1.x sessions of docs/real-sessions.md, on
// claude-sonnet-4-5 with 5-minute writes. Fixed texts, so that the
// breakdown of each compaction segment can be worked out by hand
// (testdata/script/transcript_breakdown_segments.txtar):
//   - segment 1: a prompt; response 1 (two records sharing message.id:
//     text, then a Read call) with prompt 3 + 5,000 written; the result;
//     response 2 with prompt 2 + 5,000 read + 100 written;
//   - segment 2: the summary, a prompt, response 3 with prompt 4 + 4,000
//     read + 60 written.
func claudeCodeCompacted(g *gen) []rec {
	session := g.uuid()
	parent := ""
	base := func(typ string) rec {
		r := rec{"parentUuid": nilIfEmpty(parent), "isSidechain": false, "userType": "external",
			"cwd": "/src/quirks", "sessionId": session, "version": "2.1.17", "gitBranch": "main",
			"type": typ, "uuid": g.uuid()}
		parent = r["uuid"].(string)
		return r
	}
	usage := func(in, read, write, out int) rec {
		return rec{"input_tokens": in, "cache_read_input_tokens": read, "cache_creation_input_tokens": write,
			"cache_creation": rec{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0},
			"output_tokens":  out, "service_tier": "standard"}
	}
	user := func(content any, d time.Duration) rec {
		u := base("user")
		u["message"] = rec{"role": "user", "content": content}
		u["timestamp"] = g.stamp(d)
		return u
	}
	assistant := func(id, req string, content []rec, u rec, stop any, d time.Duration) rec {
		a := base("assistant")
		a["message"] = rec{"model": "claude-sonnet-4-5-20250929", "id": id, "type": "message", "role": "assistant",
			"content": content, "stop_reason": stop, "stop_sequence": nil, "usage": u}
		a["requestId"], a["timestamp"] = req, g.stamp(d)
		return a
	}
	id1, req1, tool := "msg_01"+g.hex(22), "req_011C"+g.hex(18), "toolu_01"+g.hex(22)
	out := []rec{
		user("Fix the build.", 0),
		assistant(id1, req1, []rec{{"type": "text", "text": "Reading the Makefile."}}, usage(3, 0, 5000, 50), nil, 3*time.Second),
		assistant(id1, req1, []rec{{"type": "tool_use", "id": tool, "name": "Read",
			"input": rec{"file_path": "/src/Makefile"}}}, usage(3, 0, 5000, 50), "tool_use", time.Second),
		user([]rec{{"type": "tool_result", "tool_use_id": tool, "content": "build: go build ./..."}}, time.Second),
		assistant("msg_01"+g.hex(22), "req_011C"+g.hex(18), []rec{{"type": "text", "text": "The build is fine now."}},
			usage(2, 5000, 100, 20), "end_turn", 4*time.Second),
	}
	boundary := base("system")
	boundary["parentUuid"], boundary["logicalParentUuid"] = nil, out[len(out)-1]["uuid"]
	boundary["subtype"], boundary["content"], boundary["isMeta"], boundary["level"] = "compact_boundary", "Conversation compacted", false, "info"
	boundary["compactMetadata"] = rec{"trigger": "auto", "preTokens": 5122}
	boundary["timestamp"] = g.stamp(time.Minute)
	summary := user("This session is being continued from a previous conversation. Summary: the build was fixed.", 0)
	summary["isCompactSummary"], summary["isVisibleInTranscriptOnly"] = true, true
	out = append(out, boundary, summary,
		user("Now run the tests.", 20*time.Second),
		assistant("msg_01"+g.hex(22), "req_011C"+g.hex(18), []rec{{"type": "text", "text": "All tests pass."}},
			usage(4, 4000, 60, 10), "end_turn", 3*time.Second))
	return out
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// codex: a rollout on gpt-5.3-codex, two responses.
//   - a token_count event with "info": null (rate limits only) before any
//     response;
//   - each response's token_count is written twice with the same totals:
//     one call each;
//   - the second call's cached input (10,240) is more than the whole
//     first prompt (10,000): the provider's cache reached into the first
//     response's output.
func codex(g *gen) []rec { return codexOn(g, "gpt-5.3-codex") }

// codexUnpriced is codex on gpt-5.3-codex-spark, a model genai-prices
// 0.1.8 has no price for (seen in real rollouts of June 2026): every cost
// harpe writes of it must read unpriced, never $0.
func codexUnpriced(g *gen) []rec { return codexOn(g, "gpt-5.3-codex-spark") }

func codexOn(g *gen, model string) []rec {
	ts := func(d time.Duration) string { return g.stamp(d) }
	limits := rec{"limit_id": "codex", "primary": rec{"used_percent": 19.0, "window_minutes": 300}}
	tc := func(in, cached, outTok, reason, tin, tcached, tout, treason int) rec {
		return rec{"type": "token_count", "info": rec{
			"total_token_usage": rec{"input_tokens": tin, "cached_input_tokens": tcached, "output_tokens": tout,
				"reasoning_output_tokens": treason, "total_tokens": tin + tout},
			"last_token_usage": rec{"input_tokens": in, "cached_input_tokens": cached, "output_tokens": outTok,
				"reasoning_output_tokens": reason, "total_tokens": in + outTok},
			"model_context_window": 258400}, "rate_limits": limits}
	}
	id := g.uuid()
	call := "call_" + g.hex(24)
	return []rec{
		{"timestamp": ts(0), "type": "session_meta", "payload": rec{"id": id, "timestamp": g.at.UTC().Format(time.RFC3339),
			"cwd": "/src/quirks", "originator": "codex_cli_rs", "cli_version": "0.104.0", "model_provider": "openai"}},
		{"timestamp": ts(0), "type": "response_item", "payload": rec{"type": "message", "role": "user",
			"content": []rec{{"type": "input_text", "text": "Fix " + g.text(6) + "."}}}},
		{"timestamp": ts(time.Second), "type": "event_msg", "payload": rec{"type": "token_count", "info": nil, "rate_limits": limits}},
		{"timestamp": ts(0), "type": "turn_context", "payload": rec{"cwd": "/src/quirks", "model": model, "effort": "medium"}},
		{"timestamp": ts(2 * time.Second), "type": "response_item", "payload": rec{"type": "function_call", "name": "shell",
			"arguments": `{"command":["rg","` + g.text(1) + `"]}`, "call_id": call}},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(10000, 0, 300, 200, 10000, 0, 300, 200)},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(10000, 0, 300, 200, 10000, 0, 300, 200)},
		{"timestamp": ts(time.Second), "type": "response_item", "payload": rec{"type": "function_call_output", "call_id": call,
			"output": g.text(30)}},
		{"timestamp": ts(3 * time.Second), "type": "response_item", "payload": rec{"type": "message", "role": "assistant",
			"content": []rec{{"type": "output_text", "text": "Fixed: " + g.text(6) + "."}}}},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(12000, 10240, 100, 40, 22000, 10240, 400, 240)},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(12000, 10240, 100, 40, 22000, 10240, 400, 240)},
	}
}

// codexCounted: a rollout on gpt-5.3-codex whose first prompt counts
// more than the provider billed: the user pasted a long log, which the
// counter sizes at several times the recorded prompt (in the real
// rollouts: text the tokenizer of the counter splits finer than the
// provider's, or content the harness sent shorter than it wrote down).
// Calibration keeps the first window's counted sizes, so every call's
// window holds more than its record: the unsent tokens of
// cost.Step.Unsent. Five calls, each a shell call then its result (the
// first result long); the first four records are smaller than the
// window already sized (2,000 to 5,100 tokens), the fifth 20,000, and
// each reads the previous prompt from OpenAI's cache in 128-token
// steps. Each call answers with 100 output tokens.
func codexCounted(g *gen) []rec {
	ts := func(d time.Duration) string { return g.stamp(d) }
	tc := func(in, cached, outTok, tin, tcached, tout int) rec {
		return rec{"type": "token_count", "info": rec{
			"total_token_usage": rec{"input_tokens": tin, "cached_input_tokens": tcached, "output_tokens": tout,
				"reasoning_output_tokens": 0, "total_tokens": tin + tout},
			"last_token_usage": rec{"input_tokens": in, "cached_input_tokens": cached, "output_tokens": outTok,
				"reasoning_output_tokens": 0, "total_tokens": in + outTok},
			"model_context_window": 258400}}
	}
	id := g.uuid()
	recs := []rec{
		{"timestamp": ts(0), "type": "session_meta", "payload": rec{"id": id, "timestamp": g.at.UTC().Format(time.RFC3339),
			"cwd": "/src/quirks", "originator": "codex_cli_rs", "cli_version": "0.104.0", "model_provider": "openai"}},
		{"timestamp": ts(0), "type": "turn_context", "payload": rec{"cwd": "/src/quirks", "model": "gpt-5.3-codex", "effort": "medium"}},
		{"timestamp": ts(0), "type": "response_item", "payload": rec{"type": "message", "role": "user",
			"content": []rec{{"type": "input_text", "text": "Why does this fail?\n" + g.text(4000)}}}},
	}
	// The records: prompt, cached read.
	prompts := [][2]int{{2000, 0}, {4500, 1920}, {4800, 4480}, {5100, 4736}, {20000, 4992}}
	tin, tcached, tout := 0, 0, 0
	for i, p := range prompts {
		call := "call_" + g.hex(24)
		tin, tcached, tout = tin+p[0], tcached+p[1], tout+100
		recs = append(recs,
			rec{"timestamp": ts(5 * time.Second), "type": "response_item", "payload": rec{"type": "function_call", "name": "shell",
				"arguments": `{"command":["rg","` + g.text(1) + `"]}`, "call_id": call}},
			rec{"timestamp": ts(0), "type": "event_msg", "payload": tc(p[0], p[1], 100, tin, tcached, tout)},
			rec{"timestamp": ts(time.Second), "type": "response_item", "payload": rec{"type": "function_call_output", "call_id": call,
				"output": g.text([]int{2000, 200, 200, 200, 100}[i])}})
	}
	return recs
}

// codexToolSearch: a rollout on gpt-5.3-codex whose calls are answered by
// items other than a message or a function call, in the layout of
// openai/codex's ResponseItem (codex-rs/protocol/src/models.rs) and the
// June 2026 rollouts of docs/real-sessions.md:
//   - call 1 searches the deferred tools: tool_search_call (client
//     execution, arguments an object) → tool_search_output (the tools
//     found, as definitions) → token_count;
//   - call 2 is a custom tool call (apply_patch, free-form input):
//     token_count, then its output;
//   - call 3 writes reasoning only, then its token_count: no reply;
//   - a second prompt, and call 4 answers it with a message.
//
// Each token_count's total_token_usage is the running sum, so the last
// one is the rollout's own bill: 43,600 input (31,488 cached), 830 output.
func codexToolSearch(g *gen) []rec {
	ts := func(d time.Duration) string { return g.stamp(d) }
	tin, tcached, tout := 0, 0, 0
	tc := func(in, cached, outTok int) rec {
		tin, tcached, tout = tin+in, tcached+cached, tout+outTok
		return rec{"type": "token_count", "info": rec{
			"total_token_usage": rec{"input_tokens": tin, "cached_input_tokens": tcached, "output_tokens": tout,
				"reasoning_output_tokens": 0, "total_tokens": tin + tout},
			"last_token_usage": rec{"input_tokens": in, "cached_input_tokens": cached, "output_tokens": outTok,
				"reasoning_output_tokens": 0, "total_tokens": in + outTok},
			"model_context_window": 258400}}
	}
	reasoning := func() rec {
		return rec{"type": "reasoning", "summary": []rec{{"type": "summary_text", "text": g.text(8)}},
			"content": nil, "encrypted_content": g.hex(64)}
	}
	prompt1 := "Add a " + g.text(3) + " check to the calendar tool."
	prompt2 := "And " + g.text(4) + "?"
	search, patch := "call_"+g.hex(24), "call_"+g.hex(24)
	tools := []rec{{"type": "namespace", "name": "mcp__calendar__", "description": "Calendar tools",
		"tools": []rec{{"type": "function", "name": "create_event", "description": "Create an event " + g.text(4),
			"strict": false, "defer_loading": true, "parameters": rec{"type": "object", "properties": rec{"title": rec{"type": "string"}}}}}}}
	return []rec{
		{"timestamp": ts(0), "type": "session_meta", "payload": rec{"id": g.uuid(), "timestamp": g.at.UTC().Format(time.RFC3339),
			"cwd": "/src/quirks", "originator": "codex_cli_rs", "model_provider": "openai"}},
		{"timestamp": ts(0), "type": "turn_context", "payload": rec{"cwd": "/src/quirks", "model": "gpt-5.3-codex", "effort": "medium"}},
		{"timestamp": ts(0), "type": "response_item", "payload": rec{"type": "message", "role": "user",
			"content": []rec{{"type": "input_text", "text": prompt1}}}},
		{"timestamp": ts(0), "type": "event_msg", "payload": rec{"type": "user_message", "message": prompt1, "images": []any{}}},
		{"timestamp": ts(2 * time.Second), "type": "response_item", "payload": reasoning()},
		{"timestamp": ts(0), "type": "response_item", "payload": rec{"type": "tool_search_call", "call_id": search,
			"status": "completed", "execution": "client", "arguments": rec{"query": "calendar create", "limit": 8}}},
		{"timestamp": ts(0), "type": "response_item", "payload": rec{"type": "tool_search_output", "call_id": search,
			"status": "completed", "execution": "client", "tools": tools}},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(9000, 0, 120)},
		{"timestamp": ts(3 * time.Second), "type": "response_item", "payload": rec{"type": "custom_tool_call", "status": "completed",
			"call_id": patch, "name": "apply_patch", "input": "*** Begin Patch\n*** Update File: cal.go\n+// " + g.text(5) + "\n*** End Patch\n"}},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(11000, 8960, 400)},
		{"timestamp": ts(time.Second), "type": "response_item", "payload": rec{"type": "custom_tool_call_output", "call_id": patch,
			"output": "Success. Updated the following files:\nM cal.go\n"}},
		{"timestamp": ts(4 * time.Second), "type": "response_item", "payload": reasoning()},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(11600, 11008, 250)},
		{"timestamp": ts(30 * time.Second), "type": "response_item", "payload": rec{"type": "message", "role": "user",
			"content": []rec{{"type": "input_text", "text": prompt2}}}},
		{"timestamp": ts(0), "type": "event_msg", "payload": rec{"type": "user_message", "message": prompt2, "images": []any{}}},
		{"timestamp": ts(2 * time.Second), "type": "response_item", "payload": rec{"type": "message", "role": "assistant",
			"content": []rec{{"type": "output_text", "text": "Yes: " + g.text(6) + "."}}}},
		{"timestamp": ts(0), "type": "event_msg", "payload": tc(12000, 11520, 60)},
	}
}

// gemini: a Gemini CLI session (one JSON document, here in a file named
// .jsonl as some tools store it) on gemini-2.5-flash, two responses.
//   - tokens.input is the whole prompt, the cached part included;
//   - tokens.thoughts are billed as output;
//   - the second response reads 11,800 tokens from Gemini's implicit
//     cache, which nothing in the request asked for.
func gemini(g *gen) []rec {
	tok := func(in, outTok, cached, thoughts int) rec {
		return rec{"input": in, "output": outTok, "cached": cached, "thoughts": thoughts, "tool": 0,
			"total": in + outTok + thoughts}
	}
	start := g.stamp(0)
	m1 := rec{"id": g.uuid(), "timestamp": start, "type": "user", "content": "Summarise " + g.text(5) + "."}
	m2 := rec{"id": g.uuid(), "timestamp": g.stamp(4 * time.Second), "type": "gemini", "content": "It " + g.text(7) + ".",
		"thoughts": []rec{{"subject": "Reading", "description": g.text(9), "timestamp": g.at.UTC().Format("2006-01-02T15:04:05.000Z")}},
		"tokens":   tok(12000, 100, 0, 150), "model": "gemini-2.5-flash"}
	m3 := rec{"id": g.uuid(), "timestamp": g.stamp(20 * time.Second), "type": "user", "content": "Shorter."}
	m4 := rec{"id": g.uuid(), "timestamp": g.stamp(3 * time.Second), "type": "gemini", "content": g.text(4) + ".",
		"tokens": tok(12300, 50, 11800, 40), "model": "gemini-2.5-flash"}
	return []rec{{"sessionId": g.uuid(), "projectHash": g.hex(64), "startTime": start,
		"lastUpdated": g.at.UTC().Format("2006-01-02T15:04:05.000Z"), "messages": []rec{m1, m2, m3, m4}}}
}

func main() {
	seed := flag.Uint64("seed", 21, "PRNG seed (ids, the start time, words)")
	dir := flag.String("dir", "testdata/transcripts", "directory to write claude-code/, codex/ and gemini-cli/ under")
	flag.Parse()
	mk := func(salt uint64) *gen {
		r := rand.New(rand.NewPCG(*seed, salt))
		at := time.Date(2026, 2, 10, 9, 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(86400)) * time.Second)
		return &gen{r: r, at: at}
	}
	files := []struct {
		path  string
		recs  []rec
		lines bool
	}{
		{"claude-code/quirks.jsonl", claudeCode(mk(1)), true},
		{"claude-code/quirks-thinking.jsonl", claudeCodeThinking(mk(4)), true},
		{"claude-code/quirks-joined.jsonl", claudeCodeJoined(mk(5)), true},
		{"claude-code/quirks-compacted.jsonl", claudeCodeCompacted(mk(30)), true},
		{"claude-code/quirks-fast.jsonl", claudeCodeFast(mk(22)), true},
		{"codex/quirks.jsonl", codex(mk(2)), true},
		{"codex/quirks-counted.jsonl", codexCounted(mk(6)), true},
		{"codex/quirks-tool-search.jsonl", codexToolSearch(mk(20)), true},
		{"codex/quirks-unpriced.jsonl", codexUnpriced(mk(21)), true},
		{"gemini-cli/quirks.jsonl", gemini(mk(3)), false},
	}
	for _, f := range files {
		if err := write(filepath.Join(*dir, f.path), f.recs, f.lines); err != nil {
			fmt.Fprintln(os.Stderr, "gen-quirks:", err)
			os.Exit(1)
		}
	}
	if err := writeHarnesses(*dir, mk); err != nil {
		fmt.Fprintln(os.Stderr, "gen-quirks:", err)
		os.Exit(1)
	}
	if err := writeDetect(*dir, mk); err != nil {
		fmt.Fprintln(os.Stderr, "gen-quirks:", err)
		os.Exit(1)
	}
}
