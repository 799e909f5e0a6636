#!/usr/bin/env bash
# bounds.sh [MB]
#
# Measures the peak memory (maximum resident set size, from GNU time's %M)
# and the wall time of harpe on the hostile inputs of issue 16, each MB
# megabytes (default 50) with no break point, and the recordings of issue 24:
#
#   count -t o200k_base   MB of "a", NUL, spaces, dots, newlines (one
#                         pre-tokenizer piece each), read from stdin
#   conflicts --lines     one line: a clause of MB of distinct made-up words
#   count --transcript    a HAR of four gzip bodies of 256 MiB of zeros; a VCR
#                         cassette aliasing a 1 MiB scalar 1,000 times (both
#                         errors; their message is shown indented)
#   count zh-lines        MB of Chinese in lines of 60 characters (cut after
#                         each line break: memory stays near 2 chunks)
#   count nul (estimate)  MB of NUL with the default estimate (cut anywhere)
#   conflicts pairs       1,000 items that each deny each other (999,000
#                         pairs, 10,000 reported)
#   replay dir table      ten generated agent sessions of 2,000 turns
#                         (about 96 MB), the per-call table of full, clear
#                         and mask: each session is replayed and written in
#                         turn, so the peak is a few sessions', not the
#                         directory's (issue 24 item 12)
#   anthropic doc         an Anthropic request of MB megabytes on one line,
#                         through count --transcript, transcript
#                         --breakdown and the transcript summary (each
#                         streamed from the file)
#   sharegpt 200k         200,000 short ShareGPT conversations (27 MB),
#                         through count --transcript and the transcript
#                         summary as a table
#   replay anth 5MB     replay --format json of a 5 MB Anthropic request
#                         (one session of 7,750 messages), and with
#                         --totals (replayed once)
#   replay anth 10MB    replay --format table of a 10 MB one (15,487
#                         messages; docs/security.md, "Replay of one long
#                         session")
#   walk big .json        a directory with one MB-megabyte JSON file that is
#                         no transcript (skipped after a sniff of its start)
#   gemini … har doc      Gemini, Gemini CLI, Codex, SWE-agent, OpenHands,
#                         long-memory and HAR documents of MB megabytes
#                         (scripts/gen-bigdocs.py), through count
#                         --transcript, the summary and --breakdown; then
#                         SIGINT at 1.5 and 4 s on the streamed documents,
#                         from standard input and during replay DIR (the
#                         docs block at the end); two SWE-agent
#                         documents end to end (a sequence) and a VCR
#                         cassette over its 16 MiB limit
#
# Then each long run again, interrupted with SIGINT after 1.5 s: prints
# "sigint <case> <ms from the signal to the exit> <exit status>" (the goal:
# under 1000 ms, status 130).
#
# Prints "<case> <wall s> <user+sys s> <peak MiB> <peak / input>" a line
# (CPU time beside wall time, since a shared machine stretches the latter). Needs go and
# GNU time (/usr/bin/time). The inputs are written to a temporary directory
# and removed at the end.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.."
MB="${1:-50}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/harpe" .
bytes=$((MB * 1000 * 1000))

gen() { # gen BYTE FILE: BYTES copies of one byte
  head -c "$bytes" /dev/zero | tr '\0' "$1" > "$2"
}
gen 'a' "$tmp/a"
head -c "$bytes" /dev/zero > "$tmp/nul"
gen ' ' "$tmp/spaces"
gen '.' "$tmp/dots"
gen '\n' "$tmp/newlines"
# Distinct words: "zq" and base-14 digits in consonants, on one line.
awk -v n="$bytes" 'BEGIN {
  l = "bcfhjkmpqtvwxz"; out = "I live in"; s = 9
  for (i = 0; s < n; i++) {
    w = " zq"; k = i
    do { w = w substr(l, k % 14 + 1, 1); k = int(k / 14) } while (k > 0)
    printf "%s", (i == 0 ? out : "") w; s += length(w)
  }
  print ""
}' > "$tmp/clause"

