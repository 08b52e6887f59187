/**
 * The reliability checks run the real app: `next start` as its own process group on a temp database,
 * with the fake OpenAI server (TEST DOUBLE, test/fake-openai.ts) as every model endpoint. A check can
 * SIGKILL it (the whole group, as a crash or an OOM kill would) and start it again on the same file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { ensureBuild } from "@/bench/app-build";
import { signIn, type Jar } from "@/bench/http-session";
import { ROOT } from "@/test/fixtures";
import { freePort, waitForHttp } from "@/test/local-server";

export { signIn, type Jar };
export const PASSWORD = "reliability-pass-1";

export type App = {
  base: string;
  pid: number;
  output: () => string;
  /** SIGKILL to the whole process group; resolves when the server is gone. */
  kill9: () => Promise<void>;
  /** SIGTERM, then SIGKILL if it lingers. */
  stop: () => Promise<void>;
};

/** The model roles all pointed at the fake server. */
export function modelEnv(fakeBaseURL: string): Record<string, string> {
  return {
    OPENAI_BASE_URL: fakeBaseURL,
    OPENAI_API_KEY: "test-key",
    PAL_MODEL_ASSISTANT: "fake-assistant",
    PAL_MODEL_USER_SIMULATOR: "fake-simulator",
    PAL_MODEL_JUDGE: "fake-judge",
  };
}

let built = false;

/** Starts `next start` on `dbPath` (building first when the build is missing or stale). */
export async function startApp(dbPath: string, env: Record<string, string> = {}, port?: number): Promise<App> {
  if (!built) {
    ensureBuild(ROOT);
    built = true;
  }
  port ??= await freePort();
  const base = `http://localhost:${port}`;
  let out = "";
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "node_modules/next/dist/bin/next"), "start", "-p", String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      PAL_DB: dbPath,
      NEXTAUTH_SECRET: "reliability-secret-not-for-production",
      NEXTAUTH_URL: base,
      NODE_ENV: "production",
      ...env,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* gone already */
    }
    await exited;
  };
  await waitForHttp(`${base}/login`, child, () => out);
  return {
    base,
    pid: child.pid!,
    output: () => out,
    kill9: () => signal("SIGKILL"),
    stop: async () => {
      const t = setTimeout(() => void signal("SIGKILL"), 5000);
      await signal("SIGTERM");
      clearTimeout(t);
    },
  };
}

/** A temp folder for one check's databases; removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `pal-rel-${prefix}-`));
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** `PRAGMA integrity_check` and `foreign_key_check` of a database file: the problems (none when sound). */
export function dbProblems(file: string): string[] {
  const db = new Database(file, { fileMustExist: true });
  try {
    const integrity = (db.pragma("integrity_check") as Array<{ integrity_check: string }>)
      .map((r) => r.integrity_check)
      .filter((r) => r !== "ok");
    const fk = (db.pragma("foreign_key_check") as Array<{ table: string; rowid: number; parent: string }>).map(
      (r) => `${r.table} row ${r.rowid} → missing ${r.parent}`,
    );
    return [...integrity, ...fk];
  } finally {
    db.close();
  }
}

/** POST JSON as the app's own pages do (the CSRF guard wants the app's origin). */
export function postJson(base: string, jar: Jar, url: string, body: unknown, method = "POST"): Promise<Response> {
  return fetch(`${base}${url}`, {
    method,
    headers: { "content-type": "application/json", cookie: jar.header(), origin: base },
    body: JSON.stringify(body),
  });
}

/** Polls `check` every 200 ms until it returns true (or throws after `ms`, naming `what`). */
export async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
