#!/usr/bin/env bash
# Refreshes harpe's embedded price snapshot (pkg/prices/data.json) from the
# npm package @pydantic/genai-prices, which bundles pydantic's genai-prices
# database (MIT licence, copied to pkg/prices/LICENSE). The package goes
# into scripts/.peers/prices, which git ignores; nothing in harpe's tests
# or builds runs it. pkg/prices/data.meta.json records the package version,
# its publish date and the day of the refresh.
#
#   scripts/update-prices.sh            # the version pinned below
#   scripts/update-prices.sh 0.1.9      # another version
#
# Needs node ≥ 20 and npm. Review the diff (harpe models, the testscripts'
# dollar figures) before committing.
set -euo pipefail
cd "$(dirname "$0")"
version="${1:-0.1.8}"
peer=.peers/prices
mkdir -p "$peer"
[ -f "$peer/package.json" ] || echo '{"private": true}' >"$peer/package.json"
npm install --prefix "$peer" --no-package-lock --no-audit --no-fund "@pydantic/genai-prices@$version" >&2
pkg="$peer/node_modules/@pydantic/genai-prices"
published="$(npm view "@pydantic/genai-prices@$version" time --json | node -e '
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const t = JSON.parse(s)[process.argv[1]]; console.log(t ? t.slice(0, 10) : "");
});' "$version")"
node prices-dump.mjs "$pkg" ../pkg/prices/data.json
cp "$pkg/LICENSE" ../pkg/prices/LICENSE
cat >../pkg/prices/data.meta.json <<META
{
  "source": "npm @pydantic/genai-prices (https://github.com/pydantic/genai-prices)",
  "version": "$version",
  "published": "$published",
  "retrieved": "$(date -u +%Y-%m-%d)",
  "licence": "MIT (pkg/prices/LICENSE)"
}
META
echo "pkg/prices/data.json: @pydantic/genai-prices $version ($published)" >&2
