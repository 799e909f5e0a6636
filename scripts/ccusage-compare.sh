#!/usr/bin/env bash
# Compares harpe's recorded usage and session cost with ccusage's on the
# Claude Code samples (or on a Claude config directory given as $1):
#
#   CLAUDE_CONFIG_DIR=DIR npx ccusage@18.0.11 session --offline --json
#
# against `harpe transcript --breakdown --format json FILE` (its "recorded"
# input, output, cache write and cache read tokens, and "cost_usd"), summed
# the way ccusage groups sessions (by the directory holding each file). ccusage
# 18.0.11 is installed into scripts/.peers/ccusage (git-ignored); version 20
# needs a native binary that is not served here. Needs node ≥ 20, npm, jq
# and Go. Nothing in harpe's tests uses it. Exit status 1 when a figure
# differs (tokens exactly, dollars by more than a millionth).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$(cd "${1:-$root/testdata/agent/claude}" && pwd)"
peer="$root/scripts/.peers/ccusage"
if [ ! -x "$peer/node_modules/.bin/ccusage" ]; then
  mkdir -p "$peer"
  npm install --prefix "$peer" --no-package-lock --no-audit --no-fund ccusage@18.0.11 >/dev/null
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/harpe" .)

CLAUDE_CONFIG_DIR="$dir" "$peer/node_modules/.bin/ccusage" session --offline --json >"$tmp/ccusage.json"
jq -r '.sessions[] | [.sessionId, .inputTokens, .outputTokens, .cacheCreationTokens, .cacheReadTokens, .totalCost] | @tsv' "$tmp/ccusage.json" | sort >"$tmp/ccusage.tsv"

find "$dir/projects" -name '*.jsonl' | sort | while read -r f; do
  "$tmp/harpe" transcript --breakdown --format json "$f" |
    jq -r --arg g "$(basename "$(dirname "$f")")" '.sessions[] | [$g, .recorded.input // 0, .recorded.output // 0, .recorded.cache_write // 0, .recorded.cache_read // 0, .cost_usd // 0] | @tsv'
done | awk -F'\t' '{for (i = 2; i <= 6; i++) s[$1, i] += $i; g[$1] = 1}
  END {for (k in g) printf "%s\t%d\t%d\t%d\t%d\t%.9f\n", k, s[k, 2], s[k, 3], s[k, 4], s[k, 5], s[k, 6]}' | sort >"$tmp/harpe.tsv"

printf '%-12s %-8s %10s %8s %10s %12s %12s\n' SESSION FROM INPUT OUTPUT CACHE_W CACHE_R COST
join -t $'\t' -a1 -a2 -e missing -o 0,1.2,1.3,1.4,1.5,1.6,2.2,2.3,2.4,2.5,2.6 "$tmp/harpe.tsv" "$tmp/ccusage.tsv" | awk -F'\t' '
  { printf "%-12s %-8s %10s %8s %10s %12s %12.6f\n", $1, "harpe", $2, $3, $4, $5, $6
    printf "%-12s %-8s %10s %8s %10s %12s %12.6f\n", "", "ccusage", $7, $8, $9, $10, $11
    for (i = 2; i <= 5; i++) if ($i == "missing" || $i != $(i + 5)) bad = 1
    if (($6 - $11) > 1e-6 || ($11 - $6) > 1e-6) bad = 1 }
  END { print (bad ? "DIFFERENT" : "equal: tokens exactly, cost within $0.000001"); exit bad }'
