/**
 * Cancel and resume against a `pal run` that commits on its own connection at the worst moment: after the
 * control's transaction has read the experiment's status and before it writes (commit a37c3d2). In WAL a
 * deferred transaction that has read holds a snapshot; once another connection commits, the upgrade to a
 * write fails at once with SQLITE_BUSY_SNAPSHOT ("database is locked"), which busy_timeout cannot wait out.
 * An immediate transaction holds the write lock before it reads, so the other writer waits instead.
 *
 * Deterministic, with no seam in production code: the test wraps better-sqlite3's statement reads so that
 * right after the control's first read of `experiments` inside its transaction, a second connection to the
 * same file (the "pal run") commits a job update. That connection has no busy timeout: in one thread it
 * cannot wait for the first, so a refused write is recorded and retried after the control returns, as a
 * waiting pal run's would be. With the deferred transactions of before a37c3d2 both tests fail with
 * "database is locked" thrown by cancel/resume (checked by putting the old control.ts back).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { tempDb } from "@/test/db";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { datasets } from "@/db/schema";
import type { Db } from "@/db/client";
import { createExperiment } from "./create";
import { cancelExperiment, pauseExperiment, resumeExperiment } from "./control";

type Race = { ran: boolean; refused: string | null; retry: () => void; restore: () => void };

/**
 * After the first read of `experiments` inside a transaction on `db`'s connection, `write` (on the other
 * connection) commits, once. The statements' shared prototype is patched, not one statement: drizzle's
 * session keeps its statements in a cache (db/client.ts), so the read may reuse one prepared earlier.
 * Returns what became of that write; `restore()` undoes the patch.
 */
function commitAfterFirstRead(db: Db, write: () => void): Race {
  const client = db.$client;
  const proto = Object.getPrototypeOf(client.prepare("SELECT 1")) as Database.Statement;
  const { get, all } = proto;
  const race: Race = { ran: false, refused: null, retry: write, restore: () => void Object.assign(proto, { get, all }) };
  const after = (stmt: Database.Statement) => {
    // Only the control's own read inside its transaction (resume's limit check reads before it).
    if (race.ran || stmt.database !== client || !client.inTransaction) return;
    if (!/^select\b[\s\S]*\bfrom "experiments"/i.test(stmt.source.trim())) return;
    race.ran = true;
    try {
      write();
    } catch (e) {
      race.refused = (e as Error).message;
    }
  };
  Object.assign(proto, {
    get(this: Database.Statement, ...a: unknown[]) {
      const out = get.apply(this, a);
      after(this);
      return out;
    },
    all(this: Database.Statement, ...a: unknown[]) {
      const out = all.apply(this, a);
      after(this);
      return out;
    },
  });
  return race;
}

describe("cancel and resume hold the write lock before they read (a pal run commits in between)", () => {
  let t: ReturnType<typeof tempDb>;
  let other: Database.Database;
  let datasetId: number;

  beforeAll(async () => {
    t = tempDb();
    const files = fs
      .readdirSync(PALSET_EN)
      .filter((f) => f.endsWith(".json"))
      .map((f) => path.join(PALSET_EN, f));
    await importPalset(t.db, { paths: files, name: "en", lang: "en" });
    datasetId = t.db.select().from(datasets).get()!.id;
    // The running pal run: its own connection to the same WAL file; no busy wait (one thread, see above).
    other = new Database(t.file, { timeout: 0 });
  });
  afterAll(() => {
    other.close();
    t.cleanup();
  });

  const status = (id: number) => (other.prepare("SELECT status FROM experiments WHERE id = ?").get(id) as { status: string }).status;
  /** What a running pal run commits between two jobs: one job's row updated. */
  const runCommits = (id: number) => () => {
    const j = other.prepare("SELECT id FROM jobs WHERE experiment_id = ? ORDER BY id LIMIT 1").get(id) as { id: number };
    other.prepare("UPDATE jobs SET updated_at = ? WHERE id = ?").run(Date.now(), j.id);
  };

  it("cancel: the run's commit waits for the cancel, which succeeds; nothing is 'database is locked'", () => {
    const { id } = createExperiment(t.db, {
      name: "race-cancel",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"] },
    });
    const race = commitAfterFirstRead(t.db, runCommits(id));
    try {
      expect(() => cancelExperiment(t.db, id)).not.toThrow();
    } finally {
      race.restore();
    }
    expect(race.ran).toBe(true);
    // The write lock was the cancel's when it read: the run's write was refused then (SQLITE_BUSY), not the cancel's.
    expect(race.refused).toMatch(/database is locked/);
    expect(status(id)).toBe("cancelled");
    // The run's commit goes through once the cancel is done, as a waiting writer's would.
    expect(() => race.retry()).not.toThrow();
  });

  it("resume: the same race on a paused experiment", () => {
    const { id } = createExperiment(t.db, {
      name: "race-resume",
      datasetId,
      config: { methods: [{ name: "vanilla" }], tasks: ["requirement"] },
    });
    pauseExperiment(t.db, id);
    const race = commitAfterFirstRead(t.db, runCommits(id));
    try {
      expect(() => resumeExperiment(t.db, id)).not.toThrow();
    } finally {
      race.restore();
    }
    expect(race.ran).toBe(true);
    expect(race.refused).toMatch(/database is locked/);
    expect(status(id)).toBe("queued");
    expect(() => race.retry()).not.toThrow();
  });
});
