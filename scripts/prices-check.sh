#!/usr/bin/env bash
# Checks harpe's recorded cost of every sample that records usage
# (testdata/agent, testdata/transcripts) against an independent pricing of
# each recorded response by the npm package @pydantic/genai-prices (the
# version of the embedded snapshot, installed into scripts/.peers/prices,
# which git ignores). Not a test dependency; docs/cost.md records its output.
#   scripts/prices-check.sh [DIR|FILE…]
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(sed -n 's/.*"version": "\(.*\)".*/\1/p' pkg/prices/data.meta.json)"
peer=scripts/.peers/prices
pkg="$peer/node_modules/@pydantic/genai-prices"
if [ "$(sed -n 's/.*"version": "\(.*\)".*/\1/p' "$pkg/package.json" 2>/dev/null | head -1)" != "$version" ]; then
  mkdir -p "$peer"
  [ -f "$peer/package.json" ] || echo '{"private": true}' >"$peer/package.json"
  npm install --prefix "$peer" --no-package-lock --no-audit --no-fund "@pydantic/genai-prices@$version" >&2
fi
bin="$(mktemp -d)/harpe"
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" .
[ $# -gt 0 ] || set -- testdata/agent testdata/transcripts
"$bin" transcript --messages --format json "$@" 2>/dev/null | node scripts/prices-check.mjs "$pkg"
