/**
 * Reliability check 5: the disk fills up, or the database becomes read-only, while an annotator submits.
 * The database lives on a small tmpfs of its own, filled up for the first case (mounting one needs root;
 * without it the checks are skipped, saying so). The read-only case is run in-process (see there). The annotator gets a plain 503 message (no stack), the autosaved draft is kept,
 * nothing of the submission is written, and once the disk is back the same submission goes through.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { openDb, type Db } from "@/db/client";
import * as schema from "@/db/schema";
import { submitLabels } from "@/lib/annotation/queue";
import { storageError } from "@/lib/errors";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { dbProblems, PASSWORD, postJson, signIn, startApp, tempDir, type App } from "./app";

const tmp = tempDir("full");
const mnt = path.join(tmp.dir, "disk");
let mounted = false;
try {
  fs.mkdirSync(mnt);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=6m", "tmpfs", mnt], { stdio: "ignore" });
  mounted = true;
} catch {
  console.warn("storage check skipped: mounting a tmpfs needs root");
}

describe.skipIf(!mounted)("a full disk or a read-only database during a submit", () => {
  const dbPath = path.join(mnt, "pal.db");
  let app: App | null = null;
  let assignmentIds: number[] = [];

  beforeAll(async () => {
    const db = openDb(dbPath);
    const r = await createUser(db, { email: "full-r@pal.local", role: "researcher", password: PASSWORD });
    const a = await createUser(db, { email: "full-a@pal.local", role: "annotator", password: PASSWORD });
    const lines = [0, 1, 2].map((i) =>
      JSON.stringify({ id: `t${i}`, user_info: `u${i}`, a: { system: "x", output: `a ${i}` }, b: { system: "y", output: `b ${i}` } }),
    );
    createCampaign(
      db,
      {
        name: "full",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: [a.id],
        source: { kind: "upload", fileName: "f.jsonl", text: lines.join("\n") },
      },
      r.id,
    );
    assignmentIds = (db.$client.prepare("SELECT id FROM assignments ORDER BY position").all() as Array<{ id: number }>).map((x) => x.id);
    db.$client.close();
    app = await startApp(dbPath, { PAL_SERVER_WORKER: "0" });
  });
  afterAll(async () => {
    await app?.stop();
    if (mounted) {
      execFileSync("umount", [mnt]);
    }
    tmp.cleanup();
  });

  /** The assignment's state as stored: status, draft, labels. */
  const state = (id: number) => {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      const a = db.prepare("SELECT status, draft, submission_id s FROM assignments WHERE id = ?").get(id) as {
        status: string;
        draft: string | null;
        s: string | null;
      };
      const labels = (db.prepare("SELECT count(*) n FROM labels WHERE assignment_id = ?").get(id) as { n: number }).n;
      return { status: a.status, draft: a.draft ? JSON.parse(a.draft) : null, submissionId: a.s, labels };
    } finally {
      db.close();
    }
  };

  /** Closes the WAL's free space (a checkpoint truncates it) so the next write must grow a file. */
  const truncateWal = () => {
    const db = new Database(dbPath, { fileMustExist: true });
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
  };

  async function submitUnder(fault: { break: () => void; mend: () => void; expect: RegExp }, id: number) {
    const jar = await signIn(app!.base, "full-a@pal.local", PASSWORD);
    const draft = { values: { requirement: "Win" }, comments: {} };
    const saved = await postJson(app!.base, jar, `/api/assignments/${id}`, { draft, ms: 100 }, "PATCH");
    expect(saved.status).toBe(200);
    const submit = () =>
      postJson(app!.base, jar, `/api/assignments/${id}`, {
        action: "submit",
        submissionId: `full-submission-${id}`,
        values: { requirement: "Win", preference: "Lose" },
        ms: 900,
      });
    fault.break();
    let r: Response;
    let body: { error?: string; code?: string };
    try {
      r = await submit();
      body = (await r.json().catch(() => ({}))) as typeof body;
    } finally {
      fault.mend();
    }
    // A clear answer the page shows as is ("Not saved: ..."), not a 500 with a stack.
    expect(r.status, JSON.stringify(body)).toBe(503);
    expect(body.code).toBe("storage_unavailable");
    expect(body.error).toMatch(fault.expect);
    expect(body.error).not.toMatch(/\n\s+at /);
    // Nothing half-written; the draft is still there to resume from.
    expect(state(id)).toEqual({ status: "pending", draft, submissionId: null, labels: 0 });
    // With the disk back, the same submission goes through.
    const again = await submit();
    expect(again.status, await again.clone().text()).toBe(200);
    expect(state(id)).toMatchObject({ status: "done", submissionId: `full-submission-${id}`, labels: 2 });
  }

  it("disk full: 503 'disk is full', draft kept, nothing written, then the retry is stored", async () => {
    const filler = path.join(mnt, "filler");
    await submitUnder(
      {
        break: () => {
          truncateWal();
          // Fill every free byte of the tmpfs.
          const fd = fs.openSync(filler, "w");
          const chunk = Buffer.alloc(64 * 1024);
          try {
            for (;;) fs.writeSync(fd, chunk);
          } catch {
            /* ENOSPC: full */
          }
          try {
            for (;;) fs.writeSync(fd, chunk, 0, 512);
          } catch {
            /* the last bytes */
          }
          fs.closeSync(fd);
        },
        mend: () => fs.rmSync(filler, { force: true }),
        expect: /disk is full/,
      },
      assignmentIds[0],
    );
  });

  it("read-only database: the submit fails as a storage error (503 'read-only'), draft kept, nothing written", async () => {
    // A live server's database cannot be made read-only from outside (a remount is refused while it has
    // the file open for writing, and a server started on a read-only file cannot open its WAL at all),
    // so this case runs the same submit in this process over a read-only connection to the same file.
    const id = assignmentIds[1];
    const jar = await signIn(app!.base, "full-a@pal.local", PASSWORD);
    const draft = { values: { requirement: "Tie" }, comments: {} };
    expect((await postJson(app!.base, jar, `/api/assignments/${id}`, { draft, ms: 100 }, "PATCH")).status).toBe(200);
    const sqlite = new Database(dbPath, { readonly: true, fileMustExist: true });
    const ro = drizzle(sqlite, { schema }) as unknown as Db;
    const annotator = (sqlite.prepare("SELECT id FROM users WHERE email = 'full-a@pal.local'").get() as { id: number }).id;
    let thrown: unknown = null;
    try {
      submitLabels(ro, annotator, id, { submissionId: `full-submission-${id}`, values: { requirement: "Tie", preference: "Win" }, ms: 50 });
    } catch (e) {
      thrown = e;
    } finally {
      sqlite.close();
    }
    const mapped = storageError(thrown);
    expect(mapped?.status).toBe(503);
    expect(mapped?.message).toMatch(/read-only/);
    expect(state(id)).toEqual({ status: "pending", draft, submissionId: null, labels: 0 });
    await app!.stop();
    app = null;
    expect(dbProblems(dbPath)).toEqual([]);
  });
});
