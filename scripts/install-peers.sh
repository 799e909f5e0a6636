#!/usr/bin/env bash
# Installs the peer programs the benchmark scripts compare against (npm
# tiktoken, gpt-tokenizer and @langchain/core, at the versions
# scripts/package.json pins) into scripts/node_modules, which git ignores.
# Needs node ≥ 20 and npm. Nothing in harpe's tests uses them.
set -euo pipefail
cd "$(dirname "$0")"
if [ -d node_modules/tiktoken ] && [ -d node_modules/gpt-tokenizer ] && [ -d node_modules/@langchain/core ]; then
  exit 0
fi
npm install --no-package-lock --no-audit --no-fund
