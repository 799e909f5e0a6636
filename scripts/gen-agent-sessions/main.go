// Command gen-agent-sessions writes the agent-loop sample sessions in
// testdata/agent/: coding-agent sessions of one or two human prompts and
// hundreds of model calls, in the layouts the harnesses write on disk, with
// usage records that carry the provider's cache fields. A fixed seed makes
// every run write the same bytes.
//
//	go run ./scripts/gen-agent-sessions [-seed 12] [-out testdata/agent]
//
// It writes
//
//	claude/projects/-src-shop/<session>.jsonl                      Claude Code main session
//	claude/projects/-src-shop/<session>/subagents/agent-<id>.jsonl Claude Code subagent
//	codex/sessions/2026/11/24/rollout-<time>-<uuid>.jsonl          Codex CLI rollout
//
// so that CLAUDE_CONFIG_DIR=testdata/agent/claude and
// CODEX_HOME=testdata/agent/codex point tools such as ccusage at them.
//
// # How the usage is made
//
// Every call's prompt is a fixed unseen overhead (the system prompt and tool
// definitions the file does not show: 12,000 tokens for the Claude Code
// session, 6,500 for its subagent, 9,000 for Codex) plus the visible
// messages of its window, counted the way harpe counts them
// ([transcript.MessageTokens] with the "estimate" counter) after reading
// the file back: the generator writes each file once with placeholder
// usage, reads it with [transcript.Read], and writes it again with the
// real figures. The window of a call is every message before the call's
// first message, from the last harness compaction on.
//
// The cache fields then follow the provider's rules, as real sessions show
// them:
//
//   - Claude Code (Anthropic): input_tokens is 1–3 (the uncached tail);
//     cache_read_input_tokens is the cached prefix the previous call of the
//     same model left (its prompt minus its own input_tokens) when that call
//     is less than 5 minutes old; after a harness compaction only the
//     overhead is read; after a model switch or a pause over 5 minutes
//     nothing is read; cache_creation_input_tokens is the rest, all of it
//     written with the 5-minute TTL (cache_creation.ephemeral_5m_input_tokens;
//     ephemeral_1h_input_tokens is 0). Each response is written as one
//     assistant record per content block (thinking, text, each tool_use),
//     every record repeating message.id and message.usage.
//   - Codex (OpenAI): input_tokens is the whole prompt; cached_input_tokens
//     is the previous call's prompt rounded down to a multiple of 128 when
//     it is at least 1,024 tokens (OpenAI's automatic prompt caching), the
//     overhead so rounded after a compaction. Each call ends with a
//     token_count event (last_token_usage and the running
//     total_token_usage), some written twice in a row.
//
// The Claude Code session switches from claude-opus-4-5 to
// claude-sonnet-4-5 with /model, pauses 20 minutes before its second
// prompt, and is compacted automatically when its prompt passes 150,000
// tokens. Tool results range from a few hundred bytes to 50 KB: file reads,
// greps, test output, edits.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/harpe-dev/harpe/pkg/tokenize"
	"github.com/harpe-dev/harpe/pkg/transcript"
)

type obj = map[string]any

// Overheads: the unseen part of every prompt, in tokens.
const (
	claudeOverhead   = 12000
	subagentOverhead = 6500
	codexOverhead    = 9000
	ttl              = 5 * time.Minute
)

// use is one tool call and its result.
type use struct {
	id     string
	tool   string // Read, Grep, Bash, Edit, Task
	input  obj
	result string
	// side is a subagent run written inline as sidechain records before
	// the result (a Task call), with its calls' usage; nil for others.
	side      []step
	sideUsage []obj
}

// Step kinds.
const (
	kPrompt = iota
	kCall
	kSwitch
	kCompact
)

type step struct {
	kind     int
	at       time.Time
	text     string // prompt, reply text, summary, or the model switched to
	thinking string
	uses     []use
	model    string
	output   int // output tokens beyond the visible text
	preTok   int // compaction: prompt size before
}

type gen struct {
	r   *rand.Rand
	n   int // tool call counter
	now time.Time
}

func (g *gen) advance(lo, hi time.Duration) time.Time {
	g.now = g.now.Add(lo + time.Duration(g.r.Int64N(int64(hi-lo))))
	return g.now
}

