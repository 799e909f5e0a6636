// Writes the providers array that @pydantic/genai-prices bundles (the
// package's waitForUpdate() with no update source configured) to a JSON
// file, one provider per line, so that a refresh diffs by provider.
// Usage: node prices-dump.mjs PACKAGE_DIR OUT.json
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, out] = process.argv.slice(2);
const mod = await import(pathToFileURL(resolve(dir, "dist/index.js")).href);
const providers = await mod.waitForUpdate();
if (!Array.isArray(providers) || providers.length === 0) {
  throw new Error("the package returned no providers");
}
const models = providers.reduce((n, p) => n + p.models.length, 0);
writeFileSync(out, "[\n" + providers.map((p) => JSON.stringify(p)).join(",\n") + "\n]\n");
console.error(`${out}: ${providers.length} providers, ${models} models`);
