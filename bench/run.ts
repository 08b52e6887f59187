/**
 * `npm run bench [filter]`: runs every bench/*.bench.ts in turn. Each file's default export is an
 * async function that prints its own measurements as ratios against a baseline measured in the
 * same run (never a fixed time budget).
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = path.dirname(new URL(import.meta.url).pathname);
const filter = process.argv[2];
const files = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts") && (!filter || f.includes(filter)))
  .sort();

let failed = false;
for (const f of files) {
  console.log(`\n== ${f}`);
  try {
    const mod = await import(pathToFileURL(path.join(dir, f)).href);
    await mod.default();
  } catch (e) {
    failed = true;
    console.error(`bench ${f} failed:`, e);
  }
}
process.exit(failed ? 1 : 0);
