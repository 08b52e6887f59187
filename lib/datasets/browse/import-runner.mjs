#!/usr/bin/env node
// Runs one data-set import in its own process for the upload route (app/api/datasets/import): the
// importers are synchronous, so in the server process they would block every other request and
// their progress could not reach the browser until the end. Here each progress event, the result
// and any error go to stdout as one JSON line each (NDJSON), as they happen.
//
// Usage: node import-runner.mjs '<json: {kind, paths, name, lang?, replace?, importedBy?}>'
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { register } from "tsx/esm/api";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
process.env.PAL_ROOT ??= root;
register({ tsconfig: path.join(root, "tsconfig.json") });

const send = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
const load = (p) => import(pathToFileURL(path.join(root, p)).href);

let opts;
try {
  opts = JSON.parse(process.argv[2] ?? "");
} catch {
  send({ error: "internal error: bad runner arguments" });
  process.exit(2);
}

// At most one event per phase every 40 ms, plus each phase's first and last, so a 100k-log import
// does not flood the pipe.
let last = { phase: "", at: 0 };
function onProgress(p) {
  const now = Date.now();
  const edge = p.phase !== last.phase || p.done >= p.total;
  if (!edge && now - last.at < 40) return;
  last = { phase: p.phase, at: now };
  send({ phase: p.phase, done: p.done, total: p.total, detail: p.detail });
}

const { getDb, closeDb } = await load("db/client.ts");
const { DatasetError } = await load("lib/datasets/types.ts");
try {
  const mod = opts.kind === "palset" ? await load("lib/datasets/palset/import.ts") : await load("lib/datasets/hicupid/import.ts");
  const run = opts.kind === "palset" ? mod.importPalset : mod.importHicupid;
  const result = await run(getDb(), {
    paths: opts.paths,
    name: opts.name,
    lang: opts.lang,
    replace: opts.replace,
    importedBy: opts.importedBy,
    onProgress,
  });
  send({ result });
} catch (e) {
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof DatasetError || (e instanceof Error && e.name === "DatasetError")) send({ error: msg.split("\n")[0] });
  else {
    process.stderr.write(`${e instanceof Error ? e.stack : msg}\n`);
    send({ error: `import failed: ${msg.split("\n")[0]}`, internal: true });
  }
  process.exitCode = 1;
} finally {
  closeDb();
}
