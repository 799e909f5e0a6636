#!/usr/bin/env bash
# Times `harpe replay --strategy windowed` against LangChain's trimMessages
# called at every model-call boundary (scripts/peer-trim.mjs), on the same
# generated transcript of 1,000 turns (a prompt and a reply each), and
# harpe alone at 10,000 turns to show it scales linearly.
#
#   scripts/bench-replay.sh [WINDOW_CHARS]    (AGENT=0 skips the agent-loop part)
#
# CPU time (user + system) is compared: it is steadier than wall-clock time
# on a shared machine. harpe's figure is the whole process (reading,
# counting, replaying, writing JSONL), the best of 5 runs; LangChain's is
# the time inside trimMessages alone, one run. Needs go, node ≥ 20 and the
# peer (installed on first use by scripts/install-peers.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-40000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

go build -o "$tmp/harpe" .
go run ./scripts/gen-turns -turns 1000 -no-tools >"$tmp/t1000.jsonl"
go run ./scripts/gen-turns -turns 10000 -no-tools >"$tmp/t10000.jsonl"

# cpu_ms FILE: best user+system milliseconds of 5 runs of harpe on FILE.
cpu_ms() {
	local best="" t
	for _ in 1 2 3 4 5; do
		TIMEFORMAT='%U %S'
		t=$({ time "$tmp/harpe" replay --strategy windowed --window-chars "$window" --format jsonl "$1" >/dev/null; } 2>&1)
		t=$(awk '{printf "%d", ($1 + $2) * 1000}' <<<"$t")
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	echo "$best"
}

calls=$("$tmp/harpe" replay --strategy windowed --window-chars "$window" --format jsonl "$tmp/t1000.jsonl" | wc -l)
h1=$(cpu_ms "$tmp/t1000.jsonl")
h10=$(cpu_ms "$tmp/t10000.jsonl")
echo "harpe replay windowed, 1,000 turns ($calls calls): ${h1} ms CPU, whole process"
echo "harpe replay windowed, 10,000 turns: ${h10} ms CPU ($(awk -v a="$h1" -v b="$h10" 'BEGIN{printf "%.1f", b / (a > 0 ? a : 1)}')× the 1,000-turn time)"

bash scripts/install-peers.sh >&2
peer=$(node scripts/peer-trim.mjs "$tmp/t1000.jsonl" "$window")
echo "LangChain trimMessages, 1,000 turns: $peer"
lc=$(sed -E 's/.*"trim_cpu_ms":([0-9]+).*/\1/' <<<"$peer")
awk -v lc="$lc" -v h="$h1" -v c="$calls" 'BEGIN{
	printf "LangChain %.2f ms CPU per call; harpe %.3f ms per call (whole process)\n", lc / c, h / c
	printf "harpe is %.0f× faster\n", lc / (h > 0 ? h : 1)
}'

# Agent loops (one human turn, hundreds to thousands of calls) through
# every kind of strategy and edit, 1,000 against 10,000 calls: the ratio
# should stay at most about 12× (pkg/window's BenchmarkReplayAgent).
if [ "${AGENT:-1}" = 1 ]; then
	go test -run X -bench 'ReplayAgent' -benchtime 3x ./pkg/window/ |
		awk '/^BenchmarkReplayAgent/ {
			split($1, p, "/"); sub(/calls=/, "", p[3]); sub(/-[0-9]+$/, "", p[3])
			t[p[2], p[3]] = $3; s[p[2]] = 1
		}
		END {
			for (k in s) printf "agent loop, %s: 1,000 calls %.1f ms, 10,000 calls %.1f ms (%.1f×)\n",
				k, t[k, "1000"] / 1e6, t[k, "10000"] / 1e6, t[k, "10000"] / t[k, "1000"]
		}' | sort
fi
