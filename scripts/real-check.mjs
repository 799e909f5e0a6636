// Checks harpe's figures on saved agent sessions nobody here wrote. For
// each session file it reads the provider's usage records itself (not
// through harpe), prices each response once, from its last record, with
// the npm package @pydantic/genai-prices, and compares that with what
// `harpe transcript` and `harpe replay` say. Prints one line per session
// with the figures and PASS/FAIL per check, then a summary; exits 1 when
// a check failed. No network: harpe, the prices package and (optionally)
// ccusage must be on disk already. scripts/real-check.sh is the way in.
//
// Usage: node real-check.mjs HARPE PRICES_DIR CCUSAGE_BIN|- FILE…
//
// Where a Claude Code session's records write only 1-hour cache entries
// the line says ttl=1h; replay is run without --cache-ttl, as a user
// would, and takes the TTL from the records itself.
//
// Checks (docs/real-sessions.md says why each bound):
//   cost     harpe's recorded cost vs the independent pricing, within 1%
//   full     replay's modelled cost of `full` vs the recorded bill, within 2%
//   cache    the pure cache model agrees with the recorded reads on ≥ 95%
//            of calls (first-party Anthropic sessions only, else n/a)
//   priced   no call of a model genai-prices prices is unpriced by harpe
//   books    every priced call of full, clear, mask, cheapest and
//            clear:auto (and of the window run) balances: cache read +
//            cache write + uncached = the tokens it sends
//   cheapest cheapest ≤ full, clear, mask and clear:auto
//   auto     clear:auto ≤ 1.01 × full
//   window   with --context-window at 60% of full's largest call:
//            cheapest leaves no call over it where windowed leaves none,
//            and costs no more than full, clear, mask or clear:auto
//            where they leave as few over
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [harpe, pricesDir, ccusageBin, ...files] = process.argv.slice(2);
if (!harpe || !pricesDir || !ccusageBin || files.length === 0) {
  console.error("usage: node real-check.mjs HARPE PRICES_DIR CCUSAGE_BIN|- FILE…");
  process.exit(2);
}
const prices = await import(pathToFileURL(resolve(pricesDir, "dist/index.js")).href);
await prices.waitForUpdate();

// ---------------------------------------------------------------- records

// Reads a file's usage records the way its provider writes them. Returns
// {format, provider, calls: [{model, timestamp, usage}], firstParty} or
// null when the file is none of the session formats.
function readRecords(path) {
  const text = readFileSync(path, "utf8");
  const head = text.slice(0, 4096).trimStart();
  if (head.startsWith("{") && !head.includes("\n{") && /"projectHash"|"messages"\s*:/.test(text.slice(0, 65536))) {
    try {
      const doc = JSON.parse(text);
      if (doc.info && Array.isArray(doc.messages) && doc.messages[0]?.parts) return openCode(doc);
      return geminiCLI(doc);
    } catch {
      // not one JSON document: fall through to the line formats
    }
  }
  const lines = text.split("\n");
  const recs = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    for (const piece of objects(line)) {
      try {
        recs.push(JSON.parse(piece));
      } catch {
        // a half-written last line: harpe skips it too
      }
    }
  }
  if (recs.some((r) => r.type === "session_meta" || r.type === "turn_context")) return codex(recs);
  if (recs.some((r) => r.type === "session.start" || r.type === "session.shutdown")) return copilot(recs);
  if (recs[0]?.projectHash !== undefined && recs[0]?.sessionId !== undefined) return geminiJSONL(recs);
  if (recs.some((r) => r.type === "assistant" && r.message)) return claudeCode(recs);
  return null;
}

// objects splits a line into the JSON objects written back to back on
// it (a record appended to a file whose last line had no newline); a
// line of one object, or one that does not split, is returned whole.
function objects(line) {
  const out = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === "{") {
      if (depth++ === 0) start = i;
    } else if (ch === "}" && --depth === 0) {
      out.push(line.slice(start, i + 1));
    }
  }
  return out.length > 1 ? out : [line];
}

