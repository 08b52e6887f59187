/**
 * A person's write while another process holds SQLite's write lock (a long import): it waits the lock out
 * without holding the event loop, and past its limit fails as a 503 that says why, having changed nothing.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { tempDb } from "@/test/db";
import { whileBusy, isBusy } from "./db-busy";
import { storageError } from "./errors";

let t: ReturnType<typeof tempDb> | undefined;
afterEach(() => t?.cleanup());

/** Another process that takes the write lock, says so, holds it for `ms` and commits one row. */
function holdWriteLock(file: string, ms: number): Promise<{ done: Promise<void> }> {
  const script = `
    const db = require("better-sqlite3")(process.argv[1]);
    db.exec("BEGIN IMMEDIATE");
    db.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('held', '1', 0)").run();
    console.log("locked");
    setTimeout(() => { db.exec("COMMIT"); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ["-e", script, file], { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  child.stderr.on("data", (c) => (err += c));
  const done = new Promise<void>((r) => child.on("close", () => r()));
  return new Promise((resolve, reject) => {
    child.stdout.once("data", () => resolve({ done }));
    child.once("close", (code) => reject(new Error(`the lock holder exited (${code}) before it held the lock: ${err}`)));
  });
}

describe("whileBusy", () => {
  it("waits out another process's write, with the event loop free meanwhile, then writes", async () => {
    t = tempDb();
    t.db.$client.pragma("busy_timeout = 20");
    const other = await holdWriteLock(t.file, 600);
    const write = () => t!.db.$client.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('mine', '1', 0)").run();
    expect(() => write()).toThrow(expect.objectContaining({ code: "SQLITE_BUSY" }));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const started = Date.now();
    await whileBusy(write);
    clearInterval(ticker);
    expect(Date.now() - started).toBeGreaterThan(300);
    expect(ticks).toBeGreaterThan(10); // the loop ran other work while the write waited
    await other.done;
    const keys = t.db.$client.prepare("SELECT key FROM app_settings WHERE key IN ('held', 'mine') ORDER BY key").pluck().all();
    expect(keys).toEqual(["held", "mine"]);
  });

  it("past its limit the busy error reaches the person as a 503 naming the cause, and nothing was written", async () => {
    t = tempDb();
    t.db.$client.pragma("busy_timeout = 20");
    const other = await holdWriteLock(t.file, 1500);
    const e = await whileBusy(
      () => t!.db.$client.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('mine', '1', 0)").run(),
      {
        maxMs: 200,
      },
    ).catch((x: unknown) => x);
    expect(isBusy(e)).toBe(true);
    const shown = storageError(e);
    expect(shown?.status).toBe(503);
    expect(shown?.message).toMatch(/another long write .*import.* \(SQLITE_BUSY\)\. Nothing was changed/);
    await other.done;
    expect(t.db.$client.prepare("SELECT count(*) FROM app_settings WHERE key = 'mine'").pluck().get()).toBe(0);
  });

  it("other errors are not retried", async () => {
    let tries = 0;
    await expect(
      whileBusy(() => {
        tries++;
        throw Object.assign(new Error("constraint"), { code: "SQLITE_CONSTRAINT_UNIQUE" });
      }),
    ).rejects.toThrow("constraint");
    expect(tries).toBe(1);
  });
});
