/**
 * bin/pal.mjs on a copy of the project: it builds the bundle of the command's group only, rebuilds it
 * when a file it was built from changes, and reuses V8's code cache of it from the second start on.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "@/test/fixtures";

let copy: string;
let cacheDir: string;
const pal = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(copy, "bin", "pal.mjs"), ...args], {
    cwd: copy,
    env: { ...process.env, PAL_ROOT: copy, PAL_DB: path.join(copy, "pal.db"), PAL_DEBUG: "1" },
    encoding: "utf8",
  });
const files = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []);

beforeAll(() => {
  copy = fs.mkdtempSync(path.join(os.tmpdir(), "pal-launcher-"));
  for (const f of ["bin", "cli", "lib", "db", "tsconfig.json", "package.json", "package-lock.json"])
    fs.cpSync(path.join(ROOT, f), path.join(copy, f), { recursive: true, preserveTimestamps: true });
  // The packages by link, one by one, so the bundles land in this copy's node_modules/.cache.
  fs.mkdirSync(path.join(copy, "node_modules"));
  for (const p of fs.readdirSync(path.join(ROOT, "node_modules")))
    if (p !== ".cache") fs.symlinkSync(path.join(ROOT, "node_modules", p), path.join(copy, "node_modules", p));
  cacheDir = path.join(copy, "node_modules", ".cache", "pal-cli");
});
afterAll(() => fs.rmSync(copy, { recursive: true, force: true }));

describe("bin/pal.mjs", () => {
  it("builds only the help bundle for --help, and writes its code cache once", () => {
    const first = pal("--help");
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain("stats");
    expect(first.stderr).toBe(""); // no fallback to tsx
    expect(files(cacheDir)).toEqual(["help"]);
    const cache = files(path.join(cacheDir, "help")).filter((f) => f.endsWith(".v8cache"));
    expect(cache).toHaveLength(1);
    const written = fs.statSync(path.join(cacheDir, "help", cache[0])).mtimeMs;

    const second = pal("--help");
    expect(second.stdout).toBe(first.stdout);
    // V8 accepted the cache: a refused one would be written again.
    expect(fs.statSync(path.join(cacheDir, "help", cache[0])).mtimeMs).toBe(written);
  });

  it("runs a command from its group's bundle", () => {
    const r = pal("stats", "--dataset", "none");
    expect(r.stderr).toContain('no data set named "none"');
    expect(r.stderr).not.toContain("using tsx");
    expect(files(cacheDir)).toEqual(["data", "help"]);
  });

  it("opens SQLite from a bundle outside openDb too (pal backup's own connections)", () => {
    const r = pal("backup", "--out", path.join(copy, "backup.db"), "--json");
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).file).toBe(path.join(copy, "backup.db"));
    expect(r.stderr).not.toContain("using tsx");
  });

  it("rebuilds a bundle when a file it was built from changes", () => {
    const summaries = path.join(copy, "cli", "commands", "summaries.ts");
    fs.writeFileSync(summaries, fs.readFileSync(summaries, "utf8").replace("counts of a data set", "how big a data set is"));
    const later = new Date(Date.now() + 2000);
    fs.utimesSync(summaries, later, later);
    const r = pal("--help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("how big a data set is");
    const caches = files(path.join(cacheDir, "help")).filter((f) => f.endsWith(".v8cache"));
    expect(caches).toHaveLength(1); // the new bundle's own, not the old one's
  });
});
