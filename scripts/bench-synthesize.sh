#!/usr/bin/env bash
# Times `harpe synthesize` on 100,000 items (≈ 55 MB of JSONL, made by
# scripts/gen-items with its fixed seed) against `jq -c . FILE >/dev/null`,
# which only parses and prints the same file, and reports the ratio of the
# times and harpe's peak memory against the input size (SPEC §11: ratio
# ≤ 1.0, peak ≤ 6× the input). Each command runs RUNS times (default 3);
# the best wall time of each is compared, and user CPU time is shown too,
# since a busy machine inflates wall time.
#
#   scripts/bench-synthesize.sh [ITEMS]      # default 100000
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100000}
runs=${RUNS:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/harpe" .
go run ./scripts/gen-items -n "$n" > "$work/items.jsonl"
size=$(stat -c %s "$work/items.jsonl")
echo "input: $n items, $size bytes; machine: $(nproc) cores"

# best RUN_CMD...: prints "wall user maxrss_kb" of the fastest run.
best() {
	local out best_line="" best_wall=""
	for _ in $(seq "$runs"); do
		/usr/bin/time -o "$work/time" -f "%e %U %M" "$@" >/dev/null
		out=$(tail -1 "$work/time")
		local wall=${out%% *}
		if [ -z "$best_wall" ] || awk "BEGIN{exit !($wall < $best_wall)}"; then
			best_wall=$wall best_line=$out
		fi
	done
	echo "$best_line"
}

read -r hw hu hm < <(best "$work/harpe" synthesize --budget 200000 "$work/items.jsonl")
read -r jw ju jm < <(best jq -c . "$work/items.jsonl")
echo "harpe synthesize: ${hw}s wall, ${hu}s user, peak ${hm} KB"
echo "jq -c .:          ${jw}s wall, ${ju}s user, peak ${jm} KB"
awk -v hw="$hw" -v jw="$jw" -v hu="$hu" -v ju="$ju" -v hm="$hm" -v size="$size" 'BEGIN {
	printf "ratio (wall):     %.2f\n", hw / jw
	printf "ratio (user CPU): %.2f\n", hu / ju
	printf "peak / input:     %.1fx\n", hm * 1024 / size
}'
