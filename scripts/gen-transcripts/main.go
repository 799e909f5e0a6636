// Command gen-transcripts writes the long sample sessions in
// testdata/transcripts/<format>/long.* : one coding-agent session (reading
// files, running tests, editing) rendered in each major format. A fixed
// seed makes every run write the same bytes.
//
//	go run ./scripts/gen-transcripts [-turns 60] [-seed 7] [-out testdata/transcripts]
//
// With -big N it instead writes one harpe-format session of about N bytes
// to standard output, for measuring memory on large inputs.
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

type call struct {
	id, name string
	args     map[string]any
	result   string
}

type step struct {
	text  string
	calls []call
	input int // prompt tokens the provider reported for this call
}

type turn struct {
	prompt string
	steps  []step // the last step makes no calls: the final answer
}

type session struct {
	system string
	turns  []turn
	start  time.Time
}

var (
	pkgs  = []string{"parse", "server", "store", "auth", "cache", "retry", "config", "metrics"}
	funcs = []string{"Load", "Parse", "Open", "Close", "Get", "Put", "Retry", "Validate", "Flush", "Handle"}
	tasks = []string{
		"The tests in pkg/%s fail since the last merge. Find out why and fix them.",
		"Add a context.Context parameter to %s.%s and update the callers.",
		"pkg/%s leaks a goroutine when the server shuts down. Track it down.",
		"Rename %s.%s to something clearer and keep the old name as a deprecated alias.",
		"Write table tests for pkg/%s; the coverage is below 40%%.",
		"Why is pkg/%s so slow on large inputs? Profile it and suggest a fix.",
	}
)

func gen(seed uint64, nturns int) *session {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &session{
		system: "You are a coding agent working in the Go repository at /src/shop. Use the tools to read files, search, edit and run commands. Keep changes small and run the tests after each edit.",
		start:  time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC),
	}
	ctx := 900 // running prompt size, in tokens
	n := 0
	for t := 0; t < nturns; t++ {
		pkg := pkgs[r.IntN(len(pkgs))]
		fn := funcs[r.IntN(len(funcs))]
		task := tasks[r.IntN(len(tasks))]
		var prompt string
		if strings.Count(task, "%s") == 2 {
			prompt = fmt.Sprintf(task, pkg, fn)
		} else {
			prompt = fmt.Sprintf(task, pkg)
		}
		tu := turn{prompt: prompt}
		ctx += len(prompt) / 4
		nsteps := 2 + r.IntN(5)
		for k := 0; k < nsteps; k++ {
			st := step{input: ctx}
			if k == nsteps-1 {
				st.text = fmt.Sprintf("Done: %s.%s now handles the failing case, and go test ./pkg/%s/ passes (%d tests).", pkg, fn, pkg, 5+r.IntN(40))
				tu.steps = append(tu.steps, st)
				ctx += len(st.text) / 4
				break
			}
			if r.IntN(3) == 0 {
				st.text = fmt.Sprintf("Let me look at how %s.%s is used.", pkg, fn)
			}
			ncalls := 1 + r.IntN(2)
			for c := 0; c < ncalls; c++ {
				n++
				cl := makeCall(r, n, pkg, fn)
				ctx += (len(cl.result) + 40) / 4
				st.calls = append(st.calls, cl)
			}
			tu.steps = append(tu.steps, st)
		}
		s.turns = append(s.turns, tu)
	}
	return s
}