var (
	pkgs  = []string{"store", "server", "cache", "auth", "retry", "config", "metrics", "queue"}
	funcs = []string{"Get", "Put", "Open", "Close", "Flush", "Lookup", "Evict", "Handle", "Validate", "Snapshot"}
	words = []string{"entry", "key", "shard", "lock", "value", "index", "batch", "reader", "writer", "tx", "row", "page"}
)

// size picks a result size in bytes: most small, some up to 50 KB.
func (g *gen) size() int {
	switch p := g.r.IntN(100); {
	case p < 45:
		return 300 + g.r.IntN(1500)
	case p < 78:
		return 1800 + g.r.IntN(4500)
	case p < 94:
		return 6000 + g.r.IntN(14000)
	default:
		return 20000 + g.r.IntN(30000)
	}
}

func (g *gen) pick(xs []string) string { return xs[g.r.IntN(len(xs))] }

// goSource writes numbered Go source lines (cat -n style, as Claude Code's
// Read shows them) until about n bytes.
func (g *gen) goSource(pkg string, n int, numbered bool) string {
	var b strings.Builder
	line := 0
	put := func(s string) {
		line++
		if numbered {
			fmt.Fprintf(&b, "%6d→%s\n", line, s)
		} else {
			b.WriteString(s + "\n")
		}
	}
	put("package " + pkg)
	put("")
	put("import (")
	put("\t\"context\"")
	put("\t\"fmt\"")
	put("\t\"sync\"")
	put(")")
	for b.Len() < n {
		fn, w := g.pick(funcs), g.pick(words)
		put("")
		put(fmt.Sprintf("// %s%d returns the %s for key, loading it on a miss.", fn, line, w))
		put(fmt.Sprintf("func (s *%s) %s%d(ctx context.Context, key string) (*%s, error) {", strings.Title(pkg), fn, line, strings.Title(w)))
		put("\ts.mu.Lock()")
		put("\tdefer s.mu.Unlock()")
		put(fmt.Sprintf("\tif v, ok := s.%ss[key]; ok {", w))
		put("\t\treturn v, nil")
		put("\t}")
		put(fmt.Sprintf("\tv, err := s.load%s(ctx, key)", strings.Title(w)))
		put("\tif err != nil {")
		put(fmt.Sprintf("\t\treturn nil, fmt.Errorf(\"%s: %s %%q: %%w\", key, err)", pkg, strings.ToLower(fn)))
		put("\t}")
		put(fmt.Sprintf("\ts.%ss[key] = v", w))
		put("\treturn v, nil")
		put("}")
	}
	return b.String()
}

func (g *gen) grepOut(pkg, fn string, n int) string {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, "pkg/%s/%s.go:%d:\tv, err := %s.%s(ctx, %s)\n", g.pick(pkgs), g.pick(words), 10+g.r.IntN(900), pkg, fn, g.pick(words))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func (g *gen) testOut(pkg string, n int, fail bool) string {
	var b strings.Builder
	for b.Len() < n-200 {
		name := "Test" + strings.Title(pkg) + g.pick(funcs) + g.pick([]string{"", "Concurrent", "Empty", "Missing", "Race"})
		fmt.Fprintf(&b, "=== RUN   %s\n--- PASS: %s (0.%02ds)\n", name, name, g.r.IntN(100))
	}
	if fail {
		fmt.Fprintf(&b, "==================\nWARNING: DATA RACE\nWrite at 0x00c000%06x by goroutine %d:\n  shop/pkg/%s.(*%s).Put()\n      /src/shop/pkg/%s/%s.go:%d +0x%x\n==================\n--- FAIL: Test%sConcurrent (0.%02ds)\n    testing.go:1465: race detected during execution of test\nFAIL\nFAIL\tshop/pkg/%s\t%d.%03ds\n",
			g.r.IntN(1<<24), 7+g.r.IntN(40), pkg, strings.Title(pkg), pkg, pkg, 40+g.r.IntN(300), g.r.IntN(1<<12), strings.Title(pkg), g.r.IntN(100), pkg, g.r.IntN(9), g.r.IntN(1000))
	} else {
		fmt.Fprintf(&b, "PASS\nok  \tshop/pkg/%s\t%d.%03ds\n", pkg, g.r.IntN(9), g.r.IntN(1000))
	}
	return b.String()
}

