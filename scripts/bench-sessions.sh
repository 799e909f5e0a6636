#!/usr/bin/env bash
# Times harpe on a tree of generated Claude Code sessions laid out as
# ~/.claude/projects is, against ccusage (the usage reporter many Claude
# Code users run) merely totalling the same sessions' usage.
#
#   scripts/bench-sessions.sh [SESSIONS] [TURNS]
#
# SESSIONS (default 40) sessions of TURNS turns (default 60; about 560 KB
# each) come from scripts/gen-transcripts with seeds 1…SESSIONS, spread
# over 8 project directories, with message and request ids made unique per
# session (ccusage deduplicates on them). harpe runs `replay --strategy full
# --totals` and `transcript --breakdown` over the directory; ccusage runs
# `daily --offline --json` with CLAUDE_CONFIG_DIR pointing at the tree.
# CPU time (user + system, best of 3) is compared; it is steadier than wall
# time on a shared machine. ccusage 18.0.11 is installed from the npm
# registry into a temporary directory on each run (nothing is kept). Needs
# go, node ≥ 20 and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-40}
turns=${2:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/harpe" .
go build -o "$tmp/gen" ./scripts/gen-transcripts
for i in $(seq 1 "$n"); do
	mkdir -p "$tmp/g"/{harpe,openai,anthropic,claude-code,codex,gemini-cli}
	"$tmp/gen" -seed "$i" -turns "$turns" -out "$tmp/g" >/dev/null
	dir="$tmp/claude/projects/-src-shop-$((i % 8))"
	mkdir -p "$dir"
	sed -e "s/\"msg_01/\"msg_${i}_/g" -e "s/\"req_/\"req_${i}_/g" -e "s/5b0f3c1e-9a7d-4e2b-8c61-2d4f6a8b0c1e/5b0f3c1e-9a7d-4e2b-8c61-$(printf %012d "$i")/g" \
		"$tmp/g/claude-code/long.jsonl" >"$dir/$(printf '5b0f3c1e-9a7d-4e2b-8c61-%012d' "$i").jsonl"
done
rm -rf "$tmp/g"
size=$(du -sm "$tmp/claude/projects" | cut -f1)
echo "$n sessions, $size MB under $tmp/claude/projects"

# cpu_ms CMD…: "CPU WALL", the best user+system and the best wall-clock
# milliseconds of 3 runs.
cpu_ms() {
	local best="" wbest="" t c w
	for _ in 1 2 3; do
		TIMEFORMAT='%U %S %R'
		t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
		c=$(awk '{printf "%d", ($1 + $2) * 1000}' <<<"$t")
		w=$(awk '{printf "%d", $3 * 1000}' <<<"$t")
		if [ -z "$best" ] || [ "$c" -lt "$best" ]; then best=$c; fi
		if [ -z "$wbest" ] || [ "$w" -lt "$wbest" ]; then wbest=$w; fi
	done
	echo "$best $wbest"
}

read -r replay replay_w <<<"$(cpu_ms "$tmp/harpe" replay --strategy full --totals "$tmp/claude/projects")"
read -r breakdown breakdown_w <<<"$(cpu_ms "$tmp/harpe" transcript --breakdown "$tmp/claude/projects")"
echo "harpe replay --strategy full --totals: ${replay} ms CPU, ${replay_w} ms wall"
echo "harpe transcript --breakdown: ${breakdown} ms CPU, ${breakdown_w} ms wall"

npm install --prefix "$tmp/npm" --no-package-lock --no-audit --no-fund ccusage@18.0.11 >/dev/null 2>&1
ccusage="$tmp/npm/node_modules/.bin/ccusage"
# What ccusage read, so a wrong CLAUDE_CONFIG_DIR cannot pass for speed.
CLAUDE_CONFIG_DIR="$tmp/claude" "$ccusage" daily --offline --json >"$tmp/cc.json"
node -e 'const t = JSON.parse(require("fs").readFileSync(process.argv[1])).totals;
  console.log("ccusage totals: input " + t.inputTokens + ", cache write " + t.cacheCreationTokens + ", cache read " + t.cacheReadTokens + ", output " + t.outputTokens)' "$tmp/cc.json"
read -r cc cc_w <<<"$(CLAUDE_CONFIG_DIR="$tmp/claude" cpu_ms "$ccusage" daily --offline --json)"
echo "ccusage 18.0.11 daily --offline --json: ${cc} ms CPU, ${cc_w} ms wall"
awk -v cc="$cc" -v r="$replay" -v b="$breakdown" -v ccw="$cc_w" -v rw="$replay_w" -v bw="$breakdown_w" 'BEGIN{
	printf "of ccusage'"'"'s time, replay full takes %.2f (CPU) %.2f (wall); the breakdown %.2f (CPU) %.2f (wall)\n",
		r / (cc > 0 ? cc : 1), rw / (ccw > 0 ? ccw : 1), b / (cc > 0 ? cc : 1), bw / (ccw > 0 ? ccw : 1)
}'
