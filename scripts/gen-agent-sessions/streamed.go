package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"time"
)

// runStreamed writes the streamed Claude Code samples in out (a Claude
// config directory, testdata/agent/streamed/claude), from a generator of
// their own seeded with seed+1, so that the samples above keep their bytes:
//
//   - -src-api/<session>.jsonl: a long first-party session (claude-opus-4-5,
//     Claude Code 2.1.x, 1-hour cache writes as subscriptions write them),
//     3 prompts and 320 calls, each response streamed as one record per
//     content block with output_tokens growing to the final figure on the
//     last record (see [writeCall]); requestId on every record.
//   - -src-web/<session>.jsonl: the same on Amazon Bedrock
//     (claude-sonnet-4-5, 5-minute writes): msg_bdrk_… ids and no
//     requestId, 140 calls.
//   - -src-cli/<session>.jsonl: a session (claude-sonnet-4-5) whose Task
//     calls run subagents (claude-haiku-4-5) written inline as sidechain
//     records before the Task result, streamed too and without requestId;
//     60 main calls, 3 subagent runs of 12 calls.
//
// The usage is made as for the other Claude Code samples (each call's
// prompt is the overhead plus its counted window, cache fields by the
// provider's rule), with a subagent's calls worked out on its own steps.
func runStreamed(seed uint64, out string) error {
	s := seed + 1
	g := &gen{r: rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15)), now: time.Date(2026, 11, 26, 8, 3, 51, 207e6, time.UTC)}
	projects := filepath.Join(out, "claude/projects")

	// The long first-party session.
	const api = "3f8a0c2e-71d4-4b59-a6e3-5c9d1e7b2a40"
	tok := claudeOverhead
	steps := []step{{kind: kPrompt, at: g.now, text: "The API's p99 latency doubled after last week's release. Profile the request path, find the regression and fix it."}}
	steps, model := g.agentTurn(steps, "claude-opus-4-5-20251101", 130, -1, "", 150000, claudeOverhead, &tok)
	g.advance(3*time.Minute, 8*time.Minute)
	steps = append(steps, step{kind: kPrompt, at: g.now, text: "Good. Add a benchmark that would have caught it, and run it against the previous release."})
	steps, model = g.agentTurn(steps, model, 110, -1, "", 150000, claudeOverhead, &tok)
	g.advance(2*time.Minute, 4*time.Minute)
	steps = append(steps, step{kind: kPrompt, at: g.now, text: "Write up the cause and the fix in docs/perf.md, with the benchmark figures."})
	steps, _ = g.agentTurn(steps, model, 80, -1, "", 150000, claudeOverhead, &tok)
	if err := renderClaudeTTL(filepath.Join(projects, "-src-api", api+".jsonl"), steps,
		ccOpts{session: api, streamed: true, version: "2.1.42"}, claudeOverhead, g.r, time.Hour); err != nil {
		return err
	}

	// The Bedrock session.
	const web = "b62e4d17-09c3-4a8f-8e21-7d3f5a6c9b04"
	g.now = time.Date(2026, 11, 26, 13, 40, 12, 880e6, time.UTC)
	tok = claudeOverhead
	steps = []step{{kind: kPrompt, at: g.now, text: "The checkout page double-submits orders on slow networks. Find why and fix it."}}
	steps, _ = g.agentTurn(steps, "claude-sonnet-4-5-20250929", 140, -1, "", 150000, claudeOverhead, &tok)
	if err := renderClaude(filepath.Join(projects, "-src-web", web+".jsonl"), steps,
		ccOpts{session: web, streamed: true, bedrock: true, version: "2.1.42"}, claudeOverhead, g.r); err != nil {
		return err
	}

	// The session with inline subagent runs.
	const cli = "e4a19b3c-5d26-4f70-b8c1-2a6e9d0f4c73"
	g.now = time.Date(2026, 11, 27, 10, 15, 2, 341e6, time.UTC)
	tok = claudeOverhead
	steps = []step{{kind: kPrompt, at: g.now, text: "Find every command of the CLI whose --help text disagrees with its flags, and fix them."}}
	steps, _ = g.agentTurn(steps, "claude-sonnet-4-5-20250929", 60, -1, "", 150000, claudeOverhead, &tok)
	if err := g.addSubagents(steps, []int{5, 22, 41}); err != nil {
		return err
	}
	return renderClaude(filepath.Join(projects, "-src-cli", cli+".jsonl"), steps,
		ccOpts{session: cli, streamed: true, version: "2.1.42"}, claudeOverhead, g.r)
}

// addSubagents turns the first tool call of the calls at the given
// positions (among steps' calls) into Task calls, each running a subagent
// of 12 calls written inline; its usage is worked out from its own steps.
func (g *gen) addSubagents(steps []step, at []int) error {
	calls := 0
	for i := range steps {
		if steps[i].kind != kCall {
			continue
		}
		calls++
		for _, want := range at {
			if calls != want+1 || len(steps[i].uses) == 0 {
				continue
			}
			x := &steps[i].uses[0]
			prompt := fmt.Sprintf("List the flags of the %s command and every place its help text names a flag. Report mismatches with file:line.", g.pick(pkgs))
			x.tool, x.input = "Task", obj{"description": "Check help text", "prompt": prompt, "subagent_type": "Explore"}
			save := g.now
			g.now = steps[i].at.Add(time.Second)
			tok := subagentOverhead
			sub := []step{{kind: kPrompt, at: g.now, text: prompt}}
			sub, _ = g.agentTurn(sub, "claude-haiku-4-5-20251001", 12, -1, "", 150000, subagentOverhead, &tok)
			g.now = save
			data := writeClaudeCode(sub, ccOpts{session: "side", sidechain: true}, placeholder)
			vis, err := visible(data, "claude-code")
			if err != nil {
				return fmt.Errorf("subagent: %v", err)
			}
			x.side, x.sideUsage = sub, claudeUsage(sub, vis, subagentOverhead, g.r)
			x.result = sub[len(sub)-1].text
		}
	}
	return nil
}
