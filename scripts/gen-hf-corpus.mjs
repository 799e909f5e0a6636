// gen-hf-corpus.mjs DIR writes the generated half of compare-hf.sh's
// corpus into DIR, the same bytes on every run (a seeded generator):
// long runs without separators, mixed scripts, emoji, JSON, code.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
mkdirSync(dir, { recursive: true });
let seed = 22;
const rnd = (n) => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed % n;
};
const pick = (a) => a[rnd(a.length)];
const put = (name, text) => writeFileSync(path.join(dir, name), text);

// Separator-less runs: one letter, digits, base64, hex, CJK, spaces, NULs.
put('run_a.txt', 'a'.repeat(200000));
put('run_digits.txt', Array.from({ length: 100000 }, () => rnd(10)).join(''));
const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
put('run_base64.txt', Array.from({ length: 150000 }, () => pick(b64)).join(''));
put('run_hex.txt', Array.from({ length: 100000 }, () => pick('0123456789abcdef')).join(''));
const cjk = '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系计或司利受光王果亲界及今京务制解各任至清物台象记边共风战干接它许八特觉望直服毛林题建南度统色字请交爱让认算论百吃义科怎元社术结六功指思非流每青管夫连远资队跟带花快条院变联言权往展该领传近留红治决周保达办运武半候七必城父强步完革深区即求品士转量空甚众技轻程告江语英基派满式李息写呢识极令黄德收脸钱党倒未持取设始版双历越史商千片容研像找友孩站广改议形委早房音火际则首单据导影失拿网香似斯专石若兵弟谁校读志飞观争究包组造落视济喜离虽坏兴破传';
put('run_cjk.txt', Array.from({ length: 60000 }, () => pick(cjk)).join(''));
put('run_spaces.txt', ' '.repeat(50000) + 'x' + '\t \n'.repeat(20000));
put('run_nul.txt', '\0'.repeat(30000) + '\u00e9'.repeat(30000));

// Emoji with modifiers and joiners, mixed with text.
const emoji = ['😀', '👍🏽', '👨‍👩‍👧‍👦', '🇫🇷', '❤️', '🤖', '✅', '🔥', '🧑🏿‍💻', '⚠️'];
const words = ['the', 'agent', 'calls', 'a', 'tool', 'and', 'reads', 'its', 'result', "don't", "it's", 'Über', 'naïve', 'café', 'résumé', 'Straße', 'ΑΒΓ', 'привет', 'مرحبا', 'שלום', 'नमस्ते', 'こんにちは', 'カタカナ', '한국어', 'ไทย'];
let mix = '';
while (mix.length < 200000) {
  const r = rnd(10);
  mix += r < 6 ? pick(words) : r < 8 ? pick(emoji) : pick(['.', ',', '!', '?', ' -- ', '...', '"', "'s", '\n', '\n\n', '  ', '\t', '123', '4567', '3.14', '1,000,000']);
  mix += rnd(4) ? ' ' : '';
}
put('mixed.txt', mix);

// JSON and code, as tool results carry them.
const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: pick(words) + '_' + rnd(1000), ok: !!rnd(2), score: rnd(100000) / 1000, tags: [pick(words), pick(emoji)], path: `/home/user/src/pkg${rnd(50)}/file_${rnd(500)}.go` }));
put('json_rows.json', JSON.stringify(rows, null, 2));
put('json_compact.json', JSON.stringify(rows));
let code = '';
for (let i = 0; i < 1500; i++) {
  code += `func handler${i}(w http.ResponseWriter, r *http.Request) {\n\tif err := r.ParseForm(); err != nil {\n\t\thttp.Error(w, "bad form: "+err.Error(), 400)\n\t\treturn\n\t}\n\tx := ${rnd(1e6)} // ${pick(words)} ${pick(words)}\n\tfmt.Fprintf(w, "%d\\n", x*${rnd(99)})\n}\n\n`;
}
put('code.go.txt', code);
// Special-token text: counted as added tokens.
put('special.txt', '<|endoftext|> <|im_start|>user\nhi<|im_end|> <s> </s> <unk> <start_of_turn>model\n<|begin_of_text|><｜begin▁of▁sentence｜> <|start|>assistant<|channel|>final<|message|>ok<|return|>\n');
