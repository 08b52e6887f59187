/**
 * Reliability check 2: `pal backup` and `pal restore`.
 *
 * - a backup taken while the server runs, restored into a new PAL_DB, serves the same pages and counts;
 * - backups taken again and again while `pal import` writes a data set each hold none or all of it, and
 *   pass `integrity_check` and `foreign_key_check`;
 * - `pal restore` refuses to overwrite a database the server has open, says so, and changes nothing.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { datasets } from "@/db/schema";
import { createUser } from "@/lib/users/users";
import { createCampaign } from "@/lib/annotation/campaigns";
import { submitLabels } from "@/lib/annotation/queue";
import { importPalset } from "@/lib/datasets/palset/import";
import { backupDatabase } from "@/lib/db-backup";
import { PALSET_EN, PALSET_ZH, ROOT } from "@/test/fixtures";
import { dbProblems, PASSWORD, signIn, startApp, tempDir, waitUntil, type App } from "./app";

const run = promisify(execFile);
const jsonFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => path.join(dir, f));

/** Runs the CLI on `db`; resolves with its exit code and output (never throws). */
async function pal(db: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(ROOT, "bin/pal.mjs"), ...args], {
      env: { ...process.env, PAL_DB: db },
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

/** What a signed-in admin sees: JSON lists and exports, and the visible text of pages. */
async function snapshot(base: string, campaignId: number, datasetId: number): Promise<Record<string, string>> {
  const jar = await signIn(base, "bk-admin@pal.local", PASSWORD);
  // The agreement report is computed in the background after a first view: wait until it is current.
  await waitUntil("the campaign's agreement report", async () =>
    /data-state="current"/.test(await (await fetch(`${base}/campaigns/${campaignId}`, { headers: { cookie: jar.header() } })).text()),
  );
  const out: Record<string, string> = {};
  for (const url of [
    "/api/admin/users",
    "/api/experiments",
    `/api/campaigns/${campaignId}/export`,
    `/api/datasets/${datasetId}/export`,
    "/datasets",
    "/campaigns",
    `/campaigns/${campaignId}`,
  ]) {
    const r = await fetch(`${base}${url}`, { headers: { cookie: jar.header() } });
    expect(r.status, url).toBe(200);
    const text = await r.text();
    out[url] = url.startsWith("/api/")
      ? text.replace(/"lastLoginAt":\d+/g, '"lastLoginAt":"(this sign-in)"')
      : text
          .replace(/<script[\s\S]*?<\/script>/g, "")
          .replace(/<[^>]+>/g, " ")
          .replace(/\s+/g, " ")
          // The report's age moves on between the two snapshots.
          .replace(/computed (just now|\d+ (s|min|h) ago)/g, "computed (age)");
  }
  return out;
}

describe("pal backup and pal restore", () => {
  const tmp = tempDir("backup");
  const live = path.join(tmp.dir, "live.db");
  let app: App | null = null;
  let campaignId = 0;
  let datasetId = 0;

  beforeAll(async () => {
    const db = openDb(live);
    await createUser(db, { email: "bk-admin@pal.local", role: "admin", password: PASSWORD });
    const r = await createUser(db, { email: "bk-r@pal.local", role: "researcher", password: PASSWORD });
    const a = await createUser(db, { email: "bk-a@pal.local", role: "annotator", password: PASSWORD });
    await importPalset(db, { paths: jsonFiles(PALSET_EN), name: "en", lang: "en" });
    datasetId = db.select().from(datasets).get()!.id;
    const lines = [0, 1, 2, 3].map((i) =>
      JSON.stringify({ id: `t${i}`, user_info: `u${i}`, a: { system: "x", output: `a ${i}` }, b: { system: "y", output: `b ${i}` } }),
    );
    campaignId = createCampaign(
      db,
      {
        name: "bk",
        kind: "pairwise-dialogue",
        perItem: 1,
        annotatorIds: [a.id],
        source: { kind: "upload", fileName: "b.jsonl", text: lines.join("\n") },
      },
      r.id,
    ).id;
    const ids = (db.$client.prepare("SELECT id FROM assignments ORDER BY position").all() as Array<{ id: number }>).map((x) => x.id);
    for (const id of ids.slice(0, 3))
      submitLabels(db, a.id, id, { submissionId: `bk-submission-${id}`, values: { requirement: "Win", preference: "Tie" }, ms: 10 });
    db.$client.close();
    app = await startApp(live, { PAL_SERVER_WORKER: "0" });
  });
  afterAll(async () => {
    await app?.stop();
    tmp.cleanup();
  });

  it("a backup of the running server, restored into a new PAL_DB, serves the same pages and counts", async () => {
    const before = await snapshot(app!.base, campaignId, datasetId);
    const file = path.join(tmp.dir, "while-serving.db");
    const b = await pal(live, "backup", "--out", file, "--json");
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout).file).toBe(file);
    expect(dbProblems(file)).toEqual([]);
    // A second backup to the same file is refused (nothing overwritten).
    const again = await pal(live, "backup", "--out", file);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists already/);

    // Restoring over the database the server has open is refused, naming the process; nothing changes.
    const liveBytes = fs.readFileSync(live);
    const refused = await pal(live, "restore", "--from", file);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/in use by process \d+/);
    expect(fs.readFileSync(live).equals(liveBytes)).toBe(true);

    const restored = path.join(tmp.dir, "restored.db");
    const r = await pal(restored, "restore", "--from", file);
    expect(r.code, r.stderr).toBe(0);
    expect(dbProblems(restored)).toEqual([]);
    const second = await startApp(restored, { PAL_SERVER_WORKER: "0" });
    try {
      expect(await snapshot(second.base, campaignId, datasetId)).toEqual(before);
    } finally {
      await second.stop();
    }
  });

  it("backups taken while `pal import` writes hold none or all of the import, and pass integrity_check", async () => {
    const count = (file: string) => {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        const q = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
        return {
          datasets: q("SELECT count(*) n FROM datasets"),
          users: q("SELECT count(*) n FROM pal_users"),
          samples: q("SELECT count(*) n FROM pal_samples"),
          logs: q("SELECT count(*) n FROM pal_logs"),
        };
      } finally {
        db.close();
      }
    };
    const without = count(live);
    const importer = spawn(
      process.execPath,
      [path.join(ROOT, "bin/pal.mjs"), "import", "palset", ...jsonFiles(PALSET_ZH), "--name", "zh"],
      {
        env: { ...process.env, PAL_DB: live },
        stdio: "ignore",
      },
    );
    const finished = new Promise<number>((resolve) => importer.once("exit", (c) => resolve(c ?? 1)));
    let done = false;
    void finished.then(() => (done = true));
    const seen: Array<ReturnType<typeof count>> = [];
    let i = 0;
    while (!done || seen.length < 3) {
      const file = path.join(tmp.dir, `during-import-${i++}.db`);
      await backupDatabase(live, file);
      expect(dbProblems(file)).toEqual([]);
      seen.push(count(file));
      fs.rmSync(file);
    }
    expect(await finished).toBe(0);
    const withIt = count(live);
    expect(withIt.datasets).toBe(without.datasets + 1);
    // Each backup is the database before the import or after it, never a part of it.
    for (const s of seen) expect([without, withIt]).toContainEqual(s);
    console.log(
      `backup during import: ${seen.length} backups, ${seen.filter((s) => s.datasets === without.datasets).length} before it, ${seen.filter((s) => s.datasets === withIt.datasets).length} with all of it`,
    );
  });
});
