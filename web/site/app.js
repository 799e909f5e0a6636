// harpe playground: the page's side. All the work is done by harpe.wasm
// (web/wasm over web/play): each call is harpe.call(name, JSON) → JSON,
// {"result": …} or {"error": "…"}. Nothing is sent anywhere.
"use strict";

const $ = (id) => document.getElementById(id);

// call runs one harpe function; it returns [result, error].
function call(name, args) {
  let out;
  try {
    out = JSON.parse(globalThis.harpe.call(name, JSON.stringify(args)));
  } catch (e) {
    return [null, String(e)];
  }
  return out.error ? [null, out.error] : [out.result, null];
}

function showError(id, msg) {
  const el = $(id);
  el.hidden = !msg;
  el.textContent = msg || "";
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function debounce(fn, ms) {
  let timer = 0;
  return () => { clearTimeout(timer); timer = setTimeout(fn, ms); };
}

// num reads a whole-number field; anything else throws, with the field's
// id, so the page shows what is wrong instead of sending a guess.
function num(id) {
  const v = $(id).value.trim();
  if (v === "") return 0;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${id}: "${v}" is not a whole number`);
  return n;
}

// --- exact encodings, fetched from this site on first need -------------

const tables = {}; // name → promise of the table's registration
const loaded = {}; // name → true once registered
function loadTable(name) {
  if (!tables[name]) {
    tables[name] = fetch(name + ".bin")
      .then((r) => { if (!r.ok) throw new Error(name + ".bin: HTTP " + r.status); return r.arrayBuffer(); })
      .then((buf) => {
        const out = JSON.parse(globalThis.harpe.loadEncoding(name, new Uint8Array(buf)));
        if (out.error) throw new Error(out.error);
        loaded[name] = true;
        refreshTokenizers();
      });
    tables[name].catch((e) => { delete tables[name]; setStatus("Could not load " + name + ": " + e.message); });
  }
  return tables[name];
}
const exactNames = ["o200k_base", "cl100k_base"];
function loadExact() { return Promise.all(exactNames.map(loadTable)); }

function refreshTokenizers() {
  const [info] = call("info", {});
  if (!info) return;
  for (const t of info.tokenizers) {
    const opt = $("tokenizer").querySelector(`option[value="${t.name}"]`);
    if (opt) opt.textContent = t.loaded ? t.name : t.name + " (loads on use)";
  }
}

// --- synthesize ----------------------------------------------------------

let firstReport = true;
function runSynthesize() {
  const tok = $("tokenizer").value;
  if (exactNames.includes(tok) && !loaded[tok]) {
    // The report comes once the table is here; the last one stays till then.
    $("totals").textContent = `Loading the ${tok} table…`;
    loadTable(tok).then(runSynthesize, () => {});
    return;
  }
  let args;
  try {
    args = {
      items: $("items").value,
      name: "items.jsonl",
      budget: num("budget"),
      reserve_output: num("reserve-output"),
      reserve_tools: num("reserve-tools"),
      safety_margin: $("safety-margin").value,
      policy: $("policy").value,
      tokenizer: tok,
      destination: $("destination").value,
    };
  } catch (e) {
    showError("synth-error", e.message);
    return;
  }
  const [res, err] = call("synthesize", args);
  showError("synth-error", err);
  if (err) return;
  const rep = res.report;
  const body = $("report").tBodies[0];
  body.replaceChildren();
  for (const r of res.rows) {
    const tr = document.createElement("tr");
    tr.dataset.id = r.id;
    tr.dataset.status = r.status;
    tr.dataset.reason = r.reason;
    cell(tr, r.id);
    cell(tr, r.reason === "confidential" ? "–" : String(r.tokens), "num");
    cell(tr, String(r.priority), "num");
    cell(tr, r.status);
    cell(tr, r.needed ? `${r.reason} (needs ${r.needed}, ${r.left} left)` : r.reason);
    body.appendChild(tr);
  }
  const kept = rep.kept.length;
  let totals = `${kept} kept, ${rep.dropped.length} dropped · ${rep.consumed_tokens} of ${rep.effective_budget} tokens used, ` +
    `${rep.remaining_tokens} left · available ${rep.budget.available} = ${rep.budget.total} − ${rep.budget.reserve_output} output − ` +
    `${rep.budget.reserve_tools} tools − ${rep.budget.safety_margin} margin · input ${rep.input.tokens} tokens, ${rep.saved_tokens} saved`;
  if (rep.over_budget) totals += ` · OVER BUDGET by ${rep.overflow_tokens}`;
  if (rep.skipped && rep.skipped.length) totals += ` · ${rep.skipped.length} lines skipped`;
  $("totals").textContent = totals;
  $("totals").dataset.consumed = rep.consumed_tokens;
  $("report-json").textContent = JSON.stringify(rep, null, 2);
  if (firstReport) {
    firstReport = false;
    // performance.now() counts from the start of the navigation.
    const ms = Math.round(performance.now());
    document.body.dataset.firstReportMs = ms;
    setStatus(`Ready: first report ${ms} ms after the page was requested.`);
  }
}

// --- count ---------------------------------------------------------------

function runCount() {
  const [res, err] = call("count", { text: $("count-text").value });
  const row = $("counts").tBodies[0].rows[0];
  if (err) { row.cells[0].textContent = err; return; }
  row.querySelector('[data-col="chars"]').textContent = res.chars;
  for (const c of res.counts) {
    const td = row.querySelector(`[data-col="${c.tokenizer}"]`);
    if (!td) continue;
    const loading = c.error && tables[c.tokenizer] && !loaded[c.tokenizer];
    td.textContent = !c.error ? String(c.tokens) : loading ? "loading…" : c.error.includes("not loaded") ? "not loaded" : c.error;
  }
}

// --- replay --------------------------------------------------------------

let lastTranscript = null;
function runReplay() {
  if (!lastTranscript) return;
  let cw;
  try { cw = num("context-window"); } catch (e) { showError("replay-error", e.message); return; }
  const [res, err] = call("replay", {
    transcript: lastTranscript.text,
    name: lastTranscript.name,
    context_window: cw,
  });
  showError("replay-error", err);
  const table = $("comparison");
  const body = table.tBodies[0];
  body.replaceChildren();
  $("plot").replaceChildren();
  if (err) { table.hidden = true; $("replay-title").textContent = ""; return; }
  let title = `${lastTranscript.name}: ${res.format} transcript, ${res.messages} messages, ${res.turns} turns`;
  if (res.conversations > 1) title += ` (conversation ${res.id}, the first of ${res.conversations})`;
  $("replay-title").textContent = title;
  $("replay-title").dataset.format = res.format;
  for (const s of res.strategies) {
    const tr = document.createElement("tr");
    tr.dataset.strategy = s.strategy;
    tr.dataset.sent = s.tokens_sent;
    cell(tr, s.strategy);
    cell(tr, String(s.calls), "num");
    cell(tr, String(s.tokens_sent), "num");
    cell(tr, (100 * s.saved_ratio).toFixed(1) + "%", "num");
    cell(tr, String(s.max_call_tokens), "num");
    cell(tr, String(s.compactions), "num");
    cell(tr, String(s.over_window_calls), "num");
    body.appendChild(tr);
  }
  table.hidden = false;
  // The SVG comes from harpe's own plotter (internal/svgplot), which
  // escapes every text it writes.
  $("plot").innerHTML = res.plot;
}

function takeFile(file) {
  file.text().then((text) => { lastTranscript = { name: file.name, text }; runReplay(); },
    (e) => showError("replay-error", file.name + ": " + e));
}

// --- dates ---------------------------------------------------------------

function runDates() {
  const [res, err] = call("dates", { text: $("dates-text").value, said_on: $("said-on").value });
  showError("dates-error", err);
  $("dates-out").textContent = err ? "" : res.text;
}

// --- wiring --------------------------------------------------------------

function setStatus(s) { $("status").textContent = s; }

function fillSelect(sel, names, chosen) {
  for (const n of names) {
    const o = document.createElement("option");
    o.value = n;
    o.textContent = n;
    if (n === chosen) o.selected = true;
    sel.appendChild(o);
  }
}

function start(sample) {
  const [info, err] = call("info", {});
  if (err) { setStatus(err); return; }
  fillSelect($("policy"), info.policies, info.default_policy);
  fillSelect($("tokenizer"), info.tokenizers.map((t) => t.name), "estimate");
  refreshTokenizers();
  $("items").value = sample;
  runSynthesize();
  runCount();
  runDates();

  const synth = debounce(runSynthesize, 120);
  for (const id of ["items", "budget", "reserve-output", "reserve-tools", "safety-margin"]) $(id).addEventListener("input", synth);
  for (const id of ["policy", "tokenizer", "destination"]) $(id).addEventListener("change", runSynthesize);

  const count = debounce(runCount, 120);
  $("count-text").addEventListener("input", () => { loadExact().then(runCount, () => {}); count(); });
  $("load-exact").addEventListener("click", () => { loadExact().then(() => { runCount(); runSynthesize(); }, () => {}); runCount(); });

  $("context-window").addEventListener("input", debounce(runReplay, 200));
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) takeFile(f);
  });
  $("file").addEventListener("change", (e) => { if (e.target.files[0]) takeFile(e.target.files[0]); });
  $("sample-transcript").addEventListener("click", () => {
    fetch("sample-transcript.jsonl").then((r) => r.text()).then((text) => {
      lastTranscript = { name: "sample-transcript.jsonl", text };
      runReplay();
    });
  });

  const dates = debounce(runDates, 120);
  $("dates-text").addEventListener("input", dates);
  $("said-on").addEventListener("input", dates);
}

async function boot() {
  const go = new Go();
  const sample = fetch("agent.jsonl").then((r) => r.text());
  let inst;
  try {
    inst = await WebAssembly.instantiateStreaming(fetch("harpe.wasm"), go.importObject);
  } catch (e) {
    // A server that does not send application/wasm: instantiate from bytes.
    const buf = await (await fetch("harpe.wasm")).arrayBuffer();
    inst = await WebAssembly.instantiate(buf, go.importObject);
  }
  const ready = new Promise((resolve) => { globalThis.harpeReady = resolve; });
  go.run(inst.instance);
  await ready;
  start(await sample);
}

boot().catch((e) => setStatus("Could not start harpe.wasm: " + e));
