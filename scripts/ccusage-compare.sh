#!/usr/bin/env bash
# Compares harpe's session cost from recorded usage with ccusage's on the
# Claude Code samples (or on a Claude config directory given as $1):
#
#   CLAUDE_CONFIG_DIR=DIR npx ccusage@18.0.11 session --offline --json
#
# against `harpe transcript FILE --format json | jq .cost_usd` summed the way
# ccusage groups sessions (by the directory holding each file). ccusage
# 18.0.11 is installed into scripts/.peers/ccusage (git-ignored); version 20
# needs a native binary that is not served here. Needs node ≥ 20, npm, jq
# and Go. Nothing in harpe's tests uses it. Exit status 1 when a figure
# differs by more than a millionth of a dollar.
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
jq -r '.sessions[] | [.sessionId, .totalCost] | @tsv' "$tmp/ccusage.json" | sort >"$tmp/ccusage.tsv"

find "$dir/projects" -name '*.jsonl' | sort | while read -r f; do
  usd="$("$tmp/harpe" transcript --format json "$f" | jq '.cost_usd // 0')"
  printf '%s\t%s\n' "$(basename "$(dirname "$f")")" "$usd"
done | awk -F'\t' '{s[$1] += $2} END {for (k in s) printf "%s\t%.9f\n", k, s[k]}' | sort >"$tmp/harpe.tsv"

printf '%-40s %14s %14s\n' SESSION HARPE CCUSAGE
join -t $'\t' -a1 -a2 -e missing -o 0,1.2,2.2 "$tmp/harpe.tsv" "$tmp/ccusage.tsv" | awk -F'\t' '
  { printf "%-40s %14s %14s\n", $1, $2, $3
    if ($2 == "missing" || $3 == "missing" || ($2 - $3) > 1e-6 || ($3 - $2) > 1e-6) bad = 1
    h += $2; c += $3 }
  END { printf "%-40s %14.6f %14.6f\n", "total", h, c; exit bad }'
