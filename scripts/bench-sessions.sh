#!/usr/bin/env bash
# Times harpe over a tree of Claude Code sessions laid out as
# ~/.claude/projects is, against ccusage 20.0.24 (the usage reporter many
# Claude Code users run; its native Rust build, @ccusage/ccusage-linux-x64)
# listing the same sessions.
#
#   scripts/bench-sessions.sh [CLAUDE_DIR]
#
# CLAUDE_DIR is a directory holding projects/ as ~/.claude does (your own,
# or a tree of real public logs). Without it the script builds one: 40
# copies of the agent-loop session of testdata/agent/claude (230 calls,
# 2.3 MB, with its subagent file) and 120 chat sessions of 60 turns from
# scripts/gen-transcripts (seeds 1…120): 160 sessions, 200 files, about
# 170 MB, over 8 project directories, message, request and session ids made
# unique per copy (ccusage counts a response once across files).
#
# Two jobs, each harpe's against the same ccusage listing
# (`session --offline --json`, CLAUDE_CONFIG_DIR=CLAUDE_DIR):
#   summary  harpe transcript DIR -f json
#   replay   harpe replay DIR --strategy full,mask -f jsonl -o FILE
# Each command runs RUNS times (default 5), alternating; the medians of the
# wall-clock time, the CPU time (user + system) and the peak RSS are
# printed, then each job's ratio to ccusage. ccusage is installed from the
# npm registry into scripts/.peers/ccusage20 (git-ignored) on the first
# run. Needs go, node ≥ 20, npm and GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
given=${1:-}
agent=40
chat=120
turns=60
runs=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

peer=scripts/.peers/ccusage20
ccusage="$PWD/$peer/node_modules/@ccusage/ccusage-linux-x64/bin/ccusage"
if [ ! -f "$ccusage" ]; then
	mkdir -p "$peer"
	npm install --prefix "$peer" --no-package-lock --no-audit --no-fund \
		ccusage@20.0.24 @ccusage/ccusage-linux-x64@20.0.24 >/dev/null 2>&1
fi
# npm leaves the native binary without its execute bit (ccusage's own
# wrapper sets it on first use); it is timed directly, without node.
[ -x "$ccusage" ] || chmod +x "$ccusage"

go build -o "$tmp/harpe" .
if [ -n "$given" ]; then
	claude=$(cd "$given" && pwd)
	projects="$claude/projects"
	[ -d "$projects" ] || { echo "bench-sessions: $projects is not a directory" >&2; exit 2; }
	files=$(find "$projects" -name '*.jsonl' | wc -l)
	size=$(du -sm "$projects" | cut -f1)
	echo "$files files, $size MB under $projects"
else
claude="$tmp/claude"
projects="$claude/projects"
go build -o "$tmp/gen" ./scripts/gen-transcripts

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

fi
echo "cores: $(nproc), load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# timed NAME CMD…: one run, "NAME wall cpu rss" (seconds, seconds, MB).
timed() {
	local name=$1 t
	shift
	/usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >/dev/null 2>&1
	awk -v n="$name" '{printf "%s %s %.3f %.0f\n", n, $1, $2 + $3, $4 / 1024}' "$tmp/time"
}

# What each read, so a wrong path cannot pass for speed.
"$tmp/harpe" transcript -f json "$projects" 2>/dev/null >"$tmp/h.json"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1])).totals;
  console.log("harpe:   " + r.sessions + " sessions, input " + r.recorded.input + ", cache write " + r.recorded.cache_write + ", cache read " + r.recorded.cache_read + ", output " + r.recorded.output)' "$tmp/h.json"
CLAUDE_CONFIG_DIR="$claude" "$ccusage" session --offline --json >"$tmp/cc.json"
node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1])); const t = r.totals;
  console.log("ccusage: " + r.session.length + " sessions, input " + t.inputTokens + ", cache write " + t.cacheCreationTokens + ", cache read " + t.cacheReadTokens + ", output " + t.outputTokens)' "$tmp/cc.json"

for _ in $(seq "$runs"); do
	timed summary "$tmp/harpe" transcript -f json "$projects"
	timed replay "$tmp/harpe" replay "$projects" --strategy full,mask -f jsonl -o "$tmp/replay.jsonl"
	CLAUDE_CONFIG_DIR="$claude" timed ccusage "$ccusage" session --offline --json
done >"$tmp/runs"
node -e '
const rows = require("fs").readFileSync(process.argv[1], "utf8").trim().split("\n").map(l => l.split(" "));
const med = xs => { xs = xs.slice().sort((a, b) => a - b); const m = xs.length >> 1; return xs.length % 2 ? xs[m] : (xs[m - 1] + xs[m]) / 2; };
const of = (name, i) => med(rows.filter(r => r[0] === name).map(r => +r[i]));
const label = { summary: "harpe transcript DIR -f json", replay: "harpe replay DIR --strategy full,mask -f jsonl", ccusage: "ccusage 20.0.24 session --offline --json" };
for (const n of ["summary", "replay", "ccusage"])
  console.log(label[n].padEnd(50) + " wall " + of(n, 1).toFixed(3) + " s, CPU " + of(n, 2).toFixed(3) + " s, peak " + of(n, 3).toFixed(0) + " MB");
for (const n of ["summary", "replay"])
  console.log(n.padEnd(8) + " / ccusage: wall " + (of(n, 1) / of("ccusage", 1)).toFixed(2) + ", CPU " + (of(n, 2) / of("ccusage", 2)).toFixed(2) + ", memory " + (of(n, 3) / of("ccusage", 3)).toFixed(2));
console.log("medians of " + rows.filter(r => r[0] === "ccusage").length + " runs each, alternating");
' "$tmp/runs"