// Claude Code: one record per content block; every record of a response
// carries its usage as it stood then, final only on the last one. Group
// by message.id (Bedrock ids have no requestId), keep the last record.
// Only top-level assistant records count: `progress` records quote a
// subagent's messages, which its own file under subagents/ bills.
function claudeCode(recs) {
  const byId = new Map();
  let firstParty = true;
  for (const r of recs) {
    if (r.type !== "assistant" || !r.message?.usage) continue;
    const m = r.message;
    if (m.model === "<synthetic>") continue;
    const id = m.id ?? r.requestId ?? r.uuid;
    if (/^msg_(bdrk|vrtx)_/.test(id ?? "")) firstParty = false;
    byId.delete(id); // re-insert: the last record's position and usage
    byId.set(id, { model: m.model, timestamp: r.timestamp, u: m.usage, fast: m.usage.speed === "fast" });
  }
  const calls = [];
  for (const { model, timestamp, u, fast } of byId.values()) {
    const read = u.cache_read_input_tokens ?? 0;
    const write = u.cache_creation_input_tokens ?? 0;
    const w1h = u.cache_creation?.ephemeral_1h_input_tokens ?? 0;
    const usage = {
      input_tokens: (u.input_tokens ?? 0) + read + write,
      cache_read_tokens: read,
      cache_write_tokens: write,
      output_tokens: u.output_tokens ?? 0,
    };
    if (w1h) usage.cache_write_1h_tokens = Math.min(w1h, write);
    calls.push({ model: fast ? model + "-fast" : model, std: model, fast, timestamp, usage });
  }
  const writes = calls.reduce((n, c) => n + c.usage.cache_write_tokens, 0);
  const long = calls.reduce((n, c) => n + (c.usage.cache_write_1h_tokens ?? 0), 0);
  // Claude Code writes 1-hour cache entries in some setups and 5-minute
  // ones in others; replay assumes 5m unless told (docs/real-sessions.md).
  const ttl = writes > 0 && long >= 0.99 * writes ? "1h" : "5m";
  return { format: "claude-code", provider: firstParty ? "anthropic" : "aws", firstParty, calls, ttl };
}

// Codex: a token_count event after each response, whose last_token_usage
// is that response (input includes the cached part, output the reasoning).
// Codex repeats the event with an unchanged total: count a call only when
// total_token_usage moved. The model is the latest turn_context's.
function codex(recs) {
  let model = null;
  let lastTotal = null;
  const calls = [];
  for (const r of recs) {
    const p = r.payload ?? {};
    if (r.type === "turn_context" && p.model) model = p.model;
    if (r.type !== "event_msg" || p.type !== "token_count" || !p.info?.last_token_usage) continue;
    const total = JSON.stringify(p.info.total_token_usage ?? null);
    if (total === lastTotal) continue;
    lastTotal = total;
    const u = p.info.last_token_usage;
    calls.push({
      model,
      timestamp: r.timestamp,
      usage: {
        input_tokens: u.input_tokens ?? 0,
        cache_read_tokens: u.cached_input_tokens ?? 0,
        output_tokens: u.output_tokens ?? 0,
      },
    });
  }
  return { format: "codex", provider: "openai", firstParty: false, calls };
}

// Gemini CLI: one "gemini" message per response with its tokens: input is
// the prompt (cached part included), thoughts are billed as output, tool
// is the tool-use prompt, billed as input.
function geminiCLI(doc) {
  const calls = [];
  for (const m of doc.messages ?? []) {
    if (m.type !== "gemini" || !m.tokens) continue;
    const t = m.tokens;
    calls.push({
      model: m.model,
      timestamp: m.timestamp,
      usage: {
        input_tokens: (t.input ?? 0) + (t.tool ?? 0),
        cache_read_tokens: t.cached ?? 0,
        output_tokens: (t.output ?? 0) + (t.thoughts ?? 0),
      },
    });
  }
  return { format: "gemini-cli", provider: "google", firstParty: false, calls };
}

// Gemini CLI JSON Lines (v0.39+): a header line (sessionId, projectHash,
// kind), then each message a line; a message written again (its tokens
// arrive later) replaces the earlier line of the same id, {"$set": {...}}
// patches the header (a "messages" array there replaces them all), and
// {"$rewindTo": id} drops that message and every later one.
function geminiJSONL(recs) {
  let msgs = [];
  for (const r of recs.slice(1)) {
    if (r.$set) {
      if (Array.isArray(r.$set.messages)) msgs = [...r.$set.messages];
      continue;
    }
    if (r.$rewindTo !== undefined) {
      const i = msgs.findIndex((m) => m.id === r.$rewindTo);
      if (i >= 0) msgs = msgs.slice(0, i);
      continue;
    }
    if (!r.id) continue;
    const i = msgs.findIndex((m) => m.id === r.id);
    if (i >= 0) msgs[i] = r;
    else msgs.push(r);
  }
  return geminiCLI({ messages: msgs });
}

