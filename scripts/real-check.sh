#!/usr/bin/env bash
# Checks harpe's figures on a directory of real saved sessions (Claude Code
# projects, Codex rollouts, Gemini CLI chats) against an independent reading
# of their usage records, priced with the npm package @pydantic/genai-prices,
# and shows ccusage 20's figures beside Claude Code sessions, naming each
# one that differs from harpe's. One line per session
# with the figures and PASS/FAIL per check, then a summary; exit status 1
# when a check failed. docs/real-sessions.md says what each check means.
#
#   scripts/real-check.sh DIR|FILE…
#
# No network and no files in the repository are needed beyond the source:
# the peers must be installed already (scripts/prices-check.sh installs the
# prices package into scripts/.peers/prices, or symlink an install there;
# ccusage 20.0.24 is the native binary that scripts/ccusage-compare.sh
# installs into scripts/.peers/ccusage20, or CCUSAGE=path; without it the
# column is left out). HARPE=path uses that binary instead of building one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
[ $# -gt 0 ] || { echo "usage: scripts/real-check.sh DIR|FILE…" >&2; exit 2; }
prices="$root/scripts/.peers/prices/node_modules/@pydantic/genai-prices"
if [ ! -f "$prices/dist/index.js" ]; then
  echo "real-check: $prices is missing; run scripts/prices-check.sh once (it installs it)" >&2
  exit 2
fi
ccusage="${CCUSAGE:-$root/scripts/.peers/ccusage20/node_modules/@ccusage/ccusage-linux-x64/bin/ccusage}"
[ -x "$ccusage" ] || ccusage=-
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
bin="${HARPE:-}"
if [ -z "$bin" ]; then
  bin="$tmp/harpe"
  (cd "$root" && go build -o "$bin" .)
fi
# Every .jsonl and .json file below the arguments, sorted, one a line.
files=()
while IFS= read -r f; do files+=("$f"); done < <(
  for a in "$@"; do
    if [ -d "$a" ]; then find "$a" -type f \( -name '*.jsonl' -o -name '*.json' \); else echo "$a"; fi
  done | LC_ALL=C sort
)
[ ${#files[@]} -gt 0 ] || { echo "real-check: no .jsonl or .json files in $*" >&2; exit 2; }
node "$root/scripts/real-check.mjs" "$bin" "$prices" "$ccusage" "${files[@]}"