func makeCall(r *rand.Rand, n int, pkg, fn string) call {
	file := fmt.Sprintf("pkg/%s/%s.go", pkg, strings.ToLower(fn))
	id := fmt.Sprintf("%04x%04x", n, r.IntN(1<<16))
	switch r.IntN(5) {
	case 0:
		var b strings.Builder
		fmt.Fprintf(&b, "package %s\n\nimport (\n\t\"context\"\n\t\"fmt\"\n)\n\n", pkg)
		for i := 0; i < 2+r.IntN(4); i++ {
			fmt.Fprintf(&b, "// %s%d %s the %s entry.\nfunc %s%d(ctx context.Context, key string) (string, error) {\n\tif key == \"\" {\n\t\treturn \"\", fmt.Errorf(\"%s: empty key\")\n\t}\n\treturn lookup(ctx, key)\n}\n\n", fn, i, strings.ToLower(fn)+"s", pkg, fn, i, pkg)
		}
		return call{id: id, name: "read_file", args: map[string]any{"path": file}, result: b.String()}
	case 1:
		pass := r.IntN(2) == 0
		out := fmt.Sprintf("ok  \tshop/pkg/%s\t0.%03ds", pkg, r.IntN(1000))
		if !pass {
			out = fmt.Sprintf("--- FAIL: Test%s (0.00s)\n    %s_test.go:%d: got %q, want %q\nFAIL\nFAIL\tshop/pkg/%s\t0.%03ds", fn, strings.ToLower(fn), 10+r.IntN(200), "", "v1", pkg, r.IntN(1000))
		}
		return call{id: id, name: "bash", args: map[string]any{"command": fmt.Sprintf("go test ./pkg/%s/", pkg)}, result: out}
	case 2:
		var lines []string
		for i := 0; i < 1+r.IntN(6); i++ {
			lines = append(lines, fmt.Sprintf("%s:%d:\tv, err := %s.%s(ctx, key)", pkgs[r.IntN(len(pkgs))]+"/handler.go", 10+r.IntN(300), pkg, fn))
		}
		return call{id: id, name: "grep", args: map[string]any{"pattern": pkg + "." + fn, "path": "."}, result: strings.Join(lines, "\n")}
	case 3:
		return call{id: id, name: "edit_file", args: map[string]any{"path": file, "old_string": "return lookup(ctx, key)", "new_string": "v, err := lookup(ctx, key)\n\tif err != nil {\n\t\treturn \"\", fmt.Errorf(\"" + pkg + ": %w\", err)\n\t}\n\treturn v, nil"},
			result: fmt.Sprintf("The file %s has been updated (1 hunk, +4 -1).", file)}
	}
	return call{id: id, name: "bash", args: map[string]any{"command": "git diff --stat"}, result: fmt.Sprintf(" %s | %d +++-\n 1 file changed, %d insertions(+), 1 deletion(-)", file, 3+r.IntN(9), 3+r.IntN(9))}
}

func argsJSON(a map[string]any) string {
	b, _ := json.Marshal(a)
	return string(b)
}

// clock hands out timestamps a few seconds apart.
type clock struct{ t time.Time }

func (c *clock) next() string {
	c.t = c.t.Add(3*time.Second + 250*time.Millisecond)
	return c.t.Format("2006-01-02T15:04:05.000Z")
}

type lines struct {
	w   *bufio.Writer
	err error
}

func (l *lines) put(v any) {
	b, err := json.Marshal(v)
	if err != nil && l.err == nil {
		l.err = err
	}
	l.w.Write(b)
	l.w.WriteByte('\n')
}

type obj = map[string]any

// harpe: one event a line. Turn abortAt is aborted after its first step.
func writeHarpe(l *lines, s *session, abortAt int) {
	c := &clock{s.start}
	l.put(obj{"type": "system", "content": s.system, "timestamp": c.next()})
	for ti, t := range s.turns {
		l.put(obj{"type": "user", "content": t.prompt, "timestamp": c.next()})
		for k, st := range t.steps {
			ev := obj{"type": "assistant", "content": st.text, "timestamp": c.next()}
			if len(st.calls) > 0 {
				var tc []obj
				for _, cl := range st.calls {
					tc = append(tc, obj{"id": "call_" + cl.id, "name": cl.name, "arguments": argsJSON(cl.args)})
				}
				ev["tool_calls"] = tc
			}
			l.put(ev)
			l.put(obj{"type": "usage", "input_tokens": st.input})
			for _, cl := range st.calls {
				l.put(obj{"type": "tool_result", "tool_call_id": "call_" + cl.id, "content": cl.result, "timestamp": c.next()})
			}
			if ti == abortAt && k == 0 {
				l.put(obj{"type": "abort", "timestamp": c.next()})
				break
			}
		}
	}
}

