#!/usr/bin/env bash
# Installs the peer tokenizers (npm tiktoken and gpt-tokenizer) into
# scripts/node_modules for peer-count.mjs, token-vectors.mjs and
# bench-count.sh. Needs node and npm; nothing in harpe's tests uses them.
set -euo pipefail
cd "$(dirname "$0")"
npm install --no-audit --no-fund