// Copilot CLI events.jsonl: assistant.message carries its outputTokens
// only; each session.shutdown (one per run of the CLI) carries the run's
// usage per model in modelMetrics, inputTokens holding the cache reads
// and writes. One call per model per shutdown; a reply after the last
// shutdown (a run that ended without one) is a call of its output alone.
function copilot(recs) {
  const calls = [];
  let pending = [];
  let current = null; // the model in use: session.start's, then each change's
  for (const r of recs) {
    if (r.type === "session.start" || r.type === "session.resume") current = r.data?.selectedModel ?? current;
    if (r.type === "session.model_change") current = r.data?.newModel ?? current;
    if (r.type === "assistant.message") {
      pending.push({
        model: r.data?.model || current,
        timestamp: r.timestamp,
        usage: { input_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0, output_tokens: r.data?.outputTokens ?? 0 },
      });
      continue;
    }
    if (r.type !== "session.shutdown") continue;
    pending = [];
    for (const [model, m] of Object.entries(r.data?.modelMetrics ?? {})) {
      const u = m.usage ?? {};
      calls.push({
        model,
        timestamp: r.timestamp,
        usage: {
          input_tokens: u.inputTokens ?? 0,
          cache_read_tokens: u.cacheReadTokens ?? 0,
          cache_write_tokens: u.cacheWriteTokens ?? 0,
          output_tokens: u.outputTokens ?? 0,
        },
      });
    }
  }
  calls.push(...pending);
  return { format: "copilot-cli", provider: "github", firstParty: false, calls };
}

// OpenCode export: each step-finish part with tokens is one call; a
// message whose steps recorded none counts its own tokens once. input is
// the uncached prompt; the output is total less the prompt when total is
// written (the provider's figure: OpenAI's output already holds the
// reasoning), else output + reasoning.
function openCode(doc) {
  const calls = [];
  let provider = "openai";
  const any = (t) => t && ["input", "output", "reasoning"].some((k) => (t[k] ?? 0) !== 0) ||
    (t?.cache && ((t.cache.read ?? 0) !== 0 || (t.cache.write ?? 0) !== 0));
  for (const m of doc.messages ?? []) {
    if (m.info?.role !== "assistant") continue;
    provider = m.info.providerID ?? provider;
    const steps = (m.parts ?? []).filter((p) => p.type === "step-finish" && any(p.tokens)).map((p) => p.tokens);
    for (const t of steps.length ? steps : any(m.info.tokens) ? [m.info.tokens] : []) {
      const read = t.cache?.read ?? 0, write = t.cache?.write ?? 0;
      const prompt = (t.input ?? 0) + read + write;
      calls.push({
        model: m.info.modelID,
        timestamp: m.info.time?.created,
        usage: {
          input_tokens: prompt,
          cache_read_tokens: read,
          cache_write_tokens: write,
          output_tokens: t.total != null ? t.total - prompt : (t.output ?? 0) + (t.reasoning ?? 0),
        },
      });
    }
  }
  return { format: "opencode", provider, firstParty: false, calls };
}

// fastFactor is fast mode's price over the standard one for an Anthropic
// model, read from genai-prices' own listings of the fast model (0.1.8
// lists it only through resellers: github-copilot, openrouter), input
// price against input price; null when none lists it.
function fastFactor(model, timestamp) {
  const want = (model + "-fast").toLowerCase();
  const dotted = model.replace(/-(\d+)-(\d+)$/, "-$1.$2") + "-fast";
  const opts = timestamp ? { timestamp: new Date(timestamp) } : {};
  const std = prices.calcPrice({ input_tokens: 1e6 }, model, { ...opts, providerId: "anthropic" });
  for (const [id, providerId] of [[dotted, "github-copilot"], ["anthropic/" + dotted, "openrouter"]]) {
    try {
      const r = prices.calcPrice({ input_tokens: 1e6 }, id, { ...opts, providerId });
      const got = r?.model?.id?.toLowerCase().split("/").pop().replaceAll(".", "-");
      if (r && std && got === want) return r.total_price / std.total_price;
    } catch {
      // not listed there
    }
  }
  return null;
}

