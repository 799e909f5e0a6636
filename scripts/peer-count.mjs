#!/usr/bin/env node
// peer-count.mjs PEER ENCODING FILE...
//
// Counts the tokens of each FILE with a peer tokenizer and prints
// "<tokens> <file> <MB/s>" per file. PEER is "tiktoken" (OpenAI's official
// WASM binding) or "gpt-tokenizer" (pure JavaScript). ENCODING is o200k_base
// or cl100k_base. Special-token text is counted as plain text, as harpe does.
// Throughput is warm: module load and encoder setup are excluded, one
// untimed run comes first, then the best of --runs N (default 3) is kept.
// Install the peers first with scripts/install-peers.sh.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
let runs = 3;
const i = args.indexOf("--runs");
if (i >= 0) {
  runs = Number(args[i + 1]);
  args.splice(i, 2);
}
const [peer, encoding, ...files] = args;
if (!peer || !encoding || files.length === 0) {
  console.error("usage: peer-count.mjs tiktoken|gpt-tokenizer o200k_base|cl100k_base [--runs N] FILE...");
  process.exit(2);
}

let count;
if (peer === "tiktoken") {
  const { get_encoding } = await import("tiktoken");
  const enc = get_encoding(encoding);
  count = (text) => enc.encode_ordinary(text).length;
} else if (peer === "gpt-tokenizer") {
  const mod = await import(`gpt-tokenizer/encoding/${encoding}`);
  const opts = { disallowedSpecial: new Set() };
  count = (text) => mod.countTokens(text, opts);
} else {
  console.error(`peer-count: unknown peer ${JSON.stringify(peer)}; valid: tiktoken, gpt-tokenizer`);
  process.exit(2);
}

for (const file of files) {
  const text = readFileSync(file, "utf8");
  const bytes = Buffer.byteLength(text, "utf8");
  const n = count(text);
  let best = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = process.hrtime.bigint();
    count(text);
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9);
  }
  console.log(`${n} ${file} ${(bytes / 1e6 / best).toFixed(2)}`);
}