// openai: one chat message a line.
func writeOpenAI(l *lines, s *session) {
	l.put(obj{"role": "system", "content": s.system})
	for _, t := range s.turns {
		l.put(obj{"role": "user", "content": t.prompt})
		for _, st := range t.steps {
			m := obj{"role": "assistant", "content": nil, "usage": obj{"prompt_tokens": st.input, "completion_tokens": 40}}
			if st.text != "" {
				m["content"] = st.text
			}
			if len(st.calls) > 0 {
				var tc []obj
				for _, cl := range st.calls {
					tc = append(tc, obj{"id": "call_" + cl.id, "type": "function", "function": obj{"name": cl.name, "arguments": argsJSON(cl.args)}})
				}
				m["tool_calls"] = tc
			}
			l.put(m)
			for _, cl := range st.calls {
				l.put(obj{"role": "tool", "tool_call_id": "call_" + cl.id, "content": cl.result})
			}
		}
	}
}

// anthropic: one request body; each step's results go in one user message.
func anthropicDoc(s *session) obj {
	var msgs []obj
	for _, t := range s.turns {
		msgs = append(msgs, obj{"role": "user", "content": t.prompt})
		for _, st := range t.steps {
			var blocks []obj
			if st.text != "" {
				blocks = append(blocks, obj{"type": "text", "text": st.text})
			}
			for _, cl := range st.calls {
				blocks = append(blocks, obj{"type": "tool_use", "id": "toolu_" + cl.id, "name": cl.name, "input": cl.args})
			}
			msgs = append(msgs, obj{"role": "assistant", "content": blocks})
			if len(st.calls) > 0 {
				var res []obj
				for _, cl := range st.calls {
					res = append(res, obj{"type": "tool_result", "tool_use_id": "toolu_" + cl.id, "content": cl.result})
				}
				msgs = append(msgs, obj{"role": "user", "content": res})
			}
		}
	}
	return obj{"model": "claude-sonnet-4-5", "max_tokens": 8192,
		"system": []obj{{"type": "text", "text": s.system}}, "messages": msgs}
}

