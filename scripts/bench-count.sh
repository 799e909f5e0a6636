#!/usr/bin/env bash
# bench-count.sh [FILE...]
#
# Counts the same files with harpe and the two npm peers (tiktoken, the
# official WASM binding, and gpt-tokenizer) and prints counts, throughput
# and the ratios. Without FILE it builds a corpus of Go source from the
# local Go installation (net/http, ~1.9 MB) in scripts/.peers/.
#
#   harpe MB/s        whole process (`harpe count -t ENC FILE`), best of
#                     RUNS, start-up included; all cores (chunks in parallel)
#   harpe 1-core MB/s the same with GOMAXPROCS=1
#   peer MB/s         warm, module load excluded, best of RUNS
#                     (scripts/peer-count.mjs)
#   cold ms           whole process on a 1 KB file, mean of hyperfine runs
#                     (or a loop when hyperfine is not installed)
#
# Needs go, node and npm; the peers are installed on first use by
# scripts/install-peers.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."
ENC="${ENC:-o200k_base}"
RUNS="${RUNS:-5}"
bash scripts/install-peers.sh >&2
mkdir -p scripts/.peers
go build -o scripts/.peers/harpe .
H=scripts/.peers/harpe

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  corpus=scripts/.peers/go-net-http.txt
  if [ ! -s "$corpus" ]; then
    cat "$(go env GOROOT)"/src/net/http/*.go > "$corpus"
  fi
  files=("$corpus")
fi
small=scripts/.peers/1k.txt
head -c 1024 testdata/tokens/prose_en.txt > "$small"

now() { date +%s.%N; }
best_time() { # best wall time of RUNS runs of "$@"
  local best=999999 t0 t1 d
  for _ in $(seq "$RUNS"); do
    t0=$(now); "$@" > /dev/null; t1=$(now)
    d=$(echo "$t1 - $t0" | bc -l)
    if (( $(echo "$d < $best" | bc -l) )); then best=$d; fi
  done
  echo "$best"
}

echo "encoding $ENC, $(nproc) cores, $(uname -m), node $(node --version), $(go version | cut -d' ' -f3)"
for f in "${files[@]}"; do
  bytes=$(wc -c < "$f")
  mb=$(echo "$bytes / 1000000" | bc -l)
  hc=$($H count -t "$ENC" "$f" | cut -d' ' -f1)
  ht=$(best_time "$H" count -t "$ENC" "$f")
  h1=$(GOMAXPROCS=1 best_time "$H" count -t "$ENC" "$f")
  read -r tc _ tmb < <(node scripts/peer-count.mjs tiktoken "$ENC" --runs "$RUNS" "$f")
  read -r gc _ gmb < <(node scripts/peer-count.mjs gpt-tokenizer "$ENC" --runs "$RUNS" "$f")
  hmb=$(echo "$mb / $ht" | bc -l)
  h1mb=$(echo "$mb / $h1" | bc -l)
  printf '%s (%d bytes)\n' "$f" "$bytes"
  printf '  %-14s %9s tokens %8.2f MB/s\n' "harpe" "$hc" "$hmb"
  printf '  %-14s %9s tokens %8.2f MB/s\n' "harpe 1 core" "$hc" "$h1mb"
  printf '  %-14s %9s tokens %8.2f MB/s\n' "tiktoken" "$tc" "$tmb"
  printf '  %-14s %9s tokens %8.2f MB/s\n' "gpt-tokenizer" "$gc" "$gmb"
  printf '  ratios: harpe/gpt-tokenizer %.2f (1 core %.2f), harpe/tiktoken %.2f (1 core %.2f)\n' \
    "$(echo "$hmb / $gmb" | bc -l)" "$(echo "$h1mb / $gmb" | bc -l)" \
    "$(echo "$hmb / $tmb" | bc -l)" "$(echo "$h1mb / $tmb" | bc -l)"
  if [ "$hc" != "$tc" ] || [ "$gc" != "$tc" ]; then echo "  COUNTS DIFFER"; fi
done

echo "cold start on a 1 KB file ($small):"
if command -v hyperfine > /dev/null; then
  hyperfine -N --warmup 3 --runs 30 --export-json scripts/.peers/cold.json \
    "$H count -t $ENC $small" \
    "node scripts/peer-count.mjs tiktoken $ENC --runs 0 $small" \
    "node scripts/peer-count.mjs gpt-tokenizer $ENC --runs 0 $small" 2>&1 | grep -E 'Benchmark|Time'
else
  for cmd in "$H count -t $ENC $small" "node scripts/peer-count.mjs tiktoken $ENC --runs 0 $small"; do
    echo "  $cmd: best $(RUNS=20 best_time $cmd) s"
  done
fi
