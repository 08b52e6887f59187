/**
 * The project's version as a run record states it: package.json's version and the git commit of the
 * build (PAL_BUILD_COMMIT, set by next.config.ts when the app is built; else read from the checkout the
 * CLI runs from; null when neither is known). Read once per process.
 */
import { execFileSync } from "node:child_process";
import pkg from "../package.json";

export type ProjectVersion = { version: string; commit: string | null };

let cached: ProjectVersion | null = null;

/** The commit of the checkout in `cwd`, or null (no git, not a checkout). */
export function gitCommit(cwd = process.cwd()): string | null {
  try {
    const out = execFileSync("git", ["rev-parse", "HEAD"], { cwd, stdio: ["ignore", "pipe", "ignore"], timeout: 2000 })
      .toString()
      .trim();
    return /^[0-9a-f]{40}$/.test(out) ? out : null;
  } catch {
    return null;
  }
}

export function projectVersion(): ProjectVersion {
  if (!cached) cached = { version: pkg.version, commit: process.env.PAL_BUILD_COMMIT || gitCommit() };
  return cached;
}

/** One line for an export or a bundle: "0.1.0+<12-digit commit>" (the version alone outside a checkout). */
export function projectVersionText(): string {
  const v = projectVersion();
  return v.commit ? `${v.version}+${v.commit.slice(0, 12)}` : v.version;
}
