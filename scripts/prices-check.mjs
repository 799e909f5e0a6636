// Prices every recorded response of the transcripts harpe reads with the
// npm package @pydantic/genai-prices (an independent implementation of
// the same database) and compares each session's total with harpe's
// recorded cost. Reads `harpe transcript --format json` on stdin (one
// listing or an array of them). Prints one line per session with recorded
// usage and exits 1 when one differs by more than 1%.
// Usage: harpe transcript --format json DIR… | node prices-check.mjs PACKAGE_DIR
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
let bad = 0;
let sessions = 0;
for (const l of listings) {
  if (typeof l.cost_usd !== "number") continue;
  let usd = 0;
  let calls = 0;
  const unpriced = new Set();
  const refused = [];
  for (const m of l.messages ?? []) {
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
