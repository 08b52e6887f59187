/**
 * Verifying an imported run of this database (issue 44, item 5): `pal bundle verify ID` replays it offline
 * from the replies its bundle brought and keeps the outcome as the run's badge ("verified on <date>, N of
 * N identical", or "M of N differ" with the jobs); the web starts the same command as a background task.
 * Real SQLite files, the real CLI and child processes, the TEST DOUBLE endpoint for the original run only.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { tempDb } from "@/test/db";
import { runPal, oneRun } from "@/test/pal-cli";
import { startFakeOpenAI, type FakeOpenAI } from "@/test/fake-openai";
import { experimentReplies } from "@/test/experiment-replies";
import { PALSET_EN } from "@/test/fixtures";
import { importPalset } from "@/lib/datasets/palset/import";
import { createUser } from "@/lib/users/users";
import { createExperiment } from "@/lib/experiments/create";
import { readTask, verifyFiles } from "@/lib/bundles/tasks";
import { cancelVerify, startVerify, verifyTaskOf } from "@/lib/bundles/web";

const CLOSED = "http://127.0.0.1:9/v1";

describe("verify an imported run", () => {
  let fake: FakeOpenAI;
  const src = tempDb();
  const dir = fs.mkdtempSync(path.join(path.dirname(src.file), "verify-run-"));
  const withData = path.join(dir, "with-data.palbundle");
  const pal = (db: string, args: string[], baseURL = CLOSED) => runPal(db, baseURL, args);
  const one = <T>(file: string, sql: string) => {
    const d = new Database(file, { readonly: true });
    try {
      return d.prepare(sql).get() as T;
    } finally {
      d.close();
    }
  };

  beforeAll(async () => {
    await importPalset(src.db, { paths: [PALSET_EN], name: "en", lang: "en" });
    fake = await startFakeOpenAI();
    fake.setResponder(experimentReplies());
    const r = await pal(src.file, oneRun("vanilla", "requirement,solution", "--users", "0000", "--json"), fake.baseURL);
    expect(r.code, r.stderr).toBe(0);
    expect((await pal(src.file, ["bundle", "export", "1", "--out", withData, "--with-data"])).code).toBe(0);
  }, 180_000);

  afterAll(async () => {
    await fake.close();
    src.cleanup();
  });

  it("pal bundle verify ID: all identical, no request sent; the badge is kept and the run card shows it", async () => {
    const dst = tempDb();
    try {
      expect((await pal(dst.file, ["bundle", "import", withData])).code).toBe(0);
      const sent = fake.log.length;
      const r = await pal(dst.file, ["bundle", "verify", "1", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      const rep = JSON.parse(r.stdout);
      expect(rep).toMatchObject({ ok: true, requests: 0, different: [] });
      expect(rep.jobs).toBeGreaterThan(1);
      expect(fake.log.length).toBe(sent);
      const row = one<{ jobs: number; identical: number; ok: number }>(
        dst.file,
        "SELECT jobs, identical, ok FROM experiment_verifications",
      );
      expect(row).toEqual({ jobs: rep.jobs, identical: rep.jobs, ok: 1 });
      const day = new Date().toISOString().slice(0, 10);
      const card = await pal(dst.file, ["bundle", "card", "1"]);
      expect(card.stdout).toContain(`verified on ${day}, ${rep.jobs} of ${rep.jobs} identical`);
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("an imported run under another id than in its lab: verify works, and no other run's record is touched", async () => {
    const dst = tempDb();
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      const local = await pal(dst.file, oneRun("vanilla", "requirement", "--users", "0000", "--json"), fake.baseURL);
      expect(local.code, local.stderr).toBe(0);
      const localRecord = () =>
        one<{ record: string }>(dst.file, "SELECT record FROM experiment_run_records WHERE experiment_id = 1").record;
      const before = localRecord();
      expect((await pal(dst.file, ["bundle", "import", withData])).code).toBe(0);
      // The bundle's run was experiment 1 in its lab; here it is 2. Its record is rewritten under 2 only.
      const r = await pal(dst.file, ["bundle", "verify", "2", "--json"]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, requests: 0, different: [] });
      expect(localRecord()).toBe(before);
      const imported = one<{ record: string }>(dst.file, "SELECT record FROM experiment_run_records WHERE experiment_id = 2");
      expect(JSON.parse(imported.record).experimentId).toBe(2);
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("a run whose stored output is not what its replies give: M of N differ, the jobs listed; exit 3", async () => {
    const dst = tempDb();
    try {
      expect((await pal(dst.file, ["bundle", "import", withData])).code).toBe(0);
      const d = new Database(dst.file);
      const job = d.prepare("SELECT min(id) FROM jobs WHERE status = 'done'").pluck().get() as number;
      d.prepare("UPDATE jobs SET output = json_object('text', 'edited after import') WHERE id = ?").run(job);
      d.close();
      const r = await pal(dst.file, ["bundle", "verify", "1"]);
      expect(r.code).toBe(3);
      expect(r.stdout).toContain(`job ${job} (`);
      const db = openDb(dst.file);
      try {
        const { verification } = verifyTaskOf(db, 1);
        expect(verification).toMatchObject({ ok: false, differentCount: 1 });
        expect(verification!.badge).toMatch(new RegExp(`^verified on \\d{4}-\\d{2}-\\d{2}: 1 of ${verification!.jobs} differ$`));
        expect(verification!.jobsDiffer).toEqual([{ job, where: expect.stringContaining("run 1"), what: "its output differs" }]);
      } finally {
        db.$client.close();
      }
    } finally {
      dst.cleanup();
    }
  }, 120_000);

  it("the web's Verify runs the same command in the background: running, then ready with the badge; a native run is refused", async () => {
    const dst = tempDb();
    const before = process.env.PAL_DB;
    process.env.PAL_DB = dst.file; // the task's process opens it; its status file is beside it
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      expect((await pal(dst.file, ["bundle", "import", withData])).code).toBe(0);
      const me = (await createUser(dst.db, { email: "r@lab.example", name: "R", role: "researcher", password: "a-long-password-1" })).id;
      const first = startVerify(dst.db, 1, me);
      expect(first).toMatchObject({ kind: "verify", state: "running", userId: me });
      // Asked again while it runs: the same task, not a second process.
      expect(startVerify(dst.db, 1, me).startedAt).toBe(first.startedAt);
      const seen = new Set<string>();
      for (const end = Date.now() + 90_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        const t = readTask(verifyFiles(1).status)!;
        seen.add(t.step);
        if (t.state !== "running") break;
      }
      const { task, verification } = verifyTaskOf(dst.db, 1);
      expect(task, task?.error).toMatchObject({ state: "ready", step: "done" });
      expect(task!.total).toBe(task!.done);
      expect(verification).toMatchObject({
        ok: true,
        badge: expect.stringMatching(/^verified on \d{4}-\d{2}-\d{2}, (\d+) of \1 identical$/),
      });
      expect(dst.db.$client.prepare("SELECT verified_by FROM experiment_verifications").pluck().get()).toBe(me);
      expect([...seen].some((s) => s !== "starting")).toBe(true);

      // A run of this lab (not imported) has no Verify on the web.
      const ds = dst.db.$client.prepare("SELECT id FROM datasets WHERE name = 'en'").pluck().get() as number;
      const native = createExperiment(dst.db, {
        name: "ours",
        datasetId: ds,
        config: { methods: [{ name: "vanilla" }], tasks: ["requirement"], users: ["0000"], repeats: 1 },
      }).id;
      dst.db.$client.prepare("UPDATE experiments SET status = 'done' WHERE id = ?").run(native);
      expect(() => startVerify(dst.db, native, me)).toThrow(/was not imported from a bundle/);
    } finally {
      process.env.PAL_DB = before;
      dst.cleanup();
    }
  }, 150_000);

  it("a verify under way can be cancelled: its process stops and nothing is recorded", async () => {
    const dst = tempDb();
    const before = process.env.PAL_DB;
    process.env.PAL_DB = dst.file;
    try {
      await importPalset(dst.db, { paths: [PALSET_EN], name: "en", lang: "en" });
      expect((await pal(dst.file, ["bundle", "import", withData])).code).toBe(0);
      const started = startVerify(dst.db, 1, null);
      expect(started.pid).toBeGreaterThan(0);
      // At once: the process has not finished starting (a node process loading the CLI).
      expect(cancelVerify(1)).toMatchObject({ state: "failed", error: "cancelled; nothing was recorded" });
      await new Promise((r) => setTimeout(r, 1500));
      expect(() => process.kill(started.pid!, 0)).toThrow();
      expect(verifyTaskOf(dst.db, 1)).toMatchObject({ task: { state: "failed" }, verification: null });
    } finally {
      process.env.PAL_DB = before;
      dst.cleanup();
    }
  }, 120_000);
});
