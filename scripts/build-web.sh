#!/usr/bin/env bash
# Build the browser playground into DIR (default build/web): a static site
# that any file server can serve. See docs/playground.md.
#
#   scripts/build-web.sh [DIR]
#   python3 -m http.server -d build/web 8080   # or any static server
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-build/web}"
mkdir -p "$out"

GOOS=js GOARCH=wasm go build -trimpath -ldflags="-s -w" -o "$out/harpe.wasm" ./web/wasm
cp "$(go env GOROOT)/lib/wasm/wasm_exec.js" "$out/wasm_exec.js"
cp web/site/index.html web/site/style.css web/site/app.js "$out/"
# The exact encodings' tables, fetched by the page on first use.
cp pkg/tokenize/o200k/o200k_base.bin pkg/tokenize/cl100k/cl100k_base.bin "$out/"
# The samples: the items editor's and the transcript button's.
cp testdata/items/agent.jsonl "$out/agent.jsonl"
cp testdata/transcripts/claude-code/session.jsonl "$out/sample-transcript.jsonl"

total=$(du -cb "$out"/* | tail -1 | cut -f1)
echo "build-web: $out: $(ls "$out" | wc -l) files, $total bytes"
