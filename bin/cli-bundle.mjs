// Builds the CLI's bundles for bin/pal.mjs (loaded only when one is missing or stale). Each command
// group (cli/commands/index.ts) gets a CommonJS bundle of cli/main.ts with only its own commands;
// "help" has none and also yields the command → group table. One bundle per process and no code
// splitting means no module graph to resolve at start, and a CommonJS file can use V8's code cache.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

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

/** Keeps the group `name` (none for "help") and replaces every other group's module with one that says it is absent. */
function onlyGroup(name) {
  return {
    name: "only-group",
    setup(build) {
      let seen = name === "help";
      build.onResolve({ filter: /^\.\/\w+$/ }, (args) => {
        if (!args.importer.endsWith(path.join("cli", "commands", "index.ts"))) return undefined;
        const group = args.path.slice(2);
        if (group === "summaries") return undefined;
        if (group === name) {
          seen = true;
          return undefined;
        }
        return { path: group, namespace: "absent-group" };
      });
      build.onLoad({ filter: /.*/, namespace: "absent-group" }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`this CLI bundle was built without the "${args.path}" commands`)});`,
        loader: "js",
      }));
      build.onEnd((result) => {
        if (!seen && result.errors.length === 0) throw new Error(`cli/commands/index.ts imports no group module "./${name}"`);
      });
    },
  };
}

/**
 * Builds the bundle of one group into `<dir>/<name>/` (main.cjs and inputs.json, the project files
 * it was built from), beside and then swapped in, so concurrent CLIs never load a half-written one.
 * The help bundle also writes groups.json: each top-level command's group.
 */
export async function buildBundle(root, dir, name) {
  const esbuild = await import("esbuild");
  const out = path.join(dir, name);
  const tmp = `${out}.${process.pid}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  const sourcefile = `pal-${name}.ts`; // the generated entry, not a project file
  const exports =
    name === "help"
      ? "export { main } from './cli/main'; export { COMMAND_GROUPS } from './cli/commands';"
      : "export { main } from './cli/main';";
  const result = await esbuild.build({
    stdin: { contents: exports, resolveDir: root, sourcefile, loader: "ts" },
    absWorkingDir: root,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    // Packages are bundled too (resolving hundreds of files at each start cost more than running
    // them); native addons (db/client loads SQLite's by its path) and what only tooling loads lazily
    // stay outside.
    external: ["@node-rs/*", "esbuild", "tsx", "fsevents"],
    outfile: path.join(tmp, "main.cjs"),
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "error",
    // Less to read at each start; names are kept, so stack traces (PAL_DEBUG) stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    plugins: [serverOnlyIsEmpty, onlyGroup(name)],
  });
  const own = Object.keys(result.metafile.inputs).filter((f) => !f.startsWith("node_modules/") && !f.includes(":") && f !== sourcefile);
  fs.writeFileSync(path.join(tmp, "inputs.json"), JSON.stringify(own));
  if (name === "help") {
    const { COMMAND_GROUPS } = createRequire(import.meta.url)(path.join(tmp, "main.cjs"));
    const groups = Object.fromEntries(COMMAND_GROUPS.flatMap((g) => g.commands.map((c) => [c, g.name])));
    fs.writeFileSync(path.join(tmp, "groups.json"), JSON.stringify(groups));
  }
  fs.rmSync(out, { recursive: true, force: true });
  try {
    fs.renameSync(tmp, out);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another process won the race
  }
}
