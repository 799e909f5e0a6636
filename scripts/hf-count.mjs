// hf-count.mjs TOKENIZER.json FILE... prints "FILE<TAB>COUNT" per file, as
// Hugging Face tokenizers (npm tokenizers, installed by compare-hf.sh)
// counts it with special tokens not added. With --ids it prints the ids
// too. With --time it prints the load and count times on stderr.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '.peers/hf/package.json'));
const { Tokenizer } = require('tokenizers');

const args = process.argv.slice(2);
const ids = args.includes('--ids');
const time = args.includes('--time');
const [file, ...texts] = args.filter((a) => !a.startsWith('--'));
const t0 = performance.now();
const tok = Tokenizer.fromFile(file);
tok.disableTruncation();
tok.disablePadding();
const t1 = performance.now();
for (const f of texts) {
  const enc = await tok.encode(readFileSync(f, 'utf8'), null, { addSpecialTokens: false });
  const out = [f, enc.getIds().length];
  if (ids) out.push(JSON.stringify(enc.getIds()));
  console.log(out.join('\t'));
}
if (time) console.error(`load ${(t1 - t0).toFixed(0)} ms, count ${(performance.now() - t1).toFixed(0)} ms`);
