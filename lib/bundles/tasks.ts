/**
 * Bundle exports and imports asked for on the web run off the request path: each is a `pal bundle`
 * child process (the same command researchers use in the shell) that writes its progress to a status
 * file beside its bundle, under `bundles/` next to the database. The process writes its own status,
 * so a server restart does not lose a build; one that died half-way (its pid gone while the status
 * says running) reads as failed, with the reason. A finished export is served as the file it wrote.
 */
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { spawn } from "node:child_process";
import { databasePath, projectRoot } from "@/db/client";

export type TaskState = "running" | "ready" | "failed";

export type BundleTask = {
  kind: "export" | "import" | "verify";
  state: TaskState;
  pid: number | null;
  startedAt: number;
  updatedAt: number;
  /** What it is doing now (a table being copied), and how far along. */
  step: string;
  done: number;
  total: number;
  error?: string;
  /** Export: the bundle's size once ready. */
  bytes?: number;
  /** Import: the experiment the run became, and whether it was here already. */
  experimentId?: number;
  alreadyImported?: boolean;
  /** Import: who started it (only they and admins read its status) and the file's name. */
  userId?: number;
  source?: string;
  /** When its process is stopped if still running (ms since the epoch; imports: limits.ts importTimeoutMs). */
  deadline?: number;
};

/** Where the web's bundles and their status files are (private to the server's account). */
export function tasksDir(): string {
  const dir = path.join(path.dirname(databasePath()), "bundles");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The file names of experiment `id`'s web export: the bundle and its status. */
export function exportFiles(id: number, withData: boolean): { bundle: string; status: string } {
  const base = path.join(tasksDir(), `experiment-${id}${withData ? "-with-data" : ""}`);
  return { bundle: `${base}.palbundle`, status: `${base}.json` };
}

/** An import's upload and status file, by its token (random: the token is all a status URL carries). */
export function importFiles(token: string): { upload: string; status: string } {
  if (!/^[0-9a-f]{32}$/.test(token)) throw new Error("not an import token");
  const base = path.join(tasksDir(), `import-${token}`);
  return { upload: `${base}.palbundle`, status: `${base}.json` };
}

/** The status file of experiment `id`'s verify (one at a time per experiment). */
export function verifyFiles(id: number): { status: string } {
  return { status: path.join(tasksDir(), `verify-${id}.json`) };
}

export const newToken = () => crypto.randomBytes(16).toString("hex");

/** Writes a status whole (a reader never sees half of one). */
export function writeTask(file: string, t: BundleTask): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(t), { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/** Updates the status in `file` with `change` (the process running the task: progress, its end). */
export function updateTask(file: string, change: Partial<BundleTask>): void {
  const t = readRaw(file);
  if (t) writeTask(file, { ...t, ...change, updatedAt: Date.now() });
}

function readRaw(file: string): BundleTask | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as BundleTask;
  } catch {
    return null;
  }
}

function alive(pid: number | null): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Stops a task's process at once (SIGKILL: an import dies inside its transaction, which SQLite rolls back). */
function stop(pid: number | null): void {
  if (!pid) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // gone already
  }
}

const overdue = (t: BundleTask) => t.deadline !== undefined && Date.now() > t.deadline;
const timedOut = (t: BundleTask) =>
  `stopped after ${Math.round((t.deadline! - t.startedAt) / 1000)} s, the longest a web import may run (PAL_BUNDLE_TIMEOUT_S); nothing was imported`;

/**
 * The status in `file`, or null; a running task whose process is gone reads as failed, and one past its
 * deadline is stopped (also when the server that started it has restarted since).
 */
export function readTask(file: string): BundleTask | null {
  const t = readRaw(file);
  if (t?.state === "running" && overdue(t) && alive(t.pid)) {
    stop(t.pid);
    updateTask(file, { state: "failed", error: timedOut(t) });
    return readRaw(file);
  }
  if (!t || t.state !== "running" || alive(t.pid)) return t;
  // Written by the process before it ended? Read again before calling it dead.
  const again = readRaw(file);
  if (again && again.state !== "running") return again;
  return { ...t, state: "failed", error: "the process building it stopped before it finished (the server restarted?); start it again" };
}

/**
 * Starts `pal bundle <args> --status <status>` in the background. The status file is written first
 * (running), so the page shows the task at once; a process that cannot start or ends without saying
 * so is recorded as failed.
 */
export function startTask(
  status: string,
  t: Pick<BundleTask, "kind" | "userId" | "source">,
  args: string[],
  removeAfter: string | null = null,
  timeoutMs: number | null = null,
): BundleTask {
  const root = projectRoot();
  const first: BundleTask = {
    ...t,
    ...(timeoutMs ? { deadline: Date.now() + timeoutMs } : {}),
    state: "running",
    pid: null,
    startedAt: Date.now(),
    updatedAt: Date.now(),
    step: "starting",
    done: 0,
    total: 0,
  };
  writeTask(status, first);
  const child = spawn(
    process.execPath,
    [path.join(/*turbopackIgnore: true*/ root, "bin", "pal.mjs"), "bundle", ...args, "--status", status],
    {
      cwd: root,
      env: { ...process.env, PAL_ROOT: root, PAL_DB: databasePath() },
      stdio: ["ignore", "ignore", "pipe"],
      // Past the deadline the process is killed (readTask stops it too, should this server restart).
      ...(timeoutMs ? { timeout: timeoutMs, killSignal: "SIGKILL" as const } : {}),
    },
  );
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-2000)));
  const fail = (why: string) => {
    const now = readRaw(status);
    if (now?.state === "running") updateTask(status, { state: "failed", error: why });
  };
  child.on("error", (e) => fail(`could not start: ${e.message}`));
  child.on("close", (code, signal) => {
    if (removeAfter) fs.rmSync(removeAfter, { force: true });
    const now = readRaw(status);
    if (signal && now?.state === "running") fail(now.deadline !== undefined && overdue(now) ? timedOut(now) : `stopped (${signal})`);
    else if (code !== 0)
      fail(
        stderr
          .trim()
          .split("\n")
          .filter(Boolean)
          .pop()
          ?.replace(/^pal: /, "") ?? `exit code ${code}`,
      );
  });
  updateTask(status, { pid: child.pid ?? null });
  return { ...first, pid: child.pid ?? null };
}

/** Stops a running task at once and records why (a cancel); a task that has ended is left as it is. */
export function cancelTask(file: string, why: string): BundleTask | null {
  const t = readTask(file);
  if (t?.state !== "running") return t;
  stop(t.pid);
  updateTask(file, { state: "failed", error: why });
  return readRaw(file);
}

/** The web verifies running now. */
export function runningVerifies(): number {
  return fs
    .readdirSync(tasksDir())
    .filter((f) => /^verify-\d+\.json$/.test(f))
    .filter((f) => readTask(path.join(tasksDir(), f))?.state === "running").length;
}

/** The web imports running now (their status files under tasksDir()); reading them stops any overdue. */
export function runningImports(): number {
  return fs
    .readdirSync(tasksDir())
    .filter((f) => /^import-[0-9a-f]{32}\.json$/.test(f))
    .filter((f) => readTask(path.join(tasksDir(), f))?.state === "running").length;
}