python3 -c "
import sys
line = ('中文字符测试' * 10 + '\\n').encode()
sys.stdout.buffer.write(line * ($bytes // len(line)))" > "$tmp/zh"
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "{\"id\":\"i%d\",\"content\":\"I live in Boston. I no longer live in Boston.\"}\n", i }' > "$tmp/pairs.jsonl"

run() { # run NAME INPUT ARGS...
  local name="$1" in="$2"
  shift 2
  local size
  size=$(wc -c < "$in")
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$tmp/harpe" "$@" < "$in" > /dev/null
  read -r secs user sys kb < "$tmp/time"
  awk -v n="$name" -v s="$secs" -v c="$(awk -v u="$user" -v y="$sys" 'BEGIN { print u + y }')" -v kb="$kb" -v b="$size" \
    'BEGIN { printf "%-18s %7.2f s wall %7.2f s cpu %6.0f MiB %5.1fx\n", n, s, c, kb / 1024, kb * 1024 / b }'
}
for f in a nul spaces dots newlines; do
  run "count $f" "$tmp/$f" count -t o200k_base
done
run "conflicts clause" "$tmp/clause" conflicts --lines

# Recordings (issue 24): each case reads a file given as an argument; the
# ratio is to that file's size.
runf() { # runf NAME FILE ARGS...
  local name="$1" in="$2"
  shift 2
  local size
  size=$(wc -c < "$in")
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$tmp/harpe" "$@" "$in" > /dev/null 2> "$tmp/err" || true
  read -r secs user sys kb < <(tail -n 1 "$tmp/time") # time writes a line first when the exit status is not 0
  awk -v n="$name" -v s="$secs" -v c="$(awk -v u="$user" -v y="$sys" 'BEGIN { print u + y }')" -v kb="$kb" -v b="$size" \
    'BEGIN { printf "%-18s %7.2f s wall %7.2f s cpu %6.0f MiB %5.1fx\n", n, s, c, kb / 1024, kb * 1024 / b }'
  sed 's/^/    /' "$tmp/err" | cut -c1-160
}
# A HAR of four gzip bodies of 256 MiB of zeros each (about 1 MB).
b64="$(head -c $((256 << 20)) /dev/zero | gzip -9 | base64 -w0)"
{
  printf '{"log":{"entries":['
  for i in 1 2 3 4; do
    [ "$i" = 1 ] || printf ','
    printf '{"request":{"method":"POST","url":"https://api.openai.com/v1/chat/completions","postData":{"mimeType":"application/json","text":"{\\"messages\\":[]}"}},"response":{"status":200,"content":{"mimeType":"application/json","encoding":"base64","text":"%s"}}}' "$b64"
  done
  printf ']}}\n'
} > "$tmp/bomb.har"
runf "har gzip bomb" "$tmp/bomb.har" count --transcript
# A cassette: a 1 MiB scalar anchored once, aliased 1,000 times (1.05 MB).
awk 'BEGIN {
  printf "interactions:\n- system: &b \""; for (i = 0; i < 1048576; i++) printf "x"; printf "\"\n  content:\n"
  for (i = 0; i < 1000; i++) print "  - *b"
}' > "$tmp/alias.yaml"
runf "vcr alias bomb" "$tmp/alias.yaml" count --transcript
# JSON documents (issue 24 item 12): an Anthropic request of MB megabytes
# on one line, 200,000 short ShareGPT conversations, and a directory
# holding one large JSON file that is no transcript (the walk sniffs its
# start and skips it).
python3 -c "
import json, sys
def anthropic(path, n):
  out = open(path, 'w')
  out.write('{\"model\":\"claude-sonnet-4-5\",\"system\":\"You are helpful.\",\"messages\":[')
  size, i = 0, 0
  while size < n:
    if i % 3 == 0:
      m = {'role': 'user', 'content': [{'type': 'text', 'text': 'question %d ' % i + 'lorem ipsum dolor ' * 40}]}
    elif i % 3 == 1:
      m = {'role': 'assistant', 'content': [{'type': 'text', 'text': 'let me look ' * 10}, {'type': 'tool_use', 'id': 't%d' % i, 'name': 'read', 'input': {'path': '/x/%d' % i}}]}
    else:
      m = {'role': 'user', 'content': [{'type': 'tool_result', 'tool_use_id': 't%d' % (i - 1), 'content': 'result line\\n' * 60}]}
    s = (',' if i else '') + json.dumps(m)
    out.write(s); size += len(s); i += 1
  out.write('],\"max_tokens\":1024}\n')
