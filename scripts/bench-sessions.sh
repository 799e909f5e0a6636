#!/usr/bin/env bash
# Times harpe replaying a tree of Claude Code sessions laid out as
# ~/.claude/projects is, against ccusage (the usage reporter many Claude
# Code users run) merely totalling the same sessions' usage.
#
#   scripts/bench-sessions.sh [AGENT] [CHAT] [TURNS]
#
# The tree holds AGENT (default 40) copies of the agent-loop session of
# testdata/agent/claude (2 prompts, 230 calls, 2.3 MB, with its subagent
# file, 0.3 MB) and CHAT (default 120) chat sessions of TURNS turns
# (default 60, about 560 KB each) from scripts/gen-transcripts with seeds
# 1…CHAT: 160 sessions, 200 files, about 170 MB by default, spread over 8
# project directories. Message ids, request ids and session ids are made
# unique per copy (ccusage deduplicates on the first two).
#
# harpe runs `replay --strategy full,mask --totals` (the row per session and
# strategy and the grand totals) and `replay --strategy full --totals` over
# the tree; ccusage runs `daily --offline --json` with CLAUDE_CONFIG_DIR
# pointing at it. Each command runs 3 times; the best wall-clock and the
# best CPU (user + system) times are printed, and the ratio of harpe's to
# ccusage's. ccusage 18.0.11 is installed from the npm registry into
# scripts/.peers/ccusage (git-ignored) on the first run. Needs go, node ≥ 20
# and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
agent=${1:-40}
chat=${2:-120}
turns=${3:-60}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peer=scripts/.peers/ccusage
if [ ! -x "$peer/node_modules/.bin/ccusage" ]; then
	mkdir -p "$peer"
	npm install --prefix "$peer" --no-package-lock --no-audit --no-fund ccusage@18.0.11 >/dev/null 2>&1
fi
ccusage="$PWD/$peer/node_modules/.bin/ccusage"

go build -o "$tmp/harpe" .
go build -o "$tmp/gen" ./scripts/gen-transcripts
projects="$tmp/claude/projects"

# Agent-loop copies: the session and its subagent file, ids made unique.
src=testdata/agent/claude/projects/-src-shop
sid=7c1e5a9d-3b2f-4e8a-9d61-0f4b2c8e6a17
for i in $(seq 1 "$agent"); do
	new=$(printf '7c1e5a9d-3b2f-4e8a-9d61-%012d' "$i")
	dir="$projects/-src-shop-$((i % 8))"
	mkdir -p "$dir/$new/subagents"
	uniq=(-e "s/\"msg_01/\"msg_a${i}_01/g" -e "s/\"req_/\"req_a${i}_/g" -e "s/$sid/$new/g")
	sed "${uniq[@]}" "$src/$sid.jsonl" >"$dir/$new.jsonl"
	sed "${uniq[@]}" "$src/$sid/subagents/agent-a3f9c2e1.jsonl" >"$dir/$new/subagents/agent-a3f9c2e1.jsonl"
done
# Chat sessions, one seed each.
for i in $(seq 1 "$chat"); do
	mkdir -p "$tmp/g"/{harpe,openai,anthropic,claude-code,codex,gemini-cli}
	"$tmp/gen" -seed "$i" -turns "$turns" -out "$tmp/g" >/dev/null
	dir="$projects/-src-app-$((i % 8))"
	mkdir -p "$dir"
	new=$(printf '5b0f3c1e-9a7d-4e2b-8c61-%012d' "$i")
	sed -e "s/\"msg_01/\"msg_c${i}_/g" -e "s/\"req_/\"req_c${i}_/g" -e "s/5b0f3c1e-9a7d-4e2b-8c61-2d4f6a8b0c1e/$new/g" \
		"$tmp/g/claude-code/long.jsonl" >"$dir/$new.jsonl"
done
rm -rf "$tmp/g"
files=$(find "$projects" -name '*.jsonl' | wc -l)
size=$(du -sm "$projects" | cut -f1)
echo "$((agent + chat)) sessions ($agent agent loops with subagents, $chat chats), $files files, $size MB under $projects"
echo "cores: $(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# best CMD…: "CPU WALL", the best user+system and the best wall-clock
# milliseconds of 3 runs.
best() {
	local cbest="" wbest="" t c w
	for _ in 1 2 3; do
		TIMEFORMAT='%U %S %R'
		t=$({ time "$@" >/dev/null 2>&1; } 2>&1)
		c=$(awk '{printf "%d", ($1 + $2) * 1000}' <<<"$t")
		w=$(awk '{printf "%d", $3 * 1000}' <<<"$t")
		if [ -z "$cbest" ] || [ "$c" -lt "$cbest" ]; then cbest=$c; fi
		if [ -z "$wbest" ] || [ "$w" -lt "$wbest" ]; then wbest=$w; fi
	done
	echo "$cbest $wbest"
}

# What each read, so a wrong path cannot pass for speed.
"$tmp/harpe" replay --strategy full,mask --totals --format json "$projects" 2>/dev/null >"$tmp/h.json"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1]));
  for (const t of r.totals) console.log("harpe " + t.strategy + ": " + t.sessions + " files, " + t.calls + " calls, " + t.tokens_sent + " tokens sent (saved " + (100 * t.saved_ratio).toFixed(1) + "%)")' "$tmp/h.json"
CLAUDE_CONFIG_DIR="$tmp/claude" "$ccusage" daily --offline --json >"$tmp/cc.json"
node -e 'const t = JSON.parse(require("fs").readFileSync(process.argv[1])).totals;
  console.log("ccusage totals: input " + t.inputTokens + ", cache write " + t.cacheCreationTokens + ", cache read " + t.cacheReadTokens + ", output " + t.outputTokens)' "$tmp/cc.json"

read -r mask mask_w <<<"$(best "$tmp/harpe" replay --strategy full,mask --totals "$projects")"
read -r full full_w <<<"$(best "$tmp/harpe" replay --strategy full --totals "$projects")"
read -r cc cc_w <<<"$(CLAUDE_CONFIG_DIR="$tmp/claude" best "$ccusage" daily --offline --json)"
echo "harpe replay --strategy full,mask --totals: ${mask_w} ms wall, ${mask} ms CPU"
echo "harpe replay --strategy full --totals:      ${full_w} ms wall, ${full} ms CPU"
echo "ccusage 18.0.11 daily --offline --json:     ${cc_w} ms wall, ${cc} ms CPU"
awk -v cc="$cc" -v ccw="$cc_w" -v m="$mask" -v mw="$mask_w" -v f="$full" -v fw="$full_w" 'BEGIN{
	printf "of ccusage'"'"'s time, full,mask takes %.2f (wall) %.2f (CPU); full alone %.2f (wall) %.2f (CPU)\n",
		mw / (ccw > 0 ? ccw : 1), m / (cc > 0 ? cc : 1), fw / (ccw > 0 ? ccw : 1), f / (cc > 0 ? cc : 1)
}'
