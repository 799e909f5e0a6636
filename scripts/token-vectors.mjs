#!/usr/bin/env node
// token-vectors.mjs [FILE]
//
// Fills the count columns of testdata/token_vectors.tsv (or FILE) from
// reference implementations, keeping the category and text columns:
//   o200k_base, cl100k_base  npm tiktoken (OpenAI's WASM binding),
//                            encode_ordinary, so special-token text is
//                            plain text;
//   estimate                 the SPEC §5 rule, written here in JavaScript
//                            independently of harpe's Go code.
// Text escapes: \\ \t \n \r and \u{HEX} for any code point.
// Also fills testdata/tokens/counts.tsv for the files in testdata/tokens/.
// Run it through scripts/update-token-vectors.sh, which installs tiktoken.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { get_encoding } from "tiktoken";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const file = process.argv[2] ?? join(root, "testdata/token_vectors.tsv");
const o200k = get_encoding("o200k_base");
const cl100k = get_encoding("cl100k_base");

export function unescape(s) {
  return s.replace(/\\(\\|t|n|r|u\{([0-9A-Fa-f]+)\})/g, (_, c, hex) => {
    if (hex) return String.fromCodePoint(parseInt(hex, 16));
    return { "\\": "\\", t: "\t", n: "\n", r: "\r" }[c];
  });
}

// estimate = max(pieces + hex_extra, chars / 4) per SPEC §5.
export function estimate(text) {
  const cps = [...text];
  let pieces = 0, hexExtra = 0, inWord = false, hexRun = 0;
  const endHex = () => {
    if (hexRun >= 8) hexExtra += Math.floor(hexRun / 3);
    hexRun = 0;
  };
  for (const ch of cps) {
    if (/^[0-9A-Fa-f]$/.test(ch)) hexRun++;
    else endHex();
    if (/^[A-Za-z0-9_]$/.test(ch)) {
      if (!inWord) pieces++;
      inWord = true;
      continue;
    }
    inWord = false;
    if (!/^\p{White_Space}$/u.test(ch)) pieces++;
  }
  endHex();
  return Math.max(pieces + hexExtra, Math.floor(cps.length / 4));
}

const count = (enc, text) => enc.encode_ordinary(text).length;

const lines = readFileSync(file, "utf8").split("\n").filter((l) => l !== "");
const header = lines[0];
const out = [header];
for (const line of lines.slice(1)) {
  const [category, escaped] = line.split("\t");
  const text = unescape(escaped);
  out.push([category, escaped, estimate(text), count(o200k, text), count(cl100k, text)].join("\t"));
}
writeFileSync(file, out.join("\n") + "\n");
console.error(`${file}: ${out.length - 1} vectors`);

const dir = join(root, "testdata/tokens");
let names = [];
try {
  names = readdirSync(dir).filter((n) => n.endsWith(".txt")).sort();
} catch {}
if (names.length > 0) {
  const rows = ["file\tbytes\testimate\to200k_base\tcl100k_base"];
  for (const n of names) {
    const text = readFileSync(join(dir, n), "utf8");
    rows.push([n, Buffer.byteLength(text), estimate(text), count(o200k, text), count(cl100k, text)].join("\t"));
  }
  writeFileSync(join(dir, "counts.tsv"), rows.join("\n") + "\n");
  console.error(`${dir}/counts.tsv: ${names.length} files`);
}