anthropic('$tmp/anthropic.json', $bytes)
anthropic('$tmp/anthropic5.json', 5000000)
anthropic('$tmp/anthropic10.json', 10000000)
out = open('$tmp/sharegpt.json', 'w')
out.write('[' + ','.join(json.dumps({'id': 'c%d' % i, 'conversations': [{'from': 'human', 'value': 'hi %d' % i}, {'from': 'gpt', 'value': 'hello there, how can I help?'}]}) for i in range(200000)) + ']\n')
mkdir = __import__('os').makedirs; mkdir('$tmp/walk', exist_ok=True)
out = open('$tmp/walk/data.json', 'w')
out.write('{\"rows\":[' + ','.join('[%d,\"%s\"]' % (i, 'x' * 80) for i in range($bytes // 90)) + ']}\n')
"
runf "anthropic doc" "$tmp/anthropic.json" count --transcript
runf "anthropic breakdown" "$tmp/anthropic.json" transcript --breakdown
runf "anthropic summary" "$tmp/anthropic.json" transcript
runf "sharegpt 200k" "$tmp/sharegpt.json" count --transcript
runf "sharegpt table" "$tmp/sharegpt.json" transcript --format table
# replay of one long session: a 5 MB Anthropic request (10,000 messages)
# whatever MB is, since its time grows with the square of its length.
runf "replay anth 5MB" "$tmp/anthropic5.json" replay --format json
runf "replay anth totals" "$tmp/anthropic5.json" replay --totals --format json
runf "replay anth 10MB" "$tmp/anthropic10.json" replay --format table
runa() { # runa NAME FILE ARGS...: like runf, the ratio to FILE, ARGS given whole
  local name="$1" in="$2"
  shift 2
  local size
  size=$(wc -c < "$in")
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$tmp/harpe" "$@" > /dev/null 2> "$tmp/err" || true
  read -r secs user sys kb < <(tail -n 1 "$tmp/time")
  awk -v n="$name" -v s="$secs" -v c="$(awk -v u="$user" -v y="$sys" 'BEGIN { print u + y }')" -v kb="$kb" -v b="$size" \
    'BEGIN { printf "%-18s %7.2f s wall %7.2f s cpu %6.0f MiB %5.1fx\n", n, s, c, kb / 1024, kb * 1024 / b }'
  sed 's/^/    /' "$tmp/err" | cut -c1-160
}
runa "walk big .json" "$tmp/walk/data.json" transcript "$tmp/walk"
run "count zh-lines" "$tmp/zh" count -t o200k_base
run "count nul estimate" "$tmp/nul" count
run "conflicts pairs" "$tmp/pairs.jsonl" conflicts

# replay DIR: the ratio is to the directory's size.
go build -o "$tmp/gen-turns" ./scripts/gen-turns
mkdir "$tmp/sessions"
for i in 1 2 3 4 5 6 7 8 9 10; do
  "$tmp/gen-turns" -turns 2000 -seed "$i" > "$tmp/sessions/s$i.jsonl"
done
rund() { # rund NAME DIR ARGS...
  local name="$1" dir="$2"
  shift 2
  local size
  size=$(cat "$dir"/* | wc -c)
  /usr/bin/time -f "%e %U %S %M" -o "$tmp/time" "$tmp/harpe" "$@" "$dir" > /dev/null
  read -r secs user sys kb < "$tmp/time"
  awk -v n="$name" -v s="$secs" -v c="$(awk -v u="$user" -v y="$sys" 'BEGIN { print u + y }')" -v kb="$kb" -v b="$size" \
    'BEGIN { printf "%-18s %7.2f s wall %7.2f s cpu %6.0f MiB %5.1fx\n", n, s, c, kb / 1024, kb * 1024 / b }'
}
rund "replay dir table" "$tmp/sessions" replay --strategy full,clear,mask --format table

sigint() { # sigint NAME INPUT ARGS...: SIGINT after 1.5 s, time to exit
  local name="$1" in="$2"
  shift 2
  "$tmp/harpe" "$@" < "$in" > /dev/null 2>&1 &
  local pid=$!
  sleep 1.5
  local t0
  t0=$(date +%s%N)
  kill -INT "$pid" 2>/dev/null || true
  local status=0
  wait "$pid" || status=$?
  local t1
  t1=$(date +%s%N)
  printf 'sigint %-18s %6d ms  exit %d\n' "$name" $(((t1 - t0) / 1000000)) "$status"
}
awk 'BEGIN { for (i = 0; i < 8000; i++) printf "{\"id\":\"i%d\",\"content\":\"I live in Boston. I no longer live in Boston.\"}\n", i }' > "$tmp/pairs8k.jsonl"
sigint "conflicts 8k pairs" "$tmp/pairs8k.jsonl" conflicts
sigint "count zh-lines" "$tmp/zh" count -t o200k_base
sigint "count /dev/zero" /dev/zero count
sigint "count /dev/zero o200k" /dev/zero count -t o200k_base
sigint "count a" "$tmp/a" count -t o200k_base
sigint "conflicts clause" "$tmp/clause" conflicts --lines

# ---- Documents of the other formats (issue 24 item 12, the docs block) ----
# Gemini requests, Gemini CLI sessions, Codex Responses requests, SWE-agent
# trajectories, OpenHands event streams, long-memory samples and HARs of
# MB megabytes, each the records of its sample in testdata/transcripts
# repeated with longer texts (scripts/gen-bigdocs.py, seed 1), through
# count --transcript, the transcript summary and transcript --breakdown
# (each streamed record by record from the file). Then SIGINT during the
# streamed runs, at 1.5 s (the first pass) and 4 s (the records), from a
# file and from standard input, and during replay DIR: "sigint <case> <ms
# from the signal to the exit> <exit status>".
for f in gemini gemini-cli codex swe-agent openhands long-memory har; do
  python3 "$here/gen-bigdocs.py" "$f" "$MB" 1 > "$tmp/$f.json"
  runf "$f doc" "$tmp/$f.json" count --transcript
  runf "$f summary" "$tmp/$f.json" transcript
  runf "$f breakdown" "$tmp/$f.json" transcript --breakdown
done
# A sequence of documents: two copies of the SWE-agent trajectory end to
# end, read one document at a time. Then a VCR cassette of at least 20 MB
# (the records of testdata/transcripts/vcr/anthropic-parsed.yaml
# repeated), over the 16 MiB limit on a cassette: refused from its size
# (the error is shown).
cat "$tmp/swe-agent.json" "$tmp/swe-agent.json" > "$tmp/swe2.json"
runf "swe-agent x2 seq" "$tmp/swe2.json" count --transcript
runf "swe-agent x2 summ" "$tmp/swe2.json" transcript
python3 -c "
import sys
head, sep, rest = open('testdata/transcripts/vcr/anthropic-parsed.yaml').read().partition('interactions:\n')
items, sep2, tail = rest.partition('\nversion:')
n = max($MB, 20) * 1000 * 1000 // len(items) + 1
sys.stdout.write(head + sep + (items + '\n') * n + 'version:' + tail)" > "$tmp/big.yaml"
runf "vcr over limit" "$tmp/big.yaml" count --transcript
sigat() { # sigat NAME SECONDS STDIN ARGS...: SIGINT after SECONDS, time to exit
  local name="$1" after="$2" in="$3"
  shift 3
  "$tmp/harpe" "$@" < "$in" > /dev/null 2>&1 &
  local pid=$!
  sleep "$after"
  local t0 t1 status=0
  t0=$(date +%s%N)
  kill -INT "$pid" 2>/dev/null || printf 'sigint %-18s ended before the signal\n' "$name"
  wait "$pid" || status=$?
  t1=$(date +%s%N)
  printf 'sigint %-24s at %3s s %6d ms  exit %d\n' "$name" "$after" $(((t1 - t0) / 1000000)) "$status"
}
for f in anthropic sharegpt gemini gemini-cli codex swe-agent openhands long-memory har; do
  for at in 1.5 4; do
    sigat "$f count" "$at" /dev/null count --transcript "$tmp/$f.json"
    sigat "$f summary" "$at" /dev/null transcript "$tmp/$f.json"
  done
  sigat "$f count stdin" 4 "$tmp/$f.json" count --transcript -
done
for at in 1.5 4; do
  sigat "replay dir table" "$at" /dev/null replay --strategy full,clear,mask --format table "$tmp/sessions"
  sigat "replay dir json" "$at" /dev/null replay --strategy full,clear,mask --format json "$tmp/sessions"
done
