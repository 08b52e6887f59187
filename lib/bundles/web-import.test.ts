/**
 * The web's bundle import (issue 40, items 2 and 7): a time limit (the process is stopped and nothing is
 * written, also when the server restarted since it began), a cancel, and at most BUNDLE_LIMITS.webImports
 * imports at once. Real child processes (`pal bundle import`, and `sleep` standing for an import that
 * never ends), a real database.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { genuineBundle, rowCounts } from "@/test/hostile-bundle";
import { importFiles, newToken, readTask, startTask, writeTask, type BundleTask } from "./tasks";
import { cancelImport, importTaskOf, startUploadedImport } from "./web";
import { BUNDLE_LIMITS } from "./limits";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const until = async (ok: () => boolean, ms = 60_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await new Promise((r) => setTimeout(r, 100));
};

describe("web bundle imports", () => {
  const t = tempDb();
  const before = process.env.PAL_DB;
  const children: ChildProcess[] = [];
  /** A process that runs until killed, as an endless import would. */
  const endless = () => {
    const c = spawn("sleep", ["600"], { stdio: "ignore" });
    children.push(c);
    return c;
  };
  /** A running import task of user 1 whose process is `pid`. */
  const running = (pid: number, extra: Partial<BundleTask> = {}) => {
    const token = newToken();
    writeTask(importFiles(token).status, {
      kind: "import",
      state: "running",
      pid,
      startedAt: Date.now(),
      updatedAt: Date.now(),
      step: "jobs",
      done: 1,
      total: 20,
      userId: 1,
      source: "x.palbundle",
      ...extra,
    });
    return token;
  };
  const user = { id: 1, role: "researcher" };

  beforeAll(() => {
    process.env.PAL_DB = t.file; // the tasks' folder is beside the database, and the child process opens it
  });
  afterAll(() => {
    for (const c of children) if (c.pid && alive(c.pid)) c.kill("SIGKILL");
    process.env.PAL_DB = before;
    t.cleanup();
  });

  it("an import past its time limit is stopped, says so, and writes nothing", async () => {
    const bundle = genuineBundle(path.dirname(t.file));
    const counts = rowCounts(t.db);
    const token = newToken();
    const f = importFiles(token);
    fs.copyFileSync(bundle, f.upload);
    // 1 ms: the CLI has not even started by then, however busy the machine (at 300 ms a quiet machine's CLI once
    // finished the import first and the check saw "ready").
    startTask(f.status, { kind: "import", userId: 1, source: "slow.palbundle" }, ["import", f.upload, "--json"], f.upload, 1);
    await until(() => readTask(f.status)?.state !== "running");
    expect(readTask(f.status)).toMatchObject({ state: "failed", error: expect.stringContaining("the longest a web import may run") });
    expect(rowCounts(t.db)).toEqual(counts);
    // After a server restart nobody holds the child's timer: reading the status stops one past its deadline.
    const c = endless();
    const late = running(c.pid!, { deadline: Date.now() - 1 });
    expect(importTaskOf(late, user)).toMatchObject({ state: "failed", error: expect.stringContaining("PAL_BUNDLE_TIMEOUT_S") });
    await until(() => c.exitCode !== null || c.signalCode !== null);
    expect(c.signalCode).toBe("SIGKILL");
  }, 120_000);

  it("a running import can be cancelled by its user (not by another researcher)", async () => {
    const c = endless();
    const token = running(c.pid!);
    expect(() => cancelImport(token, { id: 2, role: "researcher" })).toThrow(/no such import/);
    expect(cancelImport(token, user)).toMatchObject({ state: "failed", error: "cancelled; nothing was imported" });
    await until(() => c.signalCode !== null);
    expect(c.signalCode).toBe("SIGKILL");
  });

  it(`at most ${BUNDLE_LIMITS.webImports} imports run at once; one more is refused before its upload is read`, async () => {
    const tokens = Array.from({ length: BUNDLE_LIMITS.webImports }, () => running(endless().pid!));
    let read = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(ctl) {
          read = true;
          ctl.close();
        },
      },
      { highWaterMark: 0 },
    );
    await expect(startUploadedImport(body, "third.palbundle", 1)).rejects.toMatchObject({ status: 429 });
    expect(read).toBe(false);
    for (const tok of tokens) cancelImport(tok, user);
  });
});