// use makes one tool call in Claude Code terms; Codex renders it as shell
// or apply_patch.
func (g *gen) use(pkg string) use {
	g.n++
	id := fmt.Sprintf("%05d%08x", g.n, g.r.Uint32())
	fn := g.pick(funcs)
	file := fmt.Sprintf("/src/shop/pkg/%s/%s.go", pkg, g.pick(words))
	switch p := g.r.IntN(100); {
	case p < 40:
		return use{id, "Read", obj{"file_path": file}, g.goSource(pkg, g.size(), true), nil, nil}
	case p < 62:
		return use{id, "Grep", obj{"pattern": pkg + "\\." + fn, "path": "/src/shop", "output_mode": "content", "-n": true},
			g.grepOut(pkg, fn, min(g.size(), 12000)), nil, nil}
	case p < 82:
		return use{id, "Bash", obj{"command": fmt.Sprintf("go test -race ./pkg/%s/...", pkg), "description": "Run the " + pkg + " tests with the race detector"},
			g.testOut(pkg, g.size(), g.r.IntN(3) == 0), nil, nil}
	default:
		old := fmt.Sprintf("\ts.%ss[key] = v", g.pick(words))
		return use{id, "Edit", obj{"file_path": file, "old_string": old, "new_string": old + "\n\ts.version++"},
			fmt.Sprintf("The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s", file, g.goSource(pkg, 200+g.r.IntN(400), true)), nil, nil}
	}
}

var replies = []string{
	"Let me look at how %s.%s is called.",
	"The race is on the %s map: %s writes it without holding the lock.",
	"I'll run the %s tests again to check the fix for %s.",
	"",
	"",
	"Now the %s package: %s needs the same change.",
	"",
}

// agentTurn appends ncalls model calls answering one prompt; the last call
// makes no tool call. switchAt (>0) inserts a /model switch before that call.
func (g *gen) agentTurn(steps []step, model string, ncalls, switchAt int, switchTo string, limit, overhead int, tok *int) ([]step, string) {
	pkg := g.pick(pkgs)
	for k := 0; k < ncalls; k++ {
		if k == switchAt && switchTo != "" {
			steps = append(steps, step{kind: kSwitch, at: g.advance(20*time.Second, 60*time.Second), text: switchTo})
			model = switchTo
		}
		if *tok > limit {
			steps = append(steps, step{kind: kCompact, at: g.advance(30*time.Second, 90*time.Second), preTok: *tok,
				text: "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the user asked to find and fix a data race in pkg/" + pkg + ". The race was traced to unlocked map writes; Put and Evict now hold s.mu. Remaining: rerun go test -race ./... and check pkg/cache, which copies the same pattern."})
			*tok = overhead + 200
		}
		if g.r.IntN(8) == 0 {
			pkg = g.pick(pkgs)
		}
		st := step{kind: kCall, at: g.advance(2*time.Second, 14*time.Second), model: model, output: 30 + g.r.IntN(400)}
		if g.r.IntN(2) == 0 {
			st.thinking = fmt.Sprintf("The %s tests touch %s from several goroutines; check who holds s.mu.", pkg, g.pick(words))
		}
		if k == ncalls-1 {
			st.text = fmt.Sprintf("Done. The data race in pkg/%s came from map writes outside s.mu; %s and %s now take the lock, and `go test -race ./...` passes (%d packages).", pkg, g.pick(funcs), g.pick(funcs), 8+g.r.IntN(20))
		} else {
			if t := g.pick(replies); t != "" {
				st.text = fmt.Sprintf(t, pkg, g.pick(funcs))
			}
			nu := 1
			if g.r.IntN(5) == 0 {
				nu = 2 + g.r.IntN(2)
			}
			for u := 0; u < nu; u++ {
				x := g.use(pkg)
				st.uses = append(st.uses, x)
				*tok += tokenize.EstimateTokens(x.result) + 30
			}
			g.advance(200*time.Millisecond, 20*time.Second) // tools run
		}
		*tok += 40 + tokenize.EstimateTokens(st.text)
		steps = append(steps, st)
	}
	return steps, model
}

// ---- rendering ----

type lines struct {
	buf bytes.Buffer
	err error
}

func (l *lines) put(v any) {
	b, err := json.Marshal(v)
	if err != nil && l.err == nil {
		l.err = err
	}
	l.buf.Write(b)
	l.buf.WriteByte('\n')
}

