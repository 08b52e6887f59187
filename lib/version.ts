/** The project's version as a run, an export or a bundle records it: the package version and, in a git checkout, the commit. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "@/db/client";

let memo: string | null = null;

export function projectVersion(): string {
  if (memo) return memo;
  const root = projectRoot();
  let version = "unknown";
  try {
    version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version?: string }).version ?? version;
  } catch {
    /* no package.json beside the code: the version stays unknown */
  }
  try {
    const commit = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    if (commit) version += `+${commit}`;
  } catch {
    /* not a git checkout */
  }
  return (memo = version);
}
