/**
 * The HTTP benchmarks measure `next start`: build first when there is no build or a source is newer
 * than it (the same rule as scripts/start.sh), so a benchmark never measures a stale app.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SOURCES = ["app", "components", "lib", "db", "public", "next.config.ts", "package-lock.json"];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

export function ensureBuild(root: string): void {
  const id = path.join(root, ".next", "BUILD_ID");
  const built = fs.existsSync(id) ? fs.statSync(id).mtimeMs : 0;
  if (built && SOURCES.every((s) => newestMtime(path.join(root, s)) <= built)) return;
  console.log("building the app for `next start` (a minute or two)...");
  const b = spawnSync("npx", ["next", "build"], { cwd: root, env: { ...process.env, PAL_SKIP_TYPECHECK: "1" }, encoding: "utf8" });
  if (b.status !== 0) throw new Error(`next build failed:\n${b.stdout}\n${b.stderr}`);
}