func ts(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// usageFn gives the usage object of call k (0-based).
type usageFn func(k int) obj

type ccOpts struct {
	session, agentID string
	sidechain        bool
	// streamed writes each response's records with its usage as it stood
	// when each was written: output_tokens grows from a first streaming
	// chunk's count to the final figure, which only the last record has
	// (it alone has a stop_reason). Otherwise every record repeats the
	// final usage.
	streamed bool
	// bedrock writes Amazon Bedrock's ids (msg_bdrk_…, toolu_bdrk_…) and
	// no requestId, as Claude Code on Bedrock does.
	bedrock bool
	version string // Claude Code version; "" is 2.0.55
}

// writeClaudeCode renders steps as a Claude Code session.
func writeClaudeCode(steps []step, o ccOpts, usage usageFn) []byte {
	l := &lines{}
	parent := any(nil)
	n := 0
	side := o.sidechain
	version := o.version
	if version == "" {
		version = "2.0.55"
	}
	rec := func(typ string, at time.Time, extra obj) {
		n++
		u := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", n*2654435761%(1<<32), n%65536, n%4096, (n*7)%4096, uint64(n)*0x9e3779b9%(1<<48))
		if side {
			u = "a" + u[1:]
		}
		r := obj{"parentUuid": parent, "isSidechain": side, "userType": "external", "cwd": "/src/shop",
			"sessionId": o.session, "version": version, "gitBranch": "main", "type": typ, "uuid": u, "timestamp": ts(at)}
		if o.agentID != "" {
			r["agentId"] = o.agentID
		}
		for k, v := range extra {
			r[k] = v
		}
		parent = u
		l.put(r)
	}
	call := 0
	model := ""
	for _, st := range steps {
		switch st.kind {
		case kPrompt:
			rec("user", st.at, obj{"message": obj{"role": "user", "content": st.text}})
		case kSwitch:
			rec("user", st.at, obj{"message": obj{"role": "user", "content": "<command-name>/model</command-name>\n            <command-message>model</command-message>\n            <command-args>" + st.text + "</command-args>"}})
			rec("user", st.at, obj{"message": obj{"role": "user", "content": "<local-command-stdout>Set model to " + st.text + "</local-command-stdout>"}})
		case kCompact:
			parent = nil
			rec("system", st.at, obj{"subtype": "compact_boundary", "content": "Conversation compacted", "level": "info", "isMeta": false,
				"compactMetadata": obj{"trigger": "auto", "preTokens": st.preTok}})
			rec("user", st.at.Add(time.Millisecond), obj{"isCompactSummary": true, "isVisibleInTranscriptOnly": true,
				"message": obj{"role": "user", "content": st.text}})
		case kCall:
			model = st.model
			// Ids are unique across the session and its subagents (tools
			// such as ccusage deduplicate on message.id and requestId).
			tag := strings.ToUpper(o.session[:4])
			if o.agentID != "" {
				tag = strings.ToUpper(o.agentID[:4])
			}
			u := usage(call)
			call++
			nb := writeCall(rec, st, ccIDs(o, tag, call, false), call, model, u, o.streamed)
			for i, x := range st.uses {
				at := st.at.Add(time.Duration(nb+i) * 700 * time.Millisecond)
				if x.side != nil {
					// The subagent's run, inline: its own parent chain,
					// back to the main chain for the result.
					main := parent
					parent, side = nil, true
					for k, sst := range x.side {
						if sst.kind == kPrompt {
							rec("user", sst.at, obj{"message": obj{"role": "user", "content": sst.text}})
							continue
						}
						writeCall(rec, sst, ccIDs(o, "SIDE", k+1000*(i+1)+100000*call, true), k, sst.model, x.sideUsage[k-1], o.streamed)
						for j, y := range sst.uses {
							rec("user", sst.at.Add(time.Duration(j+1)*400*time.Millisecond), obj{"message": obj{"role": "user", "content": []obj{{"tool_use_id": "toolu_01" + y.id, "type": "tool_result", "content": y.result}}}})
						}
					}
					parent, side = main, o.sidechain
				}
				l.put(obj{"type": "progress", "data": obj{"type": "hook_progress", "hookEvent": "PostToolUse", "hookName": "PostToolUse:" + x.tool},
					"toolUseID": "toolu_01" + x.id, "parentToolUseID": "toolu_01" + x.id, "sessionId": o.session, "timestamp": ts(at)})
				rec("user", at, obj{"message": obj{"role": "user", "content": []obj{{"tool_use_id": "toolu_01" + x.id, "type": "tool_result", "content": x.result}}}})
			}
		}
	}
	return l.buf.Bytes()
}

// callIDs are the ids of one response's records.
type callIDs struct {
	msg, req, toolPrefix string // req "" writes no requestId
}

// ccIDs makes the ids of call k (1-based): Anthropic's msg_01…/req_011C…,
// or Bedrock's msg_bdrk_01… with no requestId; a sidechain call has no
// requestId either (Claude Code writes none for subagent calls).
func ccIDs(o ccOpts, tag string, k int, sidechain bool) callIDs {
	if o.bedrock {
		return callIDs{msg: fmt.Sprintf("msg_bdrk_01%s%016x", tag, uint64(k)*0x2545F4914F6CDD1D), toolPrefix: "toolu_01"}
	}
	ids := callIDs{msg: fmt.Sprintf("msg_01%s%016x", tag, uint64(k)*0x2545F4914F6CDD1D), toolPrefix: "toolu_01"}
	if !sidechain {
		ids.req = fmt.Sprintf("req_011C%s%016x", tag, uint64(k)*0x9E3779B97F4A7C15)
	}
	return ids
}

// blocks are the content blocks of call step st, in stream order.
func (st step) blocks(toolPrefix string, call int) []obj {
	var blocks []obj
	if st.thinking != "" {
		blocks = append(blocks, obj{"type": "thinking", "thinking": st.thinking, "signature": "EpYBCkYIBxgCKkB" + fmt.Sprintf("%016x", call)})
	}
	if st.text != "" {
		blocks = append(blocks, obj{"type": "text", "text": st.text})
	}
	for _, x := range st.uses {
		blocks = append(blocks, obj{"type": "tool_use", "id": toolPrefix + x.id, "name": x.tool, "input": x.input})
	}
	return blocks
}

// writeCall writes the records of one response, one per content block.
// Streamed, record i of n carries output_tokens as the stream stood: the
// first chunk's count (2 to 9) on the first, growing linearly, the final
// figure (u's) on the last only; every other field of u is final from the
// first record on. It returns the number of records written.
func writeCall(rec func(string, time.Time, obj), st step, ids callIDs, call int, model string, u obj, streamed bool) int {
	blocks := st.blocks(ids.toolPrefix, call)
	final, _ := u["output_tokens"].(int)
	first := 2 + len(blocks)*7%8
	for i, b := range blocks {
		ru := u
		var stop any
		if streamed {
			if i < len(blocks)-1 {
				ru = obj{}
				for k, v := range u {
					ru[k] = v
				}
				ru["output_tokens"] = min(final, first+(final-first)*i/len(blocks))
			} else if len(st.uses) > 0 {
				stop = "tool_use"
			} else {
				stop = "end_turn"
			}
		}
		r := obj{"message": obj{"id": ids.msg, "type": "message", "role": "assistant",
			"model": model, "content": []obj{b}, "stop_reason": stop, "stop_sequence": nil, "usage": ru}}
		if ids.req != "" {
			r["requestId"] = ids.req
		}
		rec("assistant", st.at.Add(time.Duration(i)*300*time.Millisecond), r)
	}
	return len(blocks)
}

// writeCodex renders steps as a Codex rollout. Tools: Read, Grep and Bash
// become shell calls, Edit an apply_patch call.
func writeCodex(steps []step, system string, usage usageFn) []byte {
	l := &lines{}
	put := func(at time.Time, typ string, p obj) { l.put(obj{"timestamp": ts(at), "type": typ, "payload": p}) }
	umsg := func(text string) obj {
		return obj{"type": "message", "role": "user", "content": []obj{{"type": "input_text", "text": text}}}
	}
	start := steps[0].at.Add(-2 * time.Second)
	put(start, "session_meta", obj{"id": "019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73", "timestamp": ts(start), "cwd": "/src/shop",
		"originator": "codex_cli_rs", "cli_version": "0.63.0", "instructions": nil, "source": "cli", "model_provider": "openai",
		"base_instructions": obj{"text": system}})
	put(start, "response_item", umsg("# AGENTS.md instructions for /src/shop\n\n<INSTRUCTIONS>\nRun gofmt and go vet before committing. Keep changes small; every package has table tests.\n</INSTRUCTIONS>"))
	put(start, "response_item", umsg("<environment_context>\n  <cwd>/src/shop</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>"))
	put(start, "event_msg", obj{"type": "token_count", "info": nil, "rate_limits": obj{"primary": obj{"used_percent": 3.0, "window_minutes": 300}}})
	call := 0
	var total [4]int
	for _, st := range steps {
		switch st.kind {
		case kPrompt:
			put(st.at, "response_item", umsg(st.text))
			put(st.at, "event_msg", obj{"type": "user_message", "message": st.text, "images": []any{}})
			put(st.at, "turn_context", obj{"cwd": "/src/shop", "approval_policy": "on-request", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		case kCompact:
			put(st.at, "compacted", obj{"message": st.text, "replacement_history": []obj{umsg(steps[0].text), umsg(st.text)}})
			put(st.at, "event_msg", obj{"type": "context_compacted"})
		case kCall:
			at := st.at
			if st.thinking != "" {
				put(at, "response_item", obj{"type": "reasoning", "summary": []obj{{"type": "summary_text", "text": "**Checking the lock** " + st.thinking}}, "content": nil, "encrypted_content": fmt.Sprintf("gAAAAABp%024x", call)})
			}
			if st.text != "" {
				put(at, "event_msg", obj{"type": "agent_message", "message": st.text})
				put(at, "response_item", obj{"type": "message", "role": "assistant", "content": []obj{{"type": "output_text", "text": st.text}}})
			}
			for _, x := range st.uses {
				if x.tool == "Edit" {
					put(at, "response_item", obj{"type": "custom_tool_call", "status": "completed", "call_id": "call_" + x.id, "name": "apply_patch",
						"input": fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@\n %s\n+\ts.version++\n*** End Patch\n", x.input["file_path"], x.input["old_string"])})
				} else {
					put(at, "response_item", obj{"type": "function_call", "name": "shell", "arguments": jsonText(obj{"command": []string{"bash", "-lc", shellFor(x)}, "workdir": "/src/shop", "timeout_ms": 120000}), "call_id": "call_" + x.id})
				}
			}
			u := usage(call)
			call++
			last := [4]int{u["input_tokens"].(int), u["cached_input_tokens"].(int), u["output_tokens"].(int), u["reasoning_output_tokens"].(int)}
			for i := range total {
				total[i] += last[i]
			}
			tu := func(v [4]int) obj {
				return obj{"input_tokens": v[0], "cached_input_tokens": v[1], "output_tokens": v[2], "reasoning_output_tokens": v[3], "total_tokens": v[0] + v[2]}
			}
			ev := obj{"type": "token_count", "info": obj{"total_token_usage": tu(total), "last_token_usage": tu(last), "model_context_window": 258400},
				"rate_limits": obj{"primary": obj{"used_percent": float64(3 + call/20), "window_minutes": 300}}}
			put(at.Add(time.Second), "event_msg", ev)
			if call%3 == 0 {
				put(at.Add(time.Second), "event_msg", ev) // a duplicate, as Codex writes them
			}
			for i, x := range st.uses {
				rat := at.Add(time.Duration(2+i) * time.Second)
				if x.tool == "Edit" {
					put(rat, "response_item", obj{"type": "custom_tool_call_output", "call_id": "call_" + x.id,
						"output": jsonText(obj{"output": "Success. Updated the following files:\nM " + x.input["file_path"].(string) + "\n", "metadata": obj{"exit_code": 0, "duration_seconds": 0.0}})})
				} else {
					put(rat, "response_item", obj{"type": "function_call_output", "call_id": "call_" + x.id,
						"output": jsonText(obj{"output": codexOutput(x), "metadata": obj{"exit_code": 0, "duration_seconds": 0.4}})})
				}
			}
		}
	}
	return l.buf.Bytes()
}

func codexOutput(x use) string {
	if x.tool == "Read" { // cat shows no line numbers
		var b strings.Builder
		for _, ln := range strings.SplitAfter(x.result, "\n") {
			if i := strings.Index(ln, "→"); i >= 0 {
				ln = ln[i+len("→"):]
			}
			b.WriteString(ln)
		}
		return b.String()
	}
	return x.result
}

func shellFor(x use) string {
	switch x.tool {
	case "Read":
		return "cat " + x.input["file_path"].(string)
	case "Grep":
		return "rg -n '" + x.input["pattern"].(string) + "' /src/shop"
	}
	return x.input["command"].(string)
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ---- usage ----

// visible reads data back and returns, per call in order, the tokens of the
// visible messages of its window.
func visible(data []byte, format string) ([]int, error) {
	ts, err := transcript.Read(bytes.NewReader(data), "gen", transcript.Format(format))
	if err != nil {
		return nil, err
	}
	if len(ts) != 1 {
		return nil, fmt.Errorf("%d conversations", len(ts))
	}
	t := ts[0]
	est, err := tokenize.New("estimate")
	if err != nil {
		return nil, err
	}
	var out []int
	start := 0
	ci := 0
	for i := range t.Messages {
		for ci < len(t.Compactions) && t.Compactions[ci] <= i {
			start = t.Compactions[ci]
			ci++
		}
		if t.Messages[i].InputTokens == nil {
			continue
		}
		n := 0
		for j := start; j < i; j++ {
			if !t.Messages[j].Aborted {
				n += transcript.MessageTokens(&t.Messages[j], est)
			}
		}
		out = append(out, n)
	}
	return out, nil
}

func outputTokens(st step) int {
	n := st.output + tokenize.EstimateTokens(st.text) + tokenize.EstimateTokens(st.thinking)
	for _, x := range st.uses {
		n += 10 + tokenize.EstimateTokens(jsonText(x.input))
	}
	return n
}

// claudeUsage works out each call's Anthropic usage from its prompt size,
// with 5-minute cache writes.
func claudeUsage(steps []step, vis []int, overhead int, r *rand.Rand) []obj {
	return claudeUsageTTL(steps, vis, overhead, r, ttl)
}

// claudeUsageTTL is claudeUsage with cache writes of the given lifetime:
// 5 minutes (ephemeral_5m_input_tokens) or 1 hour (ephemeral_1h_…).
func claudeUsageTTL(steps []step, vis []int, overhead int, r *rand.Rand, life time.Duration) []obj {
	type cached struct {
		prefix int
		at     time.Time
		epoch  int
	}
	state := map[string]*cached{}
	epoch := 0
	var out []obj
	k := 0
	for _, st := range steps {
		if st.kind == kCompact {
			epoch++
		}
		if st.kind != kCall {
			continue
		}
		prompt := overhead + vis[k]
		k++
		in := 1 + r.IntN(3)
		read := 0
		if c := state[st.model]; c != nil && st.at.Sub(c.at) <= life {
			if c.epoch == epoch {
				read = c.prefix
			} else {
				read = overhead
			}
		}
		write := prompt - in - read
		state[st.model] = &cached{prefix: prompt - in, at: st.at, epoch: epoch}
		out = append(out, obj{"input_tokens": in, "cache_creation_input_tokens": write, "cache_read_input_tokens": read,
			"cache_creation": cacheCreation(write, life),
			"output_tokens":  outputTokens(st), "service_tier": "standard"})
	}
	return out
}

func cacheCreation(write int, life time.Duration) obj {
	if life == time.Hour {
		return obj{"ephemeral_5m_input_tokens": 0, "ephemeral_1h_input_tokens": write}
	}
	return obj{"ephemeral_5m_input_tokens": write, "ephemeral_1h_input_tokens": 0}
}

// codexUsage works out each call's OpenAI usage from its prompt size.
func codexUsage(steps []step, vis []int, overhead int) []obj {
	var out []obj
	k, prev := 0, 0
	for _, st := range steps {
		if st.kind == kCompact {
			prev = overhead
		}
		if st.kind != kCall {
			continue
		}
		prompt := overhead + vis[k]
		k++
		cached := 0
		if prev >= 1024 {
			cached = prev / 128 * 128
		}
		prev = prompt
		o := outputTokens(st)
		out = append(out, obj{"input_tokens": prompt, "cached_input_tokens": cached, "output_tokens": o, "reasoning_output_tokens": o / 3})
	}
	return out
}

func placeholder(k int) obj {
	return obj{"input_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1,
		"cached_input_tokens": 0, "reasoning_output_tokens": 0}
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

func run(seed uint64, out string) error {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), now: time.Date(2026, 11, 24, 9, 12, 3, 417e6, time.UTC)}

	// Claude Code main session: two prompts, a model switch, a pause, a compaction.
	const session = "7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17"
	tok := claudeOverhead
	steps := []step{{kind: kPrompt, at: g.now, text: "The integration tests in pkg/store fail now and then under -race. Find the cause, fix it, and make sure go test -race ./... passes."}}
	var model string
	steps, model = g.agentTurn(steps, "claude-opus-4-5-20251101", 150, 110, "claude-sonnet-4-5-20250929", 150000, claudeOverhead, &tok)
	g.advance(20*time.Minute, 21*time.Minute) // the pause: every cache entry expires
	steps = append(steps, step{kind: kPrompt, at: g.now, text: "Good. Now add a benchmark for Store.Get under contention and write down the locking rules in docs/store.md."})
	steps, _ = g.agentTurn(steps, model, 80, -1, "", 150000, claudeOverhead, &tok)
	if err := renderClaude(filepath.Join(out, "claude/projects/-src-shop", session+".jsonl"), steps, ccOpts{session: session}, claudeOverhead, g.r); err != nil {
		return err
	}

	// Its subagent (an Explore run), in its own file.
	g.now = time.Date(2026, 11, 24, 9, 14, 40, 112e6, time.UTC)
	tok = subagentOverhead
	sub := []step{{kind: kPrompt, at: g.now, text: "Find every place in /src/shop that writes to a map field of Store, Cache or Queue without holding the struct's mutex. Report file:line for each."}}
	sub, _ = g.agentTurn(sub, "claude-haiku-4-5-20251001", 30, -1, "", 150000, subagentOverhead, &tok)
	if err := renderClaude(filepath.Join(out, "claude/projects/-src-shop", session, "subagents/agent-a3f9c2e1.jsonl"), sub, ccOpts{session: session, agentID: "a3f9c2e1", sidechain: true}, subagentOverhead, g.r); err != nil {
		return err
	}

	// Codex rollout: one prompt, a compaction.
	g.now = time.Date(2026, 11, 24, 14, 2, 11, 508e6, time.UTC)
	tok = codexOverhead
	cx := []step{{kind: kPrompt, at: g.now, text: "go test -race ./pkg/queue/ reports a data race in the consumer loop. Fix it without slowing the hot path, and add a regression test."}}
	cx, _ = g.agentTurn(cx, "gpt-5-codex", 220, -1, "", 200000, codexOverhead, &tok)
	system := "You are Codex, a coding agent based on GPT-5. You and the user share the same workspace and collaborate to achieve the user's goals. Use the shell tool to read and search files, apply_patch to edit them, and run the tests before you finish."
	data := writeCodex(cx, system, placeholderCodex())
	vis, err := visible(data, "codex")
	if err != nil {
		return fmt.Errorf("codex: %v", err)
	}
	us := codexUsage(cx, vis, codexOverhead)
	data = writeCodex(cx, system, func(k int) obj { return us[k] })
	if err := write(filepath.Join(out, "codex/sessions/2026/11/24/rollout-2026-11-24T14-02-09-019ab6f2-3c41-7d20-9e55-4b1f0c2d8a73.jsonl"), data); err != nil {
		return err
	}
	return runStreamed(seed, filepath.Join(out, "streamed"))
}

// placeholderCodex gives distinct, growing placeholder usage, so that every
// token_count closes its call on the first pass.
func placeholderCodex() usageFn {
	return func(k int) obj {
		return obj{"input_tokens": 1000 + k, "cached_input_tokens": 0, "output_tokens": 1, "reasoning_output_tokens": 0}
	}
}

func renderClaude(path string, steps []step, o ccOpts, overhead int, r *rand.Rand) error {
	return renderClaudeTTL(path, steps, o, overhead, r, ttl)
}

func renderClaudeTTL(path string, steps []step, o ccOpts, overhead int, r *rand.Rand, life time.Duration) error {
	data := writeClaudeCode(steps, o, placeholder)
	vis, err := visible(data, "claude-code")
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	ncalls := 0
	for _, st := range steps {
		if st.kind == kCall {
			ncalls++
		}
	}
	if len(vis) != ncalls {
		return fmt.Errorf("%s: read back %d calls, wrote %d", path, len(vis), ncalls)
	}
	us := claudeUsageTTL(steps, vis, overhead, r, life)
	return write(path, writeClaudeCode(steps, o, func(k int) obj { return us[k] }))
}

func main() {
	seed := flag.Uint64("seed", 12, "PRNG seed")
	out := flag.String("out", "testdata/agent", "output directory")
	flag.Parse()
	if err := run(*seed, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen-agent-sessions:", err)
		os.Exit(1)
	}
}
