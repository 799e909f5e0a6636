// Prices every recorded response of the transcripts harpe reads with the
// npm package @pydantic/genai-prices (an independent implementation of
// the same database) and compares each session's total with harpe's
// recorded cost. Reads `harpe transcript --messages --format json` on
// stdin (one listing or an array of them); the calls of a Claude Code
// file that are not its conversation's (sidechain records, which harpe
// counts in the cost but lists no message for) are read from the file
// itself, one call per message.id, its last record's usage. Prints one
// line per session with recorded usage and exits 1 when one differs by
// more than 1%.
// Usage: harpe transcript --messages --format json DIR… | node prices-check.mjs PACKAGE_DIR
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const mod = await import(pathToFileURL(resolve(process.argv[2], "dist/index.js")).href);
await mod.waitForUpdate();
const input = JSON.parse(readFileSync(0, "utf8"));
const listings = Array.isArray(input) ? input : [input];
// A Bedrock id (region or vendor prefix, version suffix) is priced with
// the provider "aws", as harpe does when the id alone finds nothing.
const bedrock = /^(?:[a-z]{2,7}(?:-[a-z]+)?\.)?(?:anthropic|amazon|meta|mistral|cohere|ai21|deepseek|openai|qwen|writer|twelvelabs|moonshot)\.|-v\d+(?::\d+)?$/;
// sidechainCalls returns the calls of a Claude Code file that are not
// its conversation's: records whose isSidechain differs from the first
// message record's, one call per message.id (else uuid), with the first
// record's timestamp and model and the last record's usage, shaped as
// the listing's messages are.
function sidechainCalls(file) {
  const calls = new Map();
  let side;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    let r;
    try {
      r = JSON.parse(line);
    } catch {
      continue;
    }
    if (r.type !== "user" && r.type !== "assistant") continue;
    const s = !!r.isSidechain;
    side ??= s;
    if (s === side || r.type !== "assistant" || !r.message?.usage) continue;
    const u = r.message.usage;
    const usage = {
      input: u.input_tokens ?? 0,
      cache_read: u.cache_read_input_tokens ?? 0,
      cache_write: u.cache_creation_input_tokens ?? 0,
      cache_write_1h: u.cache_creation?.ephemeral_1h_input_tokens ?? 0,
      output: u.output_tokens ?? 0,
    };
    const id = r.message.id || r.uuid;
    const seen = calls.get(id);
    if (seen) seen.usage = usage;
    else calls.set(id, { index: `sidechain ${id}`, model: r.message.model, timestamp: r.timestamp, usage });
  }
  return [...calls.values()];
}

let bad = 0;
let sessions = 0;
for (const l of listings) {
  if (typeof l.cost_usd !== "number") continue;
  let usd = 0;
  let calls = 0;
  const unpriced = new Set();
  const refused = [];
  const unsent = l.format === "claude-code" ? sidechainCalls(l.file) : [];
  for (const m of [...(l.messages ?? []), ...unsent]) {
    if (!m.usage || !m.model) continue;
    const u = {};
    for (const k of ["input", "cache_read", "cache_write", "cache_write_1h", "output"]) u[k] = m.usage[k] ?? 0;
    calls++;
    const usage = {
      input_tokens: u.input + u.cache_read + u.cache_write,
      cache_read_tokens: u.cache_read,
      cache_write_tokens: u.cache_write,
      output_tokens: u.output,
    };
    if (u.cache_write_1h) usage.cache_write_1h_tokens = Math.min(u.cache_write_1h, u.cache_write);
    const opts = m.timestamp ? { timestamp: new Date(m.timestamp) } : {};
    let r;
    try {
      r = mod.calcPrice(usage, m.model, opts);
      if (!r && bedrock.test(m.model.toLowerCase())) r = mod.calcPrice(usage, m.model, { ...opts, providerId: "aws" });
      if (!r && m.model.includes("@")) r = mod.calcPrice(usage, m.model.replaceAll("@", "-"), opts);
    } catch (e) {
      refused.push(`${m.index}: ${e.message} ${JSON.stringify(m.usage)}`);
      continue;
    }
    if (!r) {
      unpriced.add(m.model);
      continue;
    }
    usd += r.total_price;
  }
  sessions++;
  const diff = usd === 0 ? (l.cost_usd === 0 ? 0 : Infinity) : (l.cost_usd - usd) / usd;
  const ok = Math.abs(diff) <= 0.01;
  if (!ok) bad++;
  let extra = unpriced.size ? ` unpriced: ${[...unpriced].sort().join(", ")}` : "";
  if (refused.length) extra += ` genai-prices refused messages ${refused.join("; ")}`;
  console.log(
    `${ok ? "ok  " : "DIFF"} ${l.file}${l.conversation ? "#" + l.conversation : ""}: ${calls} calls, harpe $${l.cost_usd.toFixed(6)}, genai-prices $${usd.toFixed(6)} (${(diff * 100).toFixed(3)}%)${extra}`,
  );
}
console.log(`${sessions} sessions, ${bad} differ by more than 1%`);
process.exit(bad ? 1 : 0);
