// peer-trim.mjs: LangChain's trimMessages at every model-call boundary of a
// harpe-events transcript, the peer of `harpe replay --strategy windowed`.
//
//   node scripts/peer-trim.mjs FILE.jsonl WINDOW_CHARS
//
// Before each assistant reply it trims the history so far (aborted turns
// dropped) to WINDOW_CHARS with strategy "last", startOn "human",
// includeSystem, whole messages only, and a token counter that returns the
// messages' total characters (text plus tool-call names and arguments,
// as harpe counts them). It prints one JSON line: calls, messages kept in
// all, and the milliseconds spent in trimMessages, wall clock and CPU (the
// CPU figure is steadier on a shared machine). Install the peer first:
// scripts/install-peers.sh.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  trimMessages,
} from "@langchain/core/messages";

const [file, windowArg] = process.argv.slice(2);
if (!file || !windowArg) {
  console.error("usage: node scripts/peer-trim.mjs FILE.jsonl WINDOW_CHARS");
  process.exit(2);
}
const maxChars = Number(windowArg);

// Characters as harpe counts them: code points of the text, tool-call
// names and arguments.
const cp = (s) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const size = new WeakMap();
function chars(m) {
  let n = size.get(m);
  if (n === undefined) {
    n = cp(typeof m.content === "string" ? m.content : "");
    for (const tc of m.tool_calls ?? []) n += cp(tc.name) + cp(tc.argsText);
    size.set(m, n);
  }
  return n;
}
const tokenCounter = (msgs) => msgs.reduce((sum, m) => sum + chars(m), 0);

const history = []; // retained messages
let turnStart = -1; // index in history where the open turn starts
let calls = 0;
let kept = 0;
let trimMs = 0;
let cpuUs = 0;

for (const line of readFileSync(file, "utf8").split("\n")) {
  if (line.trim() === "") continue;
  const ev = JSON.parse(line);
  switch (ev.type) {
    case "system":
      history.push(new SystemMessage(ev.content ?? ""));
      break;
    case "user":
      turnStart = history.length;
      history.push(new HumanMessage(ev.content ?? ""));
      break;
    case "assistant": {
      // A model-call boundary: what would this call see?
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const window = await trimMessages(history, {
        maxTokens: maxChars,
        tokenCounter,
        strategy: "last",
        startOn: "human",
        includeSystem: true,
        allowPartial: false,
      });
      trimMs += performance.now() - t0;
      const c1 = process.cpuUsage(c0);
      cpuUs += c1.user + c1.system;
      calls++;
      kept += window.length;
      const toolCalls = (ev.tool_calls ?? []).map((tc) => {
        const argsText = typeof tc.arguments === "string" ? tc.arguments : JSON.stringify(tc.arguments ?? {});
        let args = {};
        try {
          args = JSON.parse(argsText);
        } catch {}
        return { id: tc.id, name: tc.name, args, argsText };
      });
      const m = new AIMessage({ content: ev.content ?? "", tool_calls: toolCalls });
      m.tool_calls = m.tool_calls.map((tc, i) => ({ ...tc, argsText: toolCalls[i].argsText }));
      history.push(m);
      break;
    }
    case "tool_result":
      history.push(new ToolMessage({ content: ev.content ?? "", tool_call_id: ev.tool_call_id }));
      break;
    case "abort":
      if (turnStart >= 0) history.length = turnStart;
      turnStart = -1;
      break;
  }
}
console.log(
  JSON.stringify({
    peer: "@langchain/core trimMessages",
    calls,
    kept,
    trim_ms: Math.round(trimMs),
    trim_cpu_ms: Math.round(cpuUs / 1000),
    cpu_ms_per_call: +(cpuUs / 1000 / Math.max(calls, 1)).toFixed(3),
  }),
);