// Prices one call; null when genai-prices knows no price for the model.
// A Claude Code fast-mode call: the standard model's price × fastFactor.
function price(c, provider) {
  if (c.fast) {
    const k = fastFactor(c.std, c.timestamp);
    const p = k == null ? null : price({ ...c, fast: false, model: c.std }, provider);
    return p == null ? null : p * k;
  }
  const opts = c.timestamp ? { timestamp: new Date(c.timestamp) } : {};
  // A Bedrock session's ids name Anthropic's model: priced as harpe and
  // prices-check.mjs do, by the id first, Bedrock's prices only when the
  // id alone finds none (Bedrock's regional endpoints cost more).
  const tries = provider === "aws" ? [opts, { ...opts, providerId: provider }] : [{ ...opts, providerId: provider }, opts];
  for (const o of tries) {
    try {
      const r = prices.calcPrice(c.usage, c.model, o);
      if (r) return r.total_price;
    } catch {
      // an unknown provider id: try without it
    }
  }
  return null;
}

// ---------------------------------------------------------------- harpe

function runJSON(args) {
  const out = execFileSync(harpe, args, { maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
  return JSON.parse(out.toString("utf8"));
}

// ccusage 20, side by side (Claude Code only): one offline run per file,
// over a config directory holding that file alone (copied: ccusage 20
// does not follow symbolic links; one run per file because ccusage 20
// counts a response once across all the files of a run, as harpe does
// within one run). Returns file → {cost, input, output, cache_read,
// cache_write, models} from its `.session[]`.
function ccusageRun(list) {
  const out = new Map();
  if (ccusageBin === "-") return out;
  for (const f of list) {
    const dir = mkdtempSync(join(tmpdir(), "real-check-"));
    try {
      const p = join(dir, "projects", "p");
      mkdirSync(p, { recursive: true });
      copyFileSync(resolve(f), join(p, basename(f)));
      const res = execFileSync(ccusageBin, ["session", "--offline", "--json"], {
        env: { ...process.env, CLAUDE_CONFIG_DIR: dir },
        maxBuffer: 1 << 28,
        stdio: ["ignore", "pipe", "ignore"],
      });
      const c = { cost: 0, input: 0, output: 0, cache_read: 0, cache_write: 0, models: new Set() };
      for (const s of JSON.parse(res.toString("utf8")).session ?? []) {
        c.cost += s.totalCost;
        c.input += s.inputTokens;
        c.output += s.outputTokens;
        c.cache_read += s.cacheReadTokens;
        c.cache_write += s.cacheCreationTokens;
        for (const m of s.modelsUsed ?? []) c.models.add(m);
      }
      out.set(f, { ...c, models: [...c.models].sort().join("+") || "none" });
    } catch (e) {
      console.error(`ccusage failed on ${f}: ${e.message.split("\n")[0]}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

// ---------------------------------------------------------------- checks

const pct = (a, b) => (b === 0 ? (a === 0 ? 0 : Infinity) : ((a - b) / b) * 100);
const usd = (x) => (x == null ? "-" : "$" + x.toFixed(4));
const sessions = [];
for (const f of files) {
  const rec = readRecords(f);
  if (!rec || rec.calls.length === 0) continue;
  sessions.push({ f, rec });
}
const cc = ccusageRun(sessions.filter((s) => s.rec.format === "claude-code").map((s) => s.f));

const names = ["tokens", "cost", "full", "cache", "priced", "books", "cheapest", "auto", "window"];
const edited = "full,clear,mask,cheapest,clear:auto";
const tally = Object.fromEntries(names.map((n) => [n, { PASS: 0, FAIL: 0, "n/a": 0 }]));
let failed = 0;
const ccTally = { same: 0, differ: 0 };
for (const { f, rec } of sessions) {
  let indep = 0;
  const knownModels = new Set();
  const unknown = new Set();
  for (const c of rec.calls) {
    const p = price(c, rec.provider);
    if (p == null) unknown.add(c.model);
    else {
      indep += p;
      knownModels.add(c.model);
    }
  }
  let listing, replay;
  try {
    listing = runJSON(["transcript", "--format", "json", f]);
    replay = runJSON(["replay", "--format", "json", "--strategy", edited, f]);
  } catch (e) {
    failed++;
    console.log(`FAIL ${f}: harpe: ${(e.stderr?.toString() || e.message).split("\n")[0]}`);
    continue;
  }
  const t = listing.totals ?? {};
  const harpeCost = t.cost_usd ?? 0;
  // replay's JSON: `totals` is one entry per strategy (older builds wrote
  // `strategies[].totals`, with each call).
  const perStrategy = replay.strategies ?? [];
  const st = Object.fromEntries(
    perStrategy.length ? perStrategy.map((s) => [s.strategy, s.totals]) : (Array.isArray(replay.totals) ? replay.totals : []).map((s) => [s.strategy, s]),
  );
  const full = st.full ?? {};
  // Calls whose record reads more than full's replay does (by over 128
  // tokens): a cache warm from elsewhere that the replay did not take as
  // evidence (docs/real-sessions.md, quirks 2 to 4; 0 where the record is
  // taken both ways).
  const fullCalls = perStrategy.find((s) => s.strategy === "full")?.calls ?? [];
  const above = fullCalls.filter((c) => c.recorded && c.cache && c.recorded.cache_read > c.cache.read + 128).length;
  const bill = full.recorded_cost_usd ?? harpeCost;
  const agree = full.recorded_agreement?.share;
  const unpricedHarpe = new Set([...(full.unpriced_models ?? []), ...(t.unpriced_models ?? []).map((u) => u.model ?? u)]);
  const wronglyUnpriced = [...unpricedHarpe].filter((m) => knownModels.has(m));

  const res = {};
  // tokens: harpe's recorded sums equal the records' (harpe's input is the
  // uncached part: the prompt less the cache reads and writes).
  const want = { calls: rec.calls.length, input: 0, cache_read: 0, cache_write: 0, output: 0 };
  for (const c of rec.calls) {
    const u = c.usage;
    want.input += u.input_tokens - (u.cache_read_tokens ?? 0) - (u.cache_write_tokens ?? 0);
    want.cache_read += u.cache_read_tokens ?? 0;
    want.cache_write += u.cache_write_tokens ?? 0;
    want.output += u.output_tokens ?? 0;
  }
  const got = t.recorded ?? {};
  const diff = Object.keys(want).filter((k) => (got[k] ?? 0) !== want[k]);
  res.tokens = diff.length ? "FAIL" : "PASS";
  const dCost = pct(harpeCost, indep);
  res.cost = Math.abs(dCost) <= 1 ? "PASS" : "FAIL";
  const dFull = pct(full.cost_usd ?? 0, bill);
  // Copilot CLI records a prompt's size only in a run's totals, so no
  // call has a recorded prompt for replay to meet: full is n/a there.
  res.full = full.cost_usd == null || rec.format === "copilot-cli" ? "n/a" : Math.abs(dFull) <= 2 ? "PASS" : "FAIL";
  res.cache = !rec.firstParty || agree == null ? "n/a" : agree >= 0.95 ? "PASS" : "FAIL";
  res.priced = wronglyUnpriced.length ? "FAIL" : "PASS";
  const eps = 1e-9;
  const others = ["full", "clear", "mask", "clear:auto"].map((n) => st[n]?.cost_usd).filter((v) => v != null);
  res.cheapest = st.cheapest?.cost_usd == null ? "n/a" : others.every((v) => st.cheapest.cost_usd <= v + eps) ? "PASS" : "FAIL";
  // books: each priced call's parts add up to what it sends.
  const unbalanced = [];
  const books = (run, tag) => {
    for (const s of run.strategies ?? []) {
      for (const c of s.calls ?? []) {
        if (!c.cache) continue;
        const sum = c.cache.read + c.cache.write + c.cache.uncached;
        if (sum !== c.tokens) unbalanced.push(`${tag}${s.strategy} call ${c.call}: ${sum} ≠ ${c.tokens}`);
      }
    }
  };
  books(replay, "");
  // window: the same strategies and windowed under 60% of the largest call.
  let win = null;
  const limit = Math.floor(0.6 * (full.max_call_tokens ?? 0));
  if (limit > 0 && full.cost_usd != null) {
    try {
      const run = runJSON(["replay", "--format", "json", "--context-window", String(limit), "--strategy", edited + ",windowed", f]);
      books(run, "window ");
      win = Object.fromEntries((run.strategies ?? []).map((s) => [s.strategy, s.totals]));
    } catch (e) {
      win = { error: (e.stderr?.toString() || e.message).split("\n")[0] };
    }
  }
  res.books = unbalanced.length ? "FAIL" : "PASS";
  let winNote = "";
  if (win == null) res.window = "n/a";
  else if (win.error) {
    res.window = "FAIL";
    winNote = ` | window run: ${win.error}`;
  } else {
    const ch = win.cheapest, wd = win.windowed;
    // windowed is held to its calls over, not its cost: it drops to its
    // own character budget, more than the limit needs (a plan of clears
    // and of the drops the limit forces is not bound to cost less).
    const fewer = Object.entries(win).filter(([n, v]) => n !== "cheapest" && n !== "windowed" && v.over_window_calls <= ch.over_window_calls);
    const dearer = fewer.filter(([, v]) => v.cost_usd != null && ch.cost_usd > v.cost_usd + eps).map(([n]) => n);
    // Where windowed leaves calls over too, cheapest may leave more: its
    // drops are of whole old turns, windowed's reach into the active
    // turn (said on the line, not failed).
    const ok = (wd.over_window_calls > 0 || ch.over_window_calls === 0) && dearer.length === 0;
    res.window = ok ? "PASS" : "FAIL";
    winNote = ` window=${limit}: cheapest ${usd(ch.cost_usd)} over ${ch.over_window_calls}, windowed ${usd(wd.cost_usd)} over ${wd.over_window_calls}` +
      (ch.over_window_calls > wd.over_window_calls ? " (cheapest leaves more over than windowed)" : "") +
      (dearer.length ? ` (cheapest dearer than ${dearer.join(", ")})` : "");
  }
  const auto = st["clear:auto"] ?? st["full+clear:auto"];
  res.auto = auto?.cost_usd == null ? "n/a" : auto.cost_usd <= 1.01 * (full.cost_usd ?? 0) + eps ? "PASS" : "FAIL";
  for (const n of names) tally[n][res[n]]++;
  const bad = names.some((n) => res[n] === "FAIL");
  if (bad) failed++;
  const models = [...new Set(rec.calls.map((c) => c.model))].sort().join("+");
  // Where ccusage 20 reads the file otherwise: each figure that differs.
  let ccu = "";
  if (cc.has(f)) {
    const c = cc.get(f);
    const d = ["input", "output", "cache_read", "cache_write"].filter((k) => c[k] !== (got[k] ?? 0));
    if (Math.abs(c.cost - harpeCost) > 1e-6) d.push("cost");
    ccTally[d.length ? "differ" : "same"]++;
    ccu = ` ccusage20=${usd(c.cost)}` +
      (d.length ? ` (differs: ${d.map((k) => (k === "cost" ? `cost harpe ${usd(harpeCost)} ccusage ${usd(c.cost)}` : `${k} harpe ${got[k] ?? 0} ccusage ${c[k]}`)).join(", ")}; ccusage models ${c.models})` : " (same)");
  }
  console.log(
    `${bad ? "FAIL" : "PASS"} ${f} ${rec.format} ${rec.calls.length} calls ${models}: ` +
      `recorded=${usd(harpeCost)} genai-prices=${usd(indep)} (${dCost.toFixed(2)}%) ` +
      `full=${usd(full.cost_usd)} (${dFull.toFixed(2)}% of bill ${usd(bill)}) ` +
      (rec.ttl === "1h" ? "ttl=1h " : "") +
      `agree=${agree == null ? "-" : (agree * 100).toFixed(1) + "%"} ` +
      `above=${fullCalls.length ? above : "-"} cheapest=${usd(st.cheapest?.cost_usd)} auto=${usd(auto?.cost_usd)}${winNote}${ccu} | ` +
      names.map((n) => `${n}:${res[n]}`).join(" ") +
      (diff.length ? ` | tokens differ: ${diff.map((k) => `${k} harpe ${got[k] ?? 0} records ${want[k]}`).join(", ")}` : "") +
      (unbalanced.length ? ` | unbalanced: ${unbalanced.slice(0, 3).join("; ")}${unbalanced.length > 3 ? ` and ${unbalanced.length - 3} more` : ""}` : "") +
      (unknown.size ? ` | genai-prices knows no ${[...unknown].join(", ")}` : "") +
      (wronglyUnpriced.length ? ` | harpe leaves unpriced ${wronglyUnpriced.join(", ")}` : ""),
  );
}
console.log(
  `${sessions.length} sessions, ${failed} with a failed check; ` +
    names.map((n) => `${n} ${tally[n].PASS}/${tally[n].PASS + tally[n].FAIL}`).join(", ") +
    (ccTally.same + ccTally.differ ? `; ccusage 20 same as harpe on ${ccTally.same} of ${ccTally.same + ccTally.differ} Claude Code files` : ""),
);
process.exit(failed ? 1 : 0);
