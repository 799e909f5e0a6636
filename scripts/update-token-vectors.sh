#!/usr/bin/env bash
# Refills the count columns of testdata/token_vectors.tsv and
# testdata/tokens/counts.tsv from npm tiktoken (the exact reference) and an
# independent JavaScript version of the estimate rule, installing the npm
# peers first when they are missing. Run it after adding vectors or samples;
# the Go tests then check harpe against the refreshed columns.
set -euo pipefail
cd "$(dirname "$0")"
bash install-peers.sh >&2
node token-vectors.mjs "$@"
