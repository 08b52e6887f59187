#!/usr/bin/env node
// The `pal` CLI. Runs cli/main.ts from the bundle of the command's group (bin/cli-bundle.mjs),
// which esbuild rebuilds when a file it was built from is newer, so a start never compiles
// TypeScript; V8's code cache of the bundle spares parsing it too. `npm run bench -- cli-start`
// measures this start. Falls back to tsx when a bundle cannot be built.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import Module, { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.PAL_ROOT ??= root;
const dir = path.join(root, "node_modules", ".cache", "pal-cli");
const argv = process.argv.slice(2);

/**
 * A bundle is stale when a project file it was built from (esbuild's metafile, kept in
 * inputs.json), tsconfig.json or package-lock.json is newer than it. Only those files are looked
 * at: a new file matters only once an edited file imports it.
 */
function isStale(name, builtMs) {
  let inputs;
  try {
    inputs = JSON.parse(fs.readFileSync(path.join(dir, name, "inputs.json"), "utf8"));
  } catch {
    return true;
  }
  for (const f of [...inputs, "tsconfig.json", "package-lock.json"]) {
    const st = fs.statSync(path.join(root, f), { throwIfNoEntry: false });
    if (!st || st.mtimeMs > builtMs) return true;
  }
  return false;
}

/** The bundle `name`, built first when missing or stale; returns its file and build time. */
async function freshBundle(name) {
  const file = path.join(dir, name, "main.cjs");
  let built = fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built === 0 || isStale(name, built)) {
    await (await import("./cli-bundle.mjs")).buildBundle(root, dir, name);
    built = fs.statSync(file).mtimeMs;
  }
  return { file, built };
}

/** The group bundle argv needs, picked as cli/main.ts's buildProgram picks the group it loads. */
async function bundleFor(args) {
  await freshBundle("help"); // its groups.json maps commands to groups
  const groups = JSON.parse(fs.readFileSync(path.join(dir, "help", "groups.json"), "utf8"));
  const words = args.filter((a) => !a.startsWith("-"));
  const word = words[0] === "help" ? words[1] : words[0];
  return freshBundle(Object.hasOwn(groups, word) ? groups[word] : "help");
}

/**
 * Runs a CommonJS bundle as require() would, with V8's code cache of it: compiling a megabyte of
 * JavaScript is much of a start. The cache is named by the bundle's build time, so a cache written
 * by a process that loaded an older bundle is never used for a newer one; it is written once, at
 * exit, when there was none (or V8 refused it), and then holds every function that run compiled.
 */
function loadWithCodeCache({ file, built }) {
  const cacheFile = `${file}.${Math.round(built)}.v8cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, "utf8")), { filename: file, cachedData });
  const cjs = { exports: {} };
  script.runInThisContext()(cjs.exports, createRequire(file), cjs, file, path.dirname(file));
  if (!cachedData || script.cachedDataRejected) {
    process.once("exit", () => {
      const tmp = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, cacheFile);
      } catch {
        fs.rmSync(tmp, { force: true }); // a read-only checkout: every start compiles, nothing breaks
      }
    });
  }
  return cjs.exports;
}

let main;
try {
  ({ main } = loadWithCodeCache(await bundleFor(argv)));
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
process.exitCode = await main(argv);
