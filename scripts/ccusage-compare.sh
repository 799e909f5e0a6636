#!/usr/bin/env bash
# Compares harpe's totals of recorded usage and cost with ccusage 20's on
# the Claude Code samples (or on a Claude config directory given as $1,
# one holding projects/ as ~/.claude does):
#
#   CLAUDE_CONFIG_DIR=DIR ccusage session --offline --json      (.totals)
#   harpe transcript DIR -f json                                 (.totals)
#
# Both count a response recorded in several files (the same message.id and
# requestId) once; see docs/cost.md. ccusage 20.0.24 (npm `ccusage` with its
# native build `@ccusage/ccusage-linux-x64`, run directly, without node) is
# installed into scripts/.peers/ccusage20 (git-ignored) on the first run.
# Needs npm, jq and Go. Nothing in harpe's tests uses it. Exit status 1
# when a figure differs (tokens exactly, dollars by more than a millionth).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(cd "${1:-$root/testdata/agent/claude}" && pwd)"
peer="$root/scripts/.peers/ccusage20"
ccusage="$peer/node_modules/@ccusage/ccusage-linux-x64/bin/ccusage"
if [ ! -f "$ccusage" ]; then
  mkdir -p "$peer"
  npm install --prefix "$peer" --no-package-lock --no-audit --no-fund \
    ccusage@20.0.24 @ccusage/ccusage-linux-x64@20.0.24 >/dev/null 2>&1
fi
# npm leaves the native binary without its execute bit.
[ -x "$ccusage" ] || chmod +x "$ccusage"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/harpe" .)

CLAUDE_CONFIG_DIR="$dir" "$ccusage" session --offline --json |
  jq -r '.totals | [.inputTokens, .outputTokens, .cacheCreationTokens, .cacheReadTokens, .totalCost] | @tsv' >"$tmp/ccusage.tsv"
"$tmp/harpe" transcript "$dir/projects" -f json 2>"$tmp/harpe.err" |
  jq -r '.totals | [.recorded.input, .recorded.output, .recorded.cache_write, .recorded.cache_read, (.cost_usd // 0), (.repeated_responses // 0)] | @tsv' >"$tmp/harpe.tsv"

echo "harpe: $(grep -c warning "$tmp/harpe.err" || true) warnings on stderr (not shown)"
printf '%-16s %12s %10s %12s %14s %14s\n' FROM INPUT OUTPUT CACHE_W CACHE_R COST
paste "$tmp/harpe.tsv" "$tmp/ccusage.tsv" | awk -F'\t' '
  { printf "%-16s %12s %10s %12s %14s %14.6f\n", "harpe", $1, $2, $3, $4, $5
    printf "%-16s %12s %10s %12s %14s %14.6f\n", "ccusage 20.0.24", $7, $8, $9, $10, $11
    printf "(harpe left out %d copies of responses an earlier file records)\n", $6
    for (i = 1; i <= 4; i++) if ($i != $(i + 6)) bad = 1
    if (($5 - $11) > 1e-6 || ($11 - $5) > 1e-6) bad = 1 }
  END { print (bad ? "DIFFERENT" : "equal: tokens exactly, cost within $0.000001"); exit bad }'
