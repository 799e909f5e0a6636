#!/usr/bin/env bash
# Installs the peer programs the benchmark scripts compare against into
# scripts/node_modules (gitignored), from the npm registry, at the versions
# scripts/package.json pins. Needs node ≥ 20 and npm.
set -euo pipefail
cd "$(dirname "$0")"
npm install --no-package-lock --no-audit --no-fund
