#!/usr/bin/env node
// The `pal` CLI. Runs cli/main.ts from a bundle that esbuild rebuilds (in ~50 ms) whenever a
// source file is newer than it, so every later start skips TypeScript compilation; the import
// benchmark counts this start-up. Falls back to tsx when the bundle cannot be written.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.PAL_ROOT ??= root;
const outdir = path.join(root, "node_modules", ".cache", "pal-cli");
const entry = path.join(outdir, "main.js");

function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(dir, e.name));
      else if (/\.(ts|tsx|json)$/.test(e.name)) newest = Math.max(newest, fs.statSync(path.join(dir, e.name)).mtimeMs);
    }
  };
  for (const d of ["cli", "lib", "db"]) walk(path.join(root, d));
  for (const f of ["tsconfig.json", "package-lock.json"]) newest = Math.max(newest, fs.statSync(path.join(root, f)).mtimeMs);
  return newest;
}

/**
 * db/client and lib/auth import "server-only", which throws outside a React Server Components
 * bundle; the CLI is a server too, so the marker resolves to nothing here.
 */
const serverOnlyIsEmpty = {
  name: "server-only-is-empty",
  setup(build) {
    build.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    build.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

async function bundle() {
  const esbuild = await import("esbuild");
  // Build beside, then swap in, so concurrent CLIs never load a half-written bundle.
  const tmp = `${outdir}.${process.pid}.tmp`;
  await esbuild.build({
    entryPoints: [path.join(root, "cli", "main.ts")],
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Packages are bundled too (resolving hundreds of files at each start cost more than running
    // them); native addons and what is only loaded lazily by tooling stay outside.
    external: ["better-sqlite3", "@node-rs/*", "esbuild", "tsx", "fsevents"],
    banner: { js: "import { createRequire as __palRequire } from 'node:module'; const require = __palRequire(import.meta.url);" },
    outdir: tmp,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "error",
    plugins: [serverOnlyIsEmpty],
  });
  fs.rmSync(outdir, { recursive: true, force: true });
  try {
    fs.renameSync(tmp, outdir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another process won the race
  }
}

let main;
try {
  const built = fs.existsSync(entry) ? fs.statSync(entry).mtimeMs : 0;
  if (built < newestSource()) await bundle();
  ({ main } = await import(pathToFileURL(entry).href));
} catch (e) {
  if (process.env.PAL_DEBUG) console.error("bundle unavailable, using tsx:", e);
  // The same for the tsx fallback: a resolve hook maps "server-only" to an empty module.
  const { register: registerHooks } = await import("node:module");
  registerHooks(
    `data:text/javascript,${encodeURIComponent(
      "export async function resolve(s, c, next) { return s === 'server-only' ? { url: 'data:text/javascript,', shortCircuit: true } : next(s, c); }",
    )}`,
  );
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ main } = await import(pathToFileURL(path.join(root, "cli", "main.ts")).href));
}
process.exitCode = await main(process.argv.slice(2));