// claude-code: one record a line; each response block is its own record
// sharing message.id; a manual compaction at turn compactAt.
func writeClaudeCode(l *lines, s *session, compactAt int) {
	c := &clock{s.start}
	sid := "5b0f3c1e-9a7d-4e2b-8c61-2d4f6a8b0c1e"
	parent := any(nil)
	uuidN := 0
	rec := func(typ string, extra obj) {
		uuidN++
		u := fmt.Sprintf("%08x-1111-4222-8333-%012x", uuidN, uuidN*7919)
		r := obj{"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/src/shop",
			"sessionId": sid, "version": "2.0.14", "gitBranch": "main", "type": typ, "uuid": u, "timestamp": c.next()}
		for k, v := range extra {
			r[k] = v
		}
		parent = u
		l.put(r)
	}
	msgN := 0
	for ti, t := range s.turns {
		if ti == compactAt {
			rec("user", obj{"message": obj{"role": "user", "content": "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args></command-args>"}})
			parent = nil
			rec("system", obj{"subtype": "compact_boundary", "content": "Conversation compacted", "level": "info",
				"compactMetadata": obj{"trigger": "manual", "preTokens": s.turns[ti-1].steps[0].input}})
			rec("user", obj{"isCompactSummary": true, "isVisibleInTranscriptOnly": true,
				"message": obj{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: the user asked for several fixes across pkg/; all tests passed at the end."}})
		}
		rec("user", obj{"message": obj{"role": "user", "content": t.prompt}})
		for _, st := range t.steps {
			msgN++
			id := fmt.Sprintf("msg_01%022d", msgN)
			// A prompt of under 1,000 tokens writes all but the 3 uncached
			// ones (so no part is negative).
			written := min(st.input%997, st.input-3)
			usage := obj{"input_tokens": 3, "cache_creation_input_tokens": written, "cache_read_input_tokens": st.input - 3 - written, "output_tokens": 60, "service_tier": "standard"}
			var blocks []obj
			if st.text != "" {
				blocks = append(blocks, obj{"type": "text", "text": st.text})
			}
			for _, cl := range st.calls {
				blocks = append(blocks, obj{"type": "tool_use", "id": "toolu_" + cl.id, "name": cl.name, "input": cl.args})
			}
			for _, b := range blocks {
				rec("assistant", obj{"requestId": "req_" + id[7:], "message": obj{"id": id, "type": "message", "role": "assistant",
					"model": "claude-sonnet-4-5", "content": []obj{b}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}})
			}
			for _, cl := range st.calls {
				l.put(obj{"type": "progress", "data": obj{"type": "hook_progress", "hookEvent": "PostToolUse"}, "toolUseID": "toolu_" + cl.id,
					"parentToolUseID": "toolu_" + cl.id, "sessionId": sid, "timestamp": c.next()})
				rec("user", obj{"message": obj{"role": "user", "content": []obj{{"tool_use_id": "toolu_" + cl.id, "type": "tool_result", "content": cl.result}}}})
			}
		}
		l.put(obj{"type": "file-history-snapshot", "messageId": fmt.Sprintf("snap-%d", ti), "snapshot": obj{"trackedFileBackups": obj{}, "timestamp": c.next()}, "isSnapshotUpdate": false})
	}
}

// codex: a rollout with a session_meta, injected context, prompts marked
// by user_message events, token_count usage and a compaction at compactAt.
func writeCodex(l *lines, s *session, compactAt int) {
	c := &clock{s.start}
	put := func(typ string, p obj) { l.put(obj{"timestamp": c.next(), "type": typ, "payload": p}) }
	umsg := func(text string) obj {
		return obj{"type": "message", "role": "user", "content": []obj{{"type": "input_text", "text": text}}}
	}
	put("session_meta", obj{"id": "0199c0de-0000-7000-8000-00000000beef", "timestamp": s.start.Format(time.RFC3339), "cwd": "/src/shop",
		"originator": "codex_cli_rs", "cli_version": "0.46.0", "instructions": nil, "source": "cli", "model_provider": "openai",
		"base_instructions": obj{"text": s.system}})
	put("response_item", umsg("<environment_context>\n  <cwd>/src/shop</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <shell>bash</shell>\n</environment_context>"))
	total := 0
	for ti, t := range s.turns {
		if ti == compactAt {
			put("compacted", obj{"message": "Summary: several fixes across pkg/; all tests pass.",
				"replacement_history": []obj{umsg("Summary: several fixes across pkg/; all tests pass.")}})
		}
		put("response_item", umsg(t.prompt))
		put("event_msg", obj{"type": "user_message", "message": t.prompt, "images": []any{}})
		put("turn_context", obj{"cwd": "/src/shop", "approval_policy": "on-request", "model": "gpt-5-codex", "effort": "medium", "summary": "auto"})
		for _, st := range t.steps {
			put("response_item", obj{"type": "reasoning", "summary": []obj{{"type": "summary_text", "text": "**Planning the next step**"}}, "content": nil, "encrypted_content": "gAAAAABpZ2VuZXJhdGVk"})
			if st.text != "" {
				put("response_item", obj{"type": "message", "role": "assistant", "content": []obj{{"type": "output_text", "text": st.text}}})
				put("event_msg", obj{"type": "agent_message", "message": st.text})
			}
			for _, cl := range st.calls {
				if cl.name == "edit_file" {
					put("response_item", obj{"type": "custom_tool_call", "status": "completed", "call_id": "call_" + cl.id, "name": "apply_patch",
						"input": fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@\n-%s\n+%s\n*** End Patch", cl.args["path"], cl.args["old_string"], cl.args["new_string"])})
				} else {
					put("response_item", obj{"type": "function_call", "name": "shell", "arguments": argsJSON(obj{"command": []string{"bash", "-lc", shellFor(cl)}, "workdir": "/src/shop"}), "call_id": "call_" + cl.id})
				}
			}
			total += st.input
			usage := func(n int) obj {
				return obj{"input_tokens": n, "cached_input_tokens": n / 2, "output_tokens": 60, "reasoning_output_tokens": 20, "total_tokens": n + 60}
			}
			put("event_msg", obj{"type": "token_count", "info": obj{"total_token_usage": usage(total), "last_token_usage": usage(st.input), "model_context_window": 272000}})
			put("event_msg", obj{"type": "token_count", "info": obj{"total_token_usage": usage(total), "last_token_usage": usage(st.input), "model_context_window": 272000}})
			for _, cl := range st.calls {
				typ := "function_call_output"
				if cl.name == "edit_file" {
					typ = "custom_tool_call_output"
				}
				put("response_item", obj{"type": typ, "call_id": "call_" + cl.id, "output": argsJSON(obj{"output": cl.result, "metadata": obj{"exit_code": 0, "duration_seconds": 0.2}})})
			}
		}
	}
}

func shellFor(cl call) string {
	switch cl.name {
	case "read_file":
		return "cat " + cl.args["path"].(string)
	case "grep":
		return "rg -n '" + cl.args["pattern"].(string) + "'"
	}
	return cl.args["command"].(string)
}

// gemini-cli: one session object; tool results inside the calls.
func geminiCLIDoc(s *session) obj {
	c := &clock{s.start}
	var msgs []obj
	n := 0
	id := func() string { n++; return fmt.Sprintf("m-%d", n) }
	for _, t := range s.turns {
		msgs = append(msgs, obj{"id": id(), "timestamp": c.next(), "type": "user", "content": t.prompt})
		for _, st := range t.steps {
			m := obj{"id": id(), "timestamp": c.next(), "type": "gemini", "content": st.text, "model": "gemini-2.5-pro",
				"tokens": obj{"input": st.input, "output": 50, "cached": st.input / 2, "thoughts": 30, "tool": 0, "total": st.input + 80}}
			var calls []obj
			for _, cl := range st.calls {
				cid := cl.name + "-" + cl.id
				calls = append(calls, obj{"id": cid, "name": cl.name, "args": cl.args, "status": "success", "timestamp": c.next(),
					"result": []obj{{"functionResponse": obj{"id": cid, "name": cl.name, "response": obj{"output": cl.result}}}}})
			}
			if calls != nil {
				m["toolCalls"] = calls
			}
			msgs = append(msgs, m)
		}
	}
	return obj{"sessionId": "3e5a7c9b-1d2f-4a6b-8c0d-e1f2a3b4c5d6", "projectHash": "5f2b8c1d9e4a7f3b6c0d2e8a1f5b9c3d7e0a4f6b8c2d5e9a1b3f7c0d4e6a8b2c",
		"startTime": s.start.Format("2006-01-02T15:04:05.000Z"), "lastUpdated": c.next(), "messages": msgs}
}

func writeFile(path string, fn func(l *lines)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	l := &lines{w: bufio.NewWriter(f)}
	fn(l)
	if err := l.w.Flush(); err != nil {
		f.Close()
		return err
	}
	if l.err != nil {
		f.Close()
		return l.err
	}
	return f.Close()
}

func writeDoc(path string, doc obj) error {
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func main() {
	turns := flag.Int("turns", 60, "turns per session")
	seed := flag.Uint64("seed", 7, "PRNG seed")
	out := flag.String("out", "testdata/transcripts", "sample directory")
	big := flag.Int64("big", 0, "write a harpe session of about this many bytes to stdout instead")
	flag.Parse()
	if *big > 0 {
		w := bufio.NewWriterSize(os.Stdout, 1<<20)
		l := &lines{w: w}
		var written int64
		for i := uint64(0); written < *big; i++ {
			s := gen(*seed+i, 50)
			cw := &countWriter{}
			l.w = bufio.NewWriter(cw)
			writeHarpe(l, s, -1)
			l.w.Flush()
			w.Write(cw.buf)
			written += int64(len(cw.buf))
		}
		if err := w.Flush(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	s := gen(*seed, *turns)
	mid := len(s.turns) / 2
	steps := []struct {
		path string
		fn   func(string) error
	}{
		{"harpe/long.jsonl", func(p string) error { return writeFile(p, func(l *lines) { writeHarpe(l, s, mid) }) }},
		{"openai/long.jsonl", func(p string) error { return writeFile(p, func(l *lines) { writeOpenAI(l, s) }) }},
		{"anthropic/long.json", func(p string) error { return writeDoc(p, anthropicDoc(s)) }},
		{"claude-code/long.jsonl", func(p string) error { return writeFile(p, func(l *lines) { writeClaudeCode(l, s, mid) }) }},
		{"codex/long.jsonl", func(p string) error { return writeFile(p, func(l *lines) { writeCodex(l, s, mid) }) }},
		{"gemini-cli/long.json", func(p string) error { return writeDoc(p, geminiCLIDoc(s)) }},
	}
	for _, st := range steps {
		p := filepath.Join(*out, st.path)
		if err := st.fn(p); err != nil {
			fmt.Fprintln(os.Stderr, "gen-transcripts:", err)
			os.Exit(1)
		}
	}
}

type countWriter struct{ buf []byte }

func (c *countWriter) Write(p []byte) (int, error) { c.buf = append(c.buf, p...); return len(p), nil }
